"""Test helpers for the later steps of a case: a permit in force, a case with a violation of a P7
kind, dates counted back from the Town's today, and a document's PDF read back as text."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

from django.contrib.auth import get_user_model
from pypdf import PdfReader

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.enforcement.services.complaints import complaint_serve
from fogcontrol.enforcement.services.penalties import penalty_order_decide, penalty_order_propose
from fogcontrol.enforcement.tests.helpers import a_case, a_violation
from fogcontrol.notices.models import IssuedDocument
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_today

DAY = dt.timedelta(days=1)
FACTORS = {
    "harm": "Grease reached the Main Street sewer; one SSO.",
    "economic_benefit": "About $600 saved by skipping two pump-outs.",
    "nature_and_persistence": "Repeated after two notices.",
    "duration": "Ten days.",
    "corrective_action": "Pumped out after the SSO; schedule not yet restored.",
}


def ago(days: int) -> dt.date:
    return town_today() - days * DAY


def a_permit(town, **extra):
    return PermitFactory(
        establishment=town.own_fse,
        term_start=ago(200),
        first_issued_on=ago(200),
        valid_until=ago(200) + dt.timedelta(days=365),
        **extra,
    )


def a_case_of_kind(town, kind="maintenance", provision="E1", began=30):
    violation = a_violation(town, provision=provision, kind=kind, began_on=ago(began))
    return a_case(town, violations=[violation], opened_on=ago(began - 1))


def a_complaint(town, case, *, served_days_ago=50, hearing_after=20):
    served = ago(served_days_ago)
    return complaint_serve(
        acting_user=town.users[Role.FOG_MANAGER],
        case=case,
        violations=list(case.violations.all()),
        statement="The grease interceptor was not pumped out on schedule from March 2 to March 11.",
        law_violated="Town Code 10.02, E1 and P7(3)",
        proposed_penalty=Decimal("5000"),
        issued_on=served,
        service_method="certified_mail",
        served_on=served,
        article_number="9407 1111 0000 0001",
        hearing_on=served + hearing_after * DAY,
        hearing_place="Town Hall, Council Chamber",
    )


def pdf_text(document_id: int) -> str:
    document = IssuedDocument.objects.get(pk=document_id)
    reader = PdfReader(io.BytesIO(document_pdf(document)))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def issue_penalty_order(
    *, acting_user, issued_on, service_method, served_on, article_number="", approver=None, **proposal
):
    """A penalty order issued as the two-person rule has it: proposed by ``acting_user`` on the day of
    issue, approved (issued and served) by ``approver``, by default another Hearing Officer or FOG
    Manager of the town."""
    approver = approver or (
        get_user_model()
        .objects.filter(role__in=HEARING_RECORDERS)
        .exclude(pk=acting_user.pk)
        .order_by("pk")
        .first()
    )
    order = penalty_order_propose(acting_user=acting_user, proposed_on=issued_on, **proposal)
    return penalty_order_decide(
        acting_user=approver, order=order, approve=True, issued_on=issued_on, service_method=service_method,
        served_on=served_on, article_number=article_number,
    )  # fmt: skip
