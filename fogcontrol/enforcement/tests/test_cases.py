"""Cases and their steps: the H3 refusal naming the amounts, the H4 missed milestone, the timeline
with what is due next by the rules' dates, documents issued with the Town's wording (read back from
the PDF), referrals recorded as outcomes."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from pypdf import PdfReader

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.actions import case_actions
from fogcontrol.enforcement.models import ComplianceAgreement, Hearing
from fogcontrol.enforcement.selectors.cases import case_detail
from fogcontrol.enforcement.selectors.steps import case_timeline, next_due
from fogcontrol.enforcement.services import steps
from fogcontrol.enforcement.services.sweep import milestones_flag_missed
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.permits.models import FeeCharge, FeeKind
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.deadlines import appeal_due

pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 3, 6)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text_of(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages)


def _owe(town, amount="250.00"):
    return FeeCharge.objects.create(
        kind=FeeKind.RENEWAL, amount=Decimal(amount), fee_schedule=fee_schedule(), establishment=town.own_fse,
        description="Renewal fee", assessed_on=dt.date(2026, 1, 10),
    )  # fmt: skip


def _agree(town, case, *, due=dt.date(2026, 4, 1)):
    return steps.compliance_agreement_make(
        acting_user=town.users[Role.FOG_MANAGER], case=case, agreed_on=DAY, terms="Fit drain screens; BMP training",
        signed_by="Pat Owner", milestones=[{"description": "Screens fitted", "due_on": due}], today=DAY,
    )  # fmt: skip


@pytest.mark.provision("H3")
def test_h3_no_agreement_while_a_fee_is_owed_and_the_refusal_names_it(town):
    case = a_case(town)
    charge = _owe(town)
    verdict = case_actions(
        town.users[Role.FOG_MANAGER], case_detail(town.users[Role.FOG_MANAGER], case.pk), today=DAY
    )
    assert not verdict["compliance_agreement"] and "$250.00" in verdict["compliance_agreement"].reason
    with pytest.raises(steps.AmountsOwed, match=r"H3.*\$250\.00") as refusal:
        _agree(town, case)
    assert refusal.value.total == Decimal("250.00") and refusal.value.owed[0].amount == Decimal("250.00")
    assert not ComplianceAgreement.objects.exists()
    charge.status = FeeCharge.Status.PAID
    charge.save()
    assert _agree(town, case).status == ComplianceAgreement.Status.IN_FORCE


@pytest.mark.provision("H4")
def test_h4_a_missed_milestone_is_flagged_once_and_offers_suspension(town, client):
    case = a_case(town)
    agreement = _agree(town, case)
    manager = town.users[Role.FOG_MANAGER]
    before = case_actions(manager, case_detail(manager, case.pk), today=dt.date(2026, 4, 1))
    assert not before["suspension"] and "No milestone" in before["suspension"].reason
    assert milestones_flag_missed(today=dt.date(2026, 4, 2)) == 1
    assert milestones_flag_missed(today=dt.date(2026, 4, 3)) == 0
    agreement.refresh_from_db()
    assert agreement.status == ComplianceAgreement.Status.NOT_MET
    after = case_actions(manager, case_detail(manager, case.pk), today=dt.date(2026, 4, 2))
    assert after["suspension"]
    # An inspector sees the case but is not offered the step the FOG Manager alone begins (L1).
    inspector = town.users[Role.INSPECTOR]
    offered = case_actions(inspector, case_detail(inspector, case.pk), today=dt.date(2026, 4, 2))
    assert not offered["suspension"] and offered["suspension"].forbidden
    assert offered["suspension"].reason == "Only the FOG Manager begins suspension or revocation."
    page = client_for(inspector).get(f"/enforcement/cases/{case.pk}/")
    assert page.status_code == 200 and "Repeated missing drain screens" in page.content.decode()
    assert f"/enforcement/cases/{case.pk}/suspension-notice/" not in page.content.decode()
    manager_page = client_for(manager).get(f"/enforcement/cases/{case.pk}/").content.decode()
    assert f"/enforcement/cases/{case.pk}/suspension-notice/" in manager_page
    timeline = case_timeline(case_detail(manager, case.pk), today=dt.date(2026, 4, 2))
    missed = [s for s in timeline if s.key == "milestone_missed"]
    assert missed and missed[0].provision == "H4" and missed[0].state == "late"


@pytest.mark.provision("P6")
def test_p6_timeline_next_due_comes_from_the_rules(town):
    case = a_case(town)
    _agree(town, case, due=dt.date(2026, 6, 1))
    decided = dt.date(2026, 5, 1)
    Hearing.objects.create(case=case, kind=Hearing.Kind.COMPLAINT, first_scheduled_on=dt.date(2026, 4, 20),
                           scheduled_on=dt.date(2026, 4, 20), held_on=dt.date(2026, 4, 20), decided_on=decided,
                           outcome="Penalty of $500")  # fmt: skip
    manager = town.users[Role.FOG_MANAGER]
    today = dt.date(2026, 5, 4)
    timeline = case_timeline(case_detail(manager, case.pk), today=today)
    expected = appeal_due(decided, ruleset=ruleset_on(decided), calendar=town_calendar())
    step = next_due(timeline)
    assert step.key == "appeal_window" and step.provision == "P6" and step.due_on == expected.due
    assert "P6" in step.explanation
    later = next_due(case_timeline(case_detail(manager, case.pk), today=expected.due + dt.timedelta(days=1)))
    assert later.key == "milestone" and later.due_on == dt.date(2026, 6, 1)


@pytest.mark.provision("P3")
def test_p3_notice_of_violation_is_issued_with_the_towns_wording_and_service(town):
    case = a_case(town)
    violation = case.violations.get()
    notice = steps.notice_of_violation_issue(
        acting_user=town.users[Role.INSPECTOR], case=case_detail(town.users[Role.INSPECTOR], case.pk),
        violations=[violation], required_action="Fit drain screens on every sink", correct_by=dt.date(2026, 3, 20),
        issued_on=DAY, service_method="certified_mail", served_on=dt.date(2026, 3, 9), article_number="9407 0000 1111",
        today=DAY,
    )  # fmt: skip
    text = text_of(document_pdf(notice.document))
    assert "Notice of violation to Blue Plate Diner" in text and "C3, since Monday, March 2, 2026" in text
    assert "Fit drain screens on every sink by Friday, March 20, 2026" in text
    assert "Certified mail, article no. 9407 0000 1111, served March 9, 2026" in text
    due = next_due(case_timeline(case_detail(town.users[Role.INSPECTOR], case.pk), today=DAY))
    assert due.key == "correction_due" and due.due_on == dt.date(2026, 3, 20)


@pytest.mark.provision("P2")
def test_p2_citation_recorded_with_number_amount_and_service_and_owed_under_h3(town):
    case = a_case(town)
    citation = steps.citation_issue(
        acting_user=town.users[Role.INSPECTOR], case=case, violation=case.violations.get(), number="AC-2026-0042",
        amount=Decimal("100.00"), issued_on=DAY, service_method="personal_delivery", served_on=DAY, today=DAY,
    )  # fmt: skip
    text = text_of(document_pdf(citation.document))
    assert "AC-2026-0042" in text and "$100.00" in text and "Chapter 1.01" in text
    with pytest.raises(steps.AmountsOwed, match="AC-2026-0042"):
        _agree(town, case)


@pytest.mark.provision("P11")
def test_p11_referral_and_its_outcome_are_recorded(town):
    case = a_case(town)
    manager = town.users[Role.FOG_MANAGER]
    referral = steps.referral_record(acting_user=manager, case=case, kind="judicial", violations=[case.violations.get()],
                                     referred_on=DAY, referred_to="Town Attorney", today=DAY)  # fmt: skip
    steps.referral_outcome_record(acting_user=manager, referral=referral, outcome="Judgment for the Town",
                                  outcome_on=dt.date(2026, 9, 1), amount_recovered=Decimal("5000"))  # fmt: skip
    keys = [s.key for s in case_timeline(case_detail(manager, case.pk), today=dt.date(2026, 9, 2))]
    assert "referral" in keys and "referral_outcome" in keys


def test_a_closed_case_is_a_conflict_and_a_role_without_the_step_is_denied(town):
    """The service answers by the refusal's kind, not its words: the state of the record is a
    conflict (409) for an officer; the role is a denial (403) whatever the state."""
    case = a_case(town)
    steps_case = case_detail(town.users[Role.FOG_MANAGER], case.pk)
    steps_case.closed_on = DAY
    steps_case.save(update_fields=["closed_on"])
    with pytest.raises(StateConflict, match="The case was closed"):
        steps.referral_record(acting_user=town.users[Role.FOG_MANAGER], case=case, kind="criminal",
                              violations=[case.violations.get()], referred_on=DAY, referred_to="DA", today=DAY)  # fmt: skip
    with pytest.raises(PermissionDenied):
        steps.referral_record(acting_user=town.users[Role.HEARING_OFFICER], case=case, kind="criminal",
                              violations=[case.violations.get()], referred_on=DAY, referred_to="DA", today=DAY)  # fmt: skip


def test_the_hearing_officer_may_not_take_case_steps(town):
    case = a_case(town)
    with pytest.raises(PermissionDenied):
        steps.referral_record(acting_user=town.users[Role.HEARING_OFFICER], case=case, kind="criminal",
                              violations=[case.violations.get()], referred_on=DAY, referred_to="DA", today=DAY)  # fmt: skip


@pytest.mark.provision("H3")
def test_h3_a_citation_paid_is_no_longer_owed(town):
    case = a_case(town)
    citation = steps.citation_issue(
        acting_user=town.users[Role.INSPECTOR], case=case, violation=case.violations.get(), number="AC-2026-0050",
        amount=Decimal("80.00"), issued_on=DAY, service_method="personal_delivery", served_on=DAY, today=DAY,
    )  # fmt: skip
    with pytest.raises(PermissionDenied):
        steps.citation_record_payment(acting_user=town.users[Role.INSPECTOR], citation=citation, paid_on=DAY)
    steps.citation_record_payment(acting_user=town.users[Role.BILLING_CLERK], citation=citation, paid_on=DAY)
    assert _agree(town, case).status == ComplianceAgreement.Status.IN_FORCE
