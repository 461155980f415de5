"""The documents enforcement issues through the notices app (registered in ``apps.py``): the notice
of violation, the administrative citation (P2) and the compliance schedule agreement (H1-H4). The
Town edits their wording (notices' template versions); the text issued is kept as a copy of record.
``issue`` writes one and returns the IssuedDocument.

Issue 18: the notice of violation, the citation and the agreement are also registered in Spanish
(``<key>_es``, ``SPANISH``) and go out in the establishment's contact's language: ``issue`` writes
the dates and the violation lines in it (the provision IDs and the dates stay; the officer's own
words as written). ``letter_issue`` does so for every enforcement letter (``documents_orders`` too)."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext

from fogcontrol.core.languages import document_date
from fogcontrol.core.working import said
from fogcontrol.notices import catalogue
from fogcontrol.notices.selectors import default_addressee
from fogcontrol.notices.services import document_issue, document_language_for, wording_key
from fogcontrol.rules.explain import Sentence, fmt_date

NOTICE_OF_VIOLATION = "enforcement_notice_of_violation"
CITATION = "enforcement_citation"
COMPLIANCE_AGREEMENT = "enforcement_compliance_agreement"

COMMON = {
    "business_name": "The establishment's business name (A1).",
    "site_address": "The establishment's site address.",
    "case_reference": "The enforcement case number.",
    "issued_on": "The date of issue.",
}


def register() -> None:
    catalogue.register(
        NOTICE_OF_VIOLATION,
        title="Notice of violation to {business_name}",
        provisions=("P3", "D4"),
        placeholders={
            **COMMON,
            "violations": "Each violation: the provision, since when, what it is.",
            "required_action": "What the establishment must do.",
            "correct_by": "The date set for the correction.",
        },
        default_body=(
            "Case {case_reference}. Issued {issued_on}.\n\n"
            "To {business_name}, {site_address}:\n\n"
            "The Town finds the following violations of Chapter 10.02:\n{violations}\n\n"
            "Each day a violation continues is a separate offence (10.02, P3).\n\n"
            "You must: {required_action}\nby {correct_by}.\n\n"
            "If the violations are not corrected, the Town may issue an administrative citation, require a "
            "compliance schedule agreement, or begin other enforcement."
        ),
    )
    catalogue.register(
        CITATION,
        title="Administrative citation {citation_number} to {business_name}",
        provisions=("P2",),
        placeholders={
            **COMMON,
            "citation_number": "The citation number (Chapter 1.01).",
            "violation": "The violation cited: the provision and what it is.",
            "amount": "The amount of the citation.",
        },
        default_body=(
            "Case {case_reference}. Administrative citation {citation_number}, issued {issued_on}.\n\n"
            "To {business_name}, {site_address}:\n\n"
            "Violation: {violation}\n\nAmount: {amount}\n\n"
            "This citation is issued under Chapter 1.01 of the Town Code (10.02, P2). The procedures for "
            "payment and for contesting it are those of Chapter 1.01."
        ),
    )
    catalogue.register(
        COMPLIANCE_AGREEMENT,
        title="Compliance schedule agreement with {business_name}",
        provisions=("H1", "H2", "H3", "H4"),
        placeholders={
            **COMMON,
            "terms": "The terms of the agreement (H2).",
            "milestones": "Each milestone with its date.",
            "signed_by": "Who signed for the establishment.",
        },
        default_body=(
            "Case {case_reference}. Agreed {issued_on}.\n\n"
            "Between the Town and {business_name}, {site_address}, signed by {signed_by}.\n\n"
            "Terms (H2): {terms}\n\nMilestones:\n{milestones}\n\n"
            "Every amount owed to the Town was paid in full before this agreement was made (H3). An agreement "
            "not met in its term may lead to suspension or revocation of the FOG permit (H4)."
        ),
    )


# Issue 18: the Spanish wording (title, body) of the documents enforcement issues, registered as
# ``<key>_es`` with the same provisions and placeholders. The Town edits it as any template.
SPANISH = {
    NOTICE_OF_VIOLATION: (
        "Aviso de infracción a {business_name}",
        "Caso {case_reference}. Emitido el {issued_on}.\n\n"
        "A {business_name}, {site_address}:\n\n"
        "El Municipio determina que existen las siguientes infracciones del Capítulo 10.02:\n{violations}\n\n"
        "Cada día que continúa una infracción constituye una infracción distinta (10.02, P3).\n\n"
        "Usted debe: {required_action}\na más tardar el {correct_by}.\n\n"
        "Si las infracciones no se corrigen, el Municipio puede emitir una citación administrativa, exigir un "
        "acuerdo de calendario de cumplimiento o iniciar otras medidas para hacer cumplir el Código.",
    ),
    CITATION: (
        "Citación administrativa {citation_number} a {business_name}",
        "Caso {case_reference}. Citación administrativa {citation_number}, emitida el {issued_on}.\n\n"
        "A {business_name}, {site_address}:\n\n"
        "Infracción: {violation}\n\nMonto: {amount}\n\n"
        "Esta citación se emite conforme al Capítulo 1.01 del Código Municipal (10.02, P2). Los "
        "procedimientos para pagarla y para impugnarla son los del Capítulo 1.01.",
    ),
    COMPLIANCE_AGREEMENT: (
        "Acuerdo de calendario de cumplimiento con {business_name}",
        "Caso {case_reference}. Acordado el {issued_on}.\n\n"
        "Entre el Municipio y {business_name}, {site_address}, firmado por {signed_by}.\n\n"
        "Condiciones (H2): {terms}\n\nEtapas:\n{milestones}\n\n"
        "Todos los montos adeudados al Municipio se pagaron por completo antes de celebrar este acuerdo (H3). "
        "Si el acuerdo no se cumple en su plazo, el permiso FOG puede suspenderse o revocarse (H4).",
    ),
}


def register_spanish(wordings: dict[str, tuple[str, str]] = SPANISH) -> None:
    """Register each of ``wordings`` (key → Spanish title and body) as ``<key>_es``, with the
    provisions and placeholders of the English registered under ``key``."""
    for key, (title, body) in wordings.items():
        english = catalogue.registered(key)
        catalogue.register(
            f"{key}_es", title=title, provisions=english.provisions, placeholders=english.placeholders,
            default_body=body,
        )  # fmt: skip


def _date(day: dt.date, language: str) -> str:
    """English as the letters always wrote it ("Friday, July 3, 2026"); Spanish by the locale."""
    return fmt_date(day) if language == "en" else document_date(day, language)


@dataclasses.dataclass(frozen=True)
class Words:
    """Words a service writes into a letter, written at issue in the letter's language: ``text`` is
    the English (marked with ``gettext_noop`` where it is written, so the catalogue holds it, or a
    lazy ``pgettext_lazy`` when the same English needs its own Spanish) with
    named ``%(value)s`` slots; the ``values`` are written as any letter's value (dates in full)."""

    text: str
    values: dict = dataclasses.field(default_factory=dict)


