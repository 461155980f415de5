"""The pages that record a step on one record of a case, through the same services as the API: the
complaint's waiver (P6), its appeal to the Town Council and the Council's outcome (P6), the
suspension or revocation order's appeal (L6) and service reinstated (O2). Each is linked from the
case timeline while the step is open, shows its form (GET), records the step (POST: the record and
the timeline show it), and a refused POST shows the reason and saves nothing."""

import datetime as dt
import html

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import AdministrativeComplaint, ServiceCost, ServiceTermination
from fogcontrol.enforcement.services.hearings import hearing_decide
from fogcontrol.enforcement.services.suspensions import (
    emergency_suspension_order,
    hearing_window,
    suspension_notice_issue,
)
from fogcontrol.enforcement.services.terminations import service_terminate
from fogcontrol.enforcement.tests.helpers_orders import a_case_of_kind, a_complaint, a_permit, ago
from fogcontrol.permits.models import PermitStatus
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.deadlines import revocation_decision_due
from fogcontrol.rules.explain import fmt_date

pytestmark = pytest.mark.django_db
DAY = dt.timedelta(days=1)


def text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def url(case, step, record) -> str:
    return f"/enforcement/cases/{case.pk}/record/{step}/{record.pk}/"


def timeline(client, case) -> str:
    return text(client.get(f"/enforcement/cases/{case.pk}/"))


@pytest.mark.provision("P6")
def test_p6_waiver_page_records_the_waiver_and_refuses_a_date_before_service(town, client):
    case = a_case_of_kind(town)
    complaint = a_complaint(town, case, served_days_ago=40, hearing_after=20)
    client.force_login(town.users[Role.HEARING_OFFICER])
    page = url(case, "waiver", complaint)
    assert (
        "Record the waiver (P6)" in timeline(client, case)
        and page in client.get(f"/enforcement/cases/{case.pk}/").content.decode()
    )
    shown = client.get(page)
    assert shown.status_code == 200 and 'name="waived_on"' in shown.content.decode()
    refused = client.post(page, {"waived_on": ago(41)})
    assert refused.status_code == 400 and "on or after service" in text(refused)
    assert AdministrativeComplaint.objects.get(pk=complaint.pk).waived_on is None
    done = client.post(page, {"waived_on": ago(35)})
    assert done.status_code == 302
    assert AdministrativeComplaint.objects.get(pk=complaint.pk).waived_on == ago(35)
    after = timeline(client, case)
    assert "Hearing waived" in after and "Record the waiver (P6)" not in after
    again = client.get(page)
    assert f"Not open: P6: the hearing was already waived on {fmt_date(ago(35))}." in text(again)
    assert 'name="waived_on"' not in again.content.decode()


@pytest.mark.provision("P6")
def test_p6_appeal_page_refused_before_the_decision_then_filed_and_the_council_outcome(town, client):
    case = a_case_of_kind(town)
    complaint = a_complaint(town, case, served_days_ago=40, hearing_after=20)
    officer = town.users[Role.HEARING_OFFICER]
    client.force_login(officer)
    page = url(case, "complaint-appeal", complaint)
    before = client.get(page)
    assert before.status_code == 200
    assert "Not open: P6: the hearing officer has not decided yet" in text(before)
    refused = client.post(page, {"appeal_status": "filed", "on": ago(1)})
    assert refused.status_code == 409 and "P6: the hearing officer has not decided yet" in text(refused)
    assert AdministrativeComplaint.objects.get(pk=complaint.pk).appeal_status == ""
    hearing_decide(acting_user=officer, hearing=complaint.hearing, held_on=ago(20), decided_on=ago(5),
                   hearing_officer_name="A. Reyes", outcome_text="A penalty of $4,000 is imposed.",
                   served_on=ago(5), article_number="9407 3")  # fmt: skip
    assert "Record the appeal (P6)" in timeline(client, case)
    assert 'name="appeal_status"' in client.get(page).content.decode()
    filed = client.post(page, {"appeal_status": "filed", "on": ago(1)})
    assert filed.status_code == 302
    assert "Appealed to the Town Council" in timeline(client, case)
    no_outcome = client.post(page, {"appeal_status": "upheld", "on": ago(0)})
    assert no_outcome.status_code == 400 and "Give the Town Council's decision." in text(no_outcome)
    assert AdministrativeComplaint.objects.get(pk=complaint.pk).appeal_status == "filed"
    decided = client.post(page, {"appeal_status": "upheld", "on": ago(0), "outcome": "Penalty upheld."})
    assert decided.status_code == 302
    after = timeline(client, case)
    assert "Town Council: Upheld by the Town Council" in after and "Penalty upheld." in after
    assert "Record the Town Council's outcome (P6)" not in after


