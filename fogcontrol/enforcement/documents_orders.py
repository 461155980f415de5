"""The documents of the later steps of a case, issued through the notices app (catalogue keys
``enforcement_*``): the administrative complaint (P5), the hearing notice, the hearing officer's
decision (P6, L4, M3), the penalty order (P7, P8), the suspension or revocation notice (L1, L2), the
emergency suspension order (M1, M3) and the notice of termination of sewer service (O1, O2).

Registered on import (``apps.EnforcementConfig.ready``). Each cites its provisions and states the
dates the rules engine computed; ``issue`` issues one for a case.
"""

from __future__ import annotations

import datetime as dt

from fogcontrol.notices import catalogue
from fogcontrol.notices.services import document_issue
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


def common_context(case) -> dict[str, str]:
    establishment = case.establishment
    return {
        "business_name": establishment.business_name,
        "site_address": establishment.site_address or "(no site address on record)",
        "case_reference": case.reference or str(case.pk),
    }


def issue(
    *,
    acting_user,
    key: str,
    case,
    context: dict[str, str],
    subject,
    service_method: str,
    served_on: dt.date | None,
    article_number: str = "",
    issued_on: dt.date | None = None,
):
    """Issue document ``key`` for ``case`` through the notices app (a copy of record)."""
    establishment = case.establishment
    return document_issue(
        acting_user=acting_user,
        key=key,
        establishment=establishment,
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
