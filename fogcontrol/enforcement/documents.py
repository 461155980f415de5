"""The documents enforcement issues through the notices app (registered in ``apps.py``): the notice
of violation, the administrative citation (P2) and the compliance schedule agreement (H1-H4). The
Town edits their wording (notices' template versions); the text issued is kept as a copy of record.
``issue`` writes one and returns the IssuedDocument."""

from __future__ import annotations

import datetime as dt

from fogcontrol.notices import catalogue
from fogcontrol.notices.selectors import default_addressee
from fogcontrol.notices.services import document_issue
from fogcontrol.rules.explain import fmt_date

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


def issue(
    *, acting_user, key: str, case, subject, context: dict[str, str], service_method: str,
    served_on: dt.date | None, article_number: str, issued_on: dt.date,
):  # fmt: skip
    establishment = case.establishment
    values = {
        "business_name": establishment.business_name,
        "site_address": establishment.site_address,
        "case_reference": case.reference or str(case.pk),
        "issued_on": fmt_date(issued_on),
        **context,
    }
    return document_issue(
        acting_user=acting_user,
        key=key,
        establishment=establishment,
        addressee=default_addressee(establishment),
        context=values,
        subject=subject,
        service_method=service_method,
        served_on=served_on,
        article_number=article_number,
        issued_on=issued_on,
    )


def violation_line(violation) -> str:
    return f"- {violation.provision}, since {fmt_date(violation.began_on)}: {violation.description}"