def words(text: str, **values) -> Words:
    return Words(text, values)


@dataclasses.dataclass(frozen=True)
class Joined:
    """Several values written one after another (``separator`` between), each in the letter's language."""

    parts: tuple
    separator: str = " "


def _value(value, language: str):
    """A value for the letter in ``language``: a date written in full, violations one a line, words
    (``Words``, a lazy label) and the rules' sentences translated, a ``Joined`` written part by part."""
    if isinstance(value, dt.date):
        return _date(value, language)
    if isinstance(value, (list, tuple)):
        return "\n".join(violation_line(violation, language) for violation in value)
    if isinstance(value, Joined):
        return value.separator.join(_value(part, language) for part in value.parts)
    if isinstance(value, Sentence):  # a step of the rules' working, said in the letter's language
        with translation.override(language):
            return said(value)
    if isinstance(value, Words):
        values = {name: _value(part, language) for name, part in value.values.items()}
        with translation.override(language):
            text = str(value.text) if isinstance(value.text, Promise) else gettext(value.text)
            return text % values if values else text
    if isinstance(value, Promise):
        with translation.override(language):
            return str(value)
    return value


def letter_issue(
    *, acting_user, key: str, case, subject, context: dict, service_method: str, served_on: dt.date | None,
    article_number: str = "", issued_on: dt.date | None = None, addressee: str | None = None,
):  # fmt: skip
    """Issue ``key`` for ``case`` in the establishment's language (English when the document has no
    wording in it), every enforcement letter alike. ``context`` values may be dates, lists of
    violations, ``Words`` and ``Joined`` (written here in that language); ``addressee`` defaults to
    the establishment's address block (``default_addressee``)."""
    establishment = case.establishment
    _key, language = wording_key(key, document_language_for(establishment))
    return document_issue(
        acting_user=acting_user,
        key=key,
        establishment=establishment,
        addressee=addressee or default_addressee(establishment, language),
        context={name: _value(value, language) for name, value in context.items()},
        subject=subject,
        service_method=service_method,
        served_on=served_on,
        article_number=article_number,
        issued_on=issued_on,
        language=language,
    )


def issue(
    *, acting_user, key: str, case, subject, context: dict, service_method: str,
    served_on: dt.date | None, article_number: str, issued_on: dt.date,
):  # fmt: skip
    """Issue the notice of violation or the citation (``letter_issue``) with the establishment's
    name and site, the case's reference and the day of issue."""
    establishment = case.establishment
    values = {
        "business_name": establishment.business_name,
        "site_address": establishment.site_address,
        "case_reference": case.reference or str(case.pk),
        "issued_on": issued_on,
        **context,
    }
    return letter_issue(
        acting_user=acting_user, key=key, case=case, subject=subject, context=values,
        service_method=service_method, served_on=served_on, article_number=article_number, issued_on=issued_on,
    )  # fmt: skip


def violation_line(violation, language: str = "en") -> str:
    """One violation as the letter lists it, in ``language``: the provision, since when (a date in
    full), what it is (the rules' words translated when the catalogues hold them)."""
    began = _date(violation.began_on, language)
    if language == "en":
        return f"- {violation.provision}, since {began}: {violation.description}"
    with translation.override(language):
        return gettext("- %(provision)s, since %(day)s: %(description)s") % {
            "provision": violation.provision, "day": began, "description": gettext(violation.description),
        }  # fmt: skip
