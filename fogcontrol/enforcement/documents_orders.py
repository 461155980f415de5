"""The documents of the later steps of a case, issued through the notices app (catalogue keys
``enforcement_*``): the administrative complaint (P5), the hearing notice, the hearing officer's
decision (P6, L4, M3), the penalty order (P7, P8), the suspension or revocation notice (L1, L2), the
emergency suspension order (M1, M3) and the notice of termination of sewer service (O1, O2).

Registered on import (``apps.EnforcementConfig.ready``). Each cites its provisions and states the
dates the rules engine computed; ``issue`` issues one for a case (``documents.letter_issue``).

Issue 18: each is also registered in Spanish (``<key>_es``, ``SPANISH``) and goes out in the
establishment's contact's language, as the notice of violation: the services give dates, ``Words``
and the labels below, written at issue in that language; the rules' own working (P5's last day,
P7's cap) is quoted as the English of record; what staff and the hearing officer wrote, as written.
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import pgettext_lazy

from fogcontrol.enforcement.documents import letter_issue, register_spanish
from fogcontrol.notices import catalogue
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.rules.explain import fmt_date

# The ordinance's periods a letter states, filled from the ruleset in force on the day of issue (never
# a number written into the wording): every document here may use them.
ORDINANCE_PERIODS = {
    "complaint_hearing_days": "P5: the days after service within which the hearing is held.",
    "appeal_days": "P6: the days to appeal the hearing officer's decision to the Town Council.",
    "lien_delinquency_days": "P9: the days a penalty is delinquent before it may become a lien.",
    "hearing_continuance_max_days": "L3: the most days a hearing may be continued in total.",
    "hearing_decision_days": "L4: the days after the hearing ends within which the decision follows.",
}

COMMON = {
    "business_name": "The FSE's business name.",
    "site_address": "The FSE's site address.",
    "case_reference": "The case's reference.",
    **ORDINANCE_PERIODS,
}

DOCUMENTS = {
    "enforcement_complaint": dict(
        title="Administrative complaint {complaint_reference}: {business_name}",
        provisions=("P5", "P6", "P7"),
        placeholders={
            **COMMON,
            "complaint_reference": "The complaint's reference.",
            "statement": "P5: the acts or failures that are the violation.",
            "law_violated": "P5: the provisions of law authorising the penalty.",
            "proposed_penalty": "P5: the proposed penalty.",
            "hearing_on": "The hearing date set.",
            "hearing_latest_on": "P5: the latest hearing date (with its working).",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\n"
            "The Town issues this administrative complaint (case {case_reference}) under Section 10.02 of the "
            "Town Code (P5).\n\nThe violation: {statement}\n\nThe law violated: {law_violated}\n\n"
            "The proposed administrative civil penalty: {proposed_penalty}.\n\n"
            "A hearing before a hearing officer is set for {hearing_on}. Under P5 the hearing is held within "
            "{complaint_hearing_days} days after service: no later than {hearing_latest_on}. You may waive the hearing "
            "(P6). You may appeal the hearing officer's decision to the Town Council within {appeal_days} days of "
            "notice of it (P6)."
        ),
    ),
    "enforcement_hearing_notice": dict(
        title="Notice of hearing: {business_name} (case {case_reference})",
        provisions=("P6", "L2", "L3"),
        placeholders={
            **COMMON,
            "hearing_kind": "What the hearing is on.",
            "hearing_on": "The hearing date.",
            "hearing_place": "Where the hearing is held.",
            "limits": "The limits the hearing date keeps, with their working.",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\nA hearing on {hearing_kind} (case {case_reference}) is set "
            "for {hearing_on} at {hearing_place}.\n\n{limits}"
        ),
    ),
    "enforcement_decision": dict(
        title="Decision of the hearing officer: {business_name} (case {case_reference})",
        provisions=("P6", "L4", "L6", "M3"),
        placeholders={
            **COMMON,
            "hearing_kind": "What the hearing was on.",
            "decided_on": "The date of the decision.",
            "outcome": "The decision, as written.",
            "appeal": "What appeal is open and until when (P6, L6), or that the decision is final (M3).",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\nOn {decided_on} the hearing officer decided the hearing on "
            "{hearing_kind} (case {case_reference}):\n\n{outcome}\n\n{appeal}"
        ),
    ),
    "enforcement_penalty_order": dict(
        title="Administrative civil penalty order {order_reference}: {business_name}",
        provisions=("P3", "P7", "P8", "P9", "P10", "P12"),
        placeholders={
            **COMMON,
            "order_reference": "The penalty order's reference.",
            "amount": "The penalty imposed.",
            "cap_working": "P7: the cap and its working.",
            "factors": "P7: the factors the hearing officer weighed.",
            "issued_on": "The date of issue.",
            "payment_due_on": "P8: the date payment is due (with its working).",
            "account": "P12: the account the penalty is paid into.",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\nThe hearing officer imposes an administrative civil penalty "
            "of {amount} (case {case_reference}).\n\n{cap_working}\n\nThe hearing officer weighed (P7): "
            "{factors}\n\nThis order, issued {issued_on}, is final on issuance unless appealed to the Town "
            "Council (P8). Payment is due by {payment_due_on} (P8), into the Town's penalty account {account} "
            "(P12). A penalty delinquent {lien_delinquency_days} days may become a lien on your real property (P9)."
        ),
    ),
    "enforcement_suspension_notice": dict(
        title="Notice of proposed {order_kind} of FOG permit {permit_number}: {business_name}",
        provisions=("L1", "L2", "L3", "L4", "L5", "L6"),
        placeholders={
            **COMMON,
            "order_kind": "Suspension or revocation.",
            "permit_number": "The permit's number.",
            "facts": "L2: the statement of facts.",
            "grounds": "L1: the grounds.",
            "hearing_on": "The hearing date.",
            "hearing_place": "The hearing's place.",
            "hearing_window": "L2: the window the hearing keeps, with its working.",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\nThe Town proposes the {order_kind} of FOG permit "
            "{permit_number} (case {case_reference}).\n\nThe facts: {facts}\n\nThe grounds (L1): {grounds}\n\n"
            "A hearing is set for {hearing_on} at {hearing_place}. {hearing_window}\n\nThe hearing may be "
            "continued by no more than {hearing_continuance_max_days} days in total (L3); the written decision follows "
            "within {hearing_decision_days} days after "
            "the hearing ends (L4). The order takes effect when final, unless appealed to the Town Council (L6)."
        ),
    ),
    "enforcement_emergency_order": dict(
        title="Emergency suspension order {order_reference}: {business_name}",
        provisions=("M1", "M2", "M3"),
        placeholders={
            **COMMON,
            "order_reference": "The order's reference.",
            "permit_number": "The permit's number.",
            "ordered_on": "The date of the order.",
            "determination": "M1: why the suspension is necessary.",
            "hearing_by": "M3: the latest hearing date (with its working).",
            "decision_by": "M3: the latest decision date (with its working).",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\nBy order of {ordered_on} FOG permit {permit_number} is "
            "suspended at once (M1, case {case_reference}): {determination}\n\nYou must cease discharge "
            "immediately; non-compliance leads to physical disconnection (M2). A hearing is held no later than "
            "{hearing_by}; it does not stay this order. The written decision follows no later than "
            "{decision_by}; it is final and not appealable (M3)."
        ),
    ),
    "enforcement_termination_notice": dict(
        title="Termination of sewer service: {business_name}",
        provisions=("O1", "O2", "L5"),
        placeholders={
            **COMMON,
            "terminated_on": "The date service was terminated.",
            "basis": "O1: the order or notice it follows.",
            "how": "How service was stopped.",
        },
        default_body=(
            "To {business_name}, {site_address}.\n\nSewer service to the site was terminated on {terminated_on} "
            "(O1, case {case_reference}): {basis}. {how}\n\nThe costs of disconnection and reinstatement are "
            "paid by the owner, operator or permittee (O2)."
        ),
    ),
}

for _key, _declaration in DOCUMENTS.items():
    catalogue.register(_key, **_declaration)

# Issue 18: the Spanish wording (title, body) of each, registered as ``<key>_es`` with the same
# provisions and placeholders; the periods come from the ruleset's placeholders, as in the English.
SPANISH = {
    "enforcement_complaint": (
        "Denuncia administrativa {complaint_reference}: {business_name}",
        "A {business_name}, {site_address}.\n\n"
        "El Municipio emite esta denuncia administrativa (caso {case_reference}) conforme a la Sección 10.02 del "
        "Código Municipal (P5).\n\nLa infracción: {statement}\n\nLas disposiciones legales infringidas: "
        "{law_violated}\n\nLa multa civil administrativa propuesta: {proposed_penalty}.\n\n"
        "Se fijó una audiencia ante un funcionario de audiencias para el {hearing_on}. Conforme a P5, la "
        "audiencia se celebra dentro de los {complaint_hearing_days} días siguientes a la notificación: a más "
        "tardar el {hearing_latest_on}. Usted puede renunciar a la audiencia (P6). Puede apelar la decisión del "
        "funcionario de audiencias ante el Concejo Municipal dentro de los {appeal_days} días siguientes a su "
        "notificación (P6).",
    ),
    "enforcement_hearing_notice": (
        "Aviso de audiencia: {business_name} (caso {case_reference})",
        "A {business_name}, {site_address}.\n\nSe fijó una audiencia sobre {hearing_kind} (caso "
        "{case_reference}) para el {hearing_on} en {hearing_place}.\n\n{limits}",
    ),
    "enforcement_decision": (
        "Decisión del funcionario de audiencias: {business_name} (caso {case_reference})",
        "A {business_name}, {site_address}.\n\nEl {decided_on}, el funcionario de audiencias resolvió la "
        "audiencia sobre {hearing_kind} (caso {case_reference}):\n\n{outcome}\n\n{appeal}",
    ),
    "enforcement_penalty_order": (
        "Orden de multa civil administrativa {order_reference}: {business_name}",
        "A {business_name}, {site_address}.\n\nEl funcionario de audiencias impone una multa civil "
        "administrativa de {amount} (caso {case_reference}).\n\n{cap_working}\n\nEl funcionario de "
        "audiencias consideró (P7): {factors}\n\nEsta orden, emitida el {issued_on}, es definitiva desde su "
        "emisión salvo que se apele ante el Concejo Municipal (P8). El pago vence el {payment_due_on} (P8) y se "
        "deposita en la cuenta de multas del Municipio {account} (P12). Una multa con {lien_delinquency_days} "
        "días de atraso puede convertirse en un gravamen sobre su propiedad inmueble (P9).",
    ),
    "enforcement_suspension_notice": (
        "Aviso de {order_kind} propuesta del permiso FOG {permit_number}: {business_name}",
        "A {business_name}, {site_address}.\n\nEl Municipio propone la {order_kind} del permiso FOG "
        "{permit_number} (caso {case_reference}).\n\nLos hechos: {facts}\n\nLos motivos (L1): {grounds}\n\n"
        "Se fijó una audiencia para el {hearing_on} en {hearing_place}. {hearing_window}\n\nLa audiencia puede "
        "aplazarse por no más de {hearing_continuance_max_days} días en total (L3); la decisión por escrito se "
        "emite dentro de los {hearing_decision_days} días siguientes al término de la audiencia (L4). La orden "
        "entra en vigor cuando sea definitiva, salvo que se apele ante el Concejo Municipal (L6).",
    ),
    "enforcement_emergency_order": (
        "Orden de suspensión de emergencia {order_reference}: {business_name}",
        "A {business_name}, {site_address}.\n\nPor orden del {ordered_on}, el permiso FOG {permit_number} "
        "queda suspendido de inmediato (M1, caso {case_reference}): {determination}\n\nDebe dejar de descargar "
        "de inmediato; el incumplimiento da lugar a la desconexión física (M2). Se celebrará una audiencia a "
        "más tardar el {hearing_by}; la audiencia no suspende esta orden. La decisión por escrito se emitirá a "
        "más tardar el {decision_by}; es definitiva e inapelable (M3).",
    ),
    "enforcement_termination_notice": (
        "Terminación del servicio de alcantarillado: {business_name}",
        "A {business_name}, {site_address}.\n\nEl servicio de alcantarillado del predio se terminó el "
        "{terminated_on} (O1, caso {case_reference}): {basis}. {how}\n\nLos costos de la desconexión y de la "
        "reconexión corren por cuenta del propietario, el operador o el titular del permiso (O2).",
    ),
}
register_spanish(SPANISH)

# The labels of other records a letter states, as the English letter writes them, translated in a
# Spanish one (context "letter": their words in a sentence, not the portal's labels).
NO_SITE_ADDRESS = pgettext_lazy("letter", "(no site address on record)")
HEARING_KINDS = {
    "complaint": pgettext_lazy("letter", "Administrative complaint (P5, P6)"),
    "suspension": pgettext_lazy("letter", "Suspension or revocation (L2-L4)"),
    "emergency": pgettext_lazy("letter", "Emergency suspension (M3)"),
}
REQUESTED_BY = {
    "respondent": pgettext_lazy("letter", "the respondent"),
    "town": pgettext_lazy("letter", "the town"),
    "hearing_officer": pgettext_lazy("letter", "the hearing officer"),
}
# The permit order's kind: in the suspension notice's sentence, and named with its provisions (O1).
ORDER_KINDS = {
    "suspension": pgettext_lazy("letter", "suspension"),
    "revocation": pgettext_lazy("letter", "revocation"),
}
ORDER_KIND_NAMES = {
    "suspension": pgettext_lazy("letter", "Suspension (L1-L6)"),
    "revocation": pgettext_lazy("letter", "Revocation (L1-L6)"),
    "emergency_suspension": pgettext_lazy("letter", "Emergency suspension (M1-M3)"),
    "reinstatement": pgettext_lazy("letter", "Reinstatement"),
}
GROUNDS = {
    "csa_not_met": pgettext_lazy("letter", "Failed to comply with a compliance schedule agreement (H4)"),
    "false_statement": pgettext_lazy("letter", "Knowingly provided a false statement, record or report"),
    "records_refused": pgettext_lazy("letter", "Refused to provide records, reports or plans"),
    "tampering": pgettext_lazy("letter", "Falsified or tampered with a monitoring device or sampling"),
    "access_refused": pgettext_lazy("letter", "Refused reasonable access for inspection and monitoring"),
    "unpaid": pgettext_lazy("letter", "Did not pay amounts owed to the Town on time"),
    "interference": pgettext_lazy("letter", "Caused interference, sewer blockages or SSOs"),
    "violation": pgettext_lazy(
        "letter", "Violated maintenance requirements, a permit condition or the chapter"
    ),
}
# P7's factors (rules.penalties.P7_FACTORS), in its order.
P7_FACTOR_WORDS = (
    pgettext_lazy("letter", "extent of harm caused by the violation"),
    pgettext_lazy("letter", "economic benefit derived through the non-compliance"),
    pgettext_lazy("letter", "nature and persistence of the violation"),
    pgettext_lazy("letter", "length of time over which the violation occurred"),
    pgettext_lazy("letter", "corrective action attempted or taken"),
)


def common_context(case) -> dict:
    establishment = case.establishment
    return {
        "business_name": establishment.business_name,
        "site_address": establishment.site_address or NO_SITE_ADDRESS,
        "case_reference": case.reference or str(case.pk),
    }


def issue(
    *,
    acting_user,
    key: str,
    case,
    context: dict,
    subject,
    service_method: str,
    served_on: dt.date | None,
    article_number: str = "",
    issued_on: dt.date | None = None,
):
    """Issue document ``key`` for ``case`` through the notices app (a copy of record), in the
    establishment's language, with the ordinance's periods in force on the day of issue."""
    establishment = case.establishment
    return letter_issue(
        acting_user=acting_user,
        key=key,
        case=case,
        addressee=f"{establishment.business_name}\n{establishment.site_address}".strip(),
        context={**common_context(case), **ordinance_periods(issued_on or town_today()), **context},
        subject=subject,
        service_method=service_method,
        served_on=served_on,
        article_number=article_number,
        issued_on=issued_on,
    )


def ordinance_periods(issued_on: dt.date) -> dict[str, str]:
    """The values of ``ORDINANCE_PERIODS`` in the ruleset in force on ``issued_on``."""
    ruleset = ruleset_on(issued_on)
    return {name: str(getattr(ruleset, name)) for name in ORDINANCE_PERIODS}


def day(value: dt.date | None) -> str:
    return fmt_date(value) if value else "(not set)"