@pytest.mark.provision("L6")
def test_l6_order_appeal_page_makes_the_order_final_and_applies_it_to_the_permit(town, client):
    case = a_case_of_kind(town)
    permit = a_permit(town)
    manager = town.users[Role.FOG_MANAGER]
    mailed = ago(90)
    hearing_on = hearing_window(mailed)["earliest"]
    hearing = suspension_notice_issue(
        acting_user=manager, case=case, kind="suspension", grounds=["violation"], facts="Two SSOs.",
        mailed_on=mailed, article_number="9407 1", hearing_on=hearing_on, hearing_place="Council Chamber",
    )  # fmt: skip
    page = url(case, "order-appeal", hearing)
    client.force_login(manager)
    assert "Not open: L6: the hearing officer has not decided yet" in text(client.get(page))
    due = revocation_decision_due(hearing_on, ruleset=ruleset_on(hearing_on), calendar=town_calendar()).due
    hearing_decide(acting_user=manager, hearing=hearing, held_on=hearing_on, decided_on=due,
                   hearing_officer_name="A. Reyes", outcome_text="Suspended for 30 days.",
                   article_number="9407 4")  # fmt: skip
    assert "Record the appeal or finality (L6)" in timeline(client, case)
    assert 'name="final_on"' in client.get(page).content.decode()
    refused = client.post(page, {"appeal_status": "not_appealed"})
    assert refused.status_code == 400 and "L6: give the date the decision became final." in text(refused)
    permit.refresh_from_db()
    assert permit.status == PermitStatus.ISSUED
    final = client.post(page, {"appeal_status": "not_appealed", "final_on": due + 16 * DAY})
    assert final.status_code == 302
    permit.refresh_from_db()
    assert permit.status == PermitStatus.SUSPENDED
    after = timeline(client, case)
    assert "Record the appeal or finality (L6)" not in after
    assert "Reinstate the suspended permit by order" in after and f"/permits/{permit.pk}/orders/new/" in after


@pytest.mark.provision("O2")
def test_o2_reinstatement_page_records_service_back_and_its_cost_owed(town, client):
    case = a_case_of_kind(town)
    a_permit(town)
    manager = town.users[Role.FOG_MANAGER]
    emergency = emergency_suspension_order(
        acting_user=manager, case=case, ordered_on=ago(4), determination="SSO", determined_by="FOG Manager"
    )
    termination = service_terminate(acting_user=manager, case=case, terminated_on=ago(3), how="Plugged.",
                                    permit_order=emergency.permit_order)  # fmt: skip
    page = url(case, "reinstatement", termination)
    client.force_login(manager)
    assert "Record service reinstated (O2)" in timeline(client, case)
    assert 'name="reinstated_on"' in client.get(page).content.decode()
    no_payer = client.post(page, {"reinstated_on": ago(1), "cost": "400"})
    assert no_payer.status_code == 400 and "O2: name the owner, operator or permittee who pays." in text(
        no_payer
    )
    too_early = client.post(page, {"reinstated_on": ago(4)})
    assert too_early.status_code == 400 and "after termination" in text(too_early)
    assert ServiceTermination.objects.get(pk=termination.pk).reinstated_on is None
    assert not ServiceCost.objects.filter(termination=termination).exists()
    done = client.post(page, {"reinstated_on": ago(1), "cost": "400", "owed_by": "Blue Plate Diner LLC"})
    assert done.status_code == 302
    assert ServiceTermination.objects.get(pk=termination.pk).reinstated_on == ago(1)
    after = timeline(client, case)
    assert (
        "Sewer service reinstated" in after
        and "Reinstatement (O2): $400.00 owed by Blue Plate Diner LLC" in after
    )
    assert "Record service reinstated (O2)" not in after
    assert f"Not open: O2: service was reinstated on {fmt_date(ago(1))}." in text(client.get(page))


@pytest.mark.provision("O2")
def test_o2_only_the_fog_manager_opens_the_reinstatement_page(town, client):
    case = a_case_of_kind(town)
    a_permit(town)
    manager = town.users[Role.FOG_MANAGER]
    emergency = emergency_suspension_order(
        acting_user=manager, case=case, ordered_on=ago(4), determination="SSO", determined_by="FOG Manager"
    )
    termination = service_terminate(acting_user=manager, case=case, terminated_on=ago(3), how="Plugged.",
                                    permit_order=emergency.permit_order)  # fmt: skip
    client.force_login(town.users[Role.HEARING_OFFICER])
    assert client.post(url(case, "reinstatement", termination), {"reinstated_on": ago(1)}).status_code == 403
    assert ServiceTermination.objects.get(pk=termination.pk).reinstated_on is None
