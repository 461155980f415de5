"""The later steps of a case through the API, each date from the rules engine: the administrative
complaint (P5, P6), suspension and revocation (L1-L6) with continuances (L3), penalty orders within
the caps (P7-P10), emergency suspension (M1-M3) and termination of service (O1, O2); each document
read back from its PDF."""

import datetime as dt
from decimal import Decimal

import pytest

from conftest import api_as
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing, PenaltyOrder, ServiceCost
from fogcontrol.enforcement.services.steps import referral_outcome_record, referral_record
from fogcontrol.enforcement.tests.helpers_orders import (
    DAY,
    FACTORS,
    a_case_of_kind,
    a_complaint,
    a_permit,
    ago,
    pdf_text,
)
from fogcontrol.permits.models import PermitStatus
from fogcontrol.program.models import Holiday
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import (
    appeal_due,
    complaint_hearing_due,
    continuance_limit,
    emergency_decision_due,
    emergency_hearing_due,
    penalty_payment_due,
    revocation_decision_due,
    revocation_hearing_window,
)
from fogcontrol.rules.explain import fmt_date

pytestmark = pytest.mark.django_db


def rules(day):
    return {"ruleset": ruleset_on(day), "calendar": town_calendar()}


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


@pytest.fixture
def officer(town):
    return town.users[Role.HEARING_OFFICER]


@pytest.fixture
def case(town):
    return a_case_of_kind(town)


def suspension_body(mailed, hearing, **extra):
    return {"grounds": ["violation", "interference"], "facts": "Two SSOs traced to the FSE's lateral.",
            "mailed_on": mailed, "article_number": "9407 2222 0000 0001", "hearing_on": hearing,
            "hearing_place": "Town Hall, Council Chamber", **extra}  # fmt: skip


# --- P5, P6: the administrative complaint -------------------------------------------------------


@pytest.mark.provision("P5")
def test_p5_complaint_hearing_after_the_60_day_limit_is_refused_and_within_it_served(town, manager, case):
    served = ago(50)
    limit = complaint_hearing_due(served, **rules(served)).due
    body = {"violations": [v.pk for v in case.violations.all()], "statement": "Interceptor not pumped on schedule.",
            "law_violated": "10.02 E1; P7(3)", "proposed_penalty": "5000", "issued_on": served,
            "service_method": "certified_mail", "served_on": served, "article_number": "9407 1",
            "hearing_on": limit + DAY, "hearing_place": "Council Chamber"}  # fmt: skip
    client = api_as(manager)
    refused = client.post(f"/api/v1/enforcement/cases/{case.pk}/complaints/", body, format="json")
    assert refused.status_code == 400 and "P5" in refused.json()["hearing_on"][0]
    assert fmt_date(limit) in refused.json()["hearing_on"][0]
    no_number = client.post(f"/api/v1/enforcement/cases/{case.pk}/complaints/",
                            {**body, "hearing_on": limit, "article_number": ""}, format="json")  # fmt: skip
    assert no_number.status_code == 400 and "article_number" in no_number.json()
    answer = client.post(
        f"/api/v1/enforcement/cases/{case.pk}/complaints/", {**body, "hearing_on": limit}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert (
        data["hearing_latest_on"] == limit.isoformat()
        and data["hearing"]["scheduled_on"] == limit.isoformat()
    )
    text = pdf_text(data["document_id"])
    assert "Administrative complaint" in text and "Blue Plate Diner" in text
    assert fmt_date(limit) in text and "$5,000.00" in text and "P5" in text


@pytest.mark.provision("P6")
def test_p6_waiver_decision_and_the_15_day_appeal_window(town, officer, case):
    complaint = a_complaint(town, case, served_days_ago=40, hearing_after=20)
    client = api_as(officer)
    waived = client.post(
        f"/api/v1/enforcement/complaints/{complaint.pk}/waiver/", {"waived_on": ago(35)}, format="json"
    )
    assert waived.status_code == 200 and waived.json()["hearing"]["waived_on"] == ago(35).isoformat()
    decided_on = ago(20)
    decision = client.post(f"/api/v1/enforcement/hearings/{complaint.hearing_id}/decision/",
                           {"decided_on": decided_on, "hearing_officer_name": "A. Reyes",
                            "outcome_text": "A penalty of $4,000 is imposed.", "served_on": decided_on,
                            "article_number": "9407 3"}, format="json")  # fmt: skip
    assert decision.status_code == 200, decision.json()
    appeal_by = appeal_due(decided_on, **rules(decided_on)).due
    complaint.refresh_from_db()
    assert complaint.appeal_by == appeal_by
    hearing = Hearing.objects.get(pk=complaint.hearing_id)
    text = pdf_text(hearing.explanation["decision_document"])
    assert "A penalty of $4,000 is imposed." in text and fmt_date(appeal_by) in text and "P6" in text
    late = client.post(f"/api/v1/enforcement/complaints/{complaint.pk}/appeal/",
                       {"appeal_status": "filed", "on": appeal_by + DAY}, format="json")  # fmt: skip
    if appeal_by + DAY <= town_today():
        assert late.status_code == 400 and "P6" in late.json()["on"][0]
    filed = client.post(f"/api/v1/enforcement/complaints/{complaint.pk}/appeal/",
                        {"appeal_status": "filed", "on": appeal_by}, format="json")  # fmt: skip
    assert filed.status_code == 200 and filed.json()["appeal_status"] == "filed"
    outcome = client.post(f"/api/v1/enforcement/complaints/{complaint.pk}/appeal/",
                          {"appeal_status": "upheld", "on": town_today(), "outcome": "Upheld."}, format="json")  # fmt: skip
    assert outcome.status_code == 200 and outcome.json()["council_outcome"] == "Upheld."


# --- L1-L6: suspension and revocation through the case -------------------------------------------


@pytest.mark.provision("L2")
def test_l2_notice_mailed_just_before_a_holiday_hearing_window_and_its_refusals(town, manager, case):
    """Mailed Tuesday, November 10, 2026, the day before Veterans Day: day 15 is Wednesday, November 25;
    day 45 is Christmas Day, a Friday the offices are closed, so the latest date is Thursday, December 24."""
    a_permit(town)
    Holiday.objects.update_or_create(date=dt.date(2026, 11, 11), defaults={"name": "Veterans Day"})
    Holiday.objects.update_or_create(date=dt.date(2026, 12, 25), defaults={"name": "Christmas Day"})
    mailed = dt.date(2026, 11, 10)
    window = revocation_hearing_window(mailed, **rules(mailed))
    assert (window.earliest_business_day, window.latest) == (dt.date(2026, 11, 25), dt.date(2026, 12, 24))
    client = api_as(manager)
    url = f"/api/v1/enforcement/cases/{case.pk}/suspension-notices/"
    outside = client.post(url, suspension_body(mailed, dt.date(2026, 12, 28)), format="json")
    assert outside.status_code == 400
    body = outside.json()
    assert (
        "L2" in body["hearing_on"][0] and body["earliest"] == "2026-11-25" and body["latest"] == "2026-12-24"
    )
    assert (
        body["hearing_window"]["latest"] == "2026-12-24"
        and "Christmas Day" in body["hearing_window"]["explanation"]
    )
    without = client.post(url, suspension_body(mailed, None), format="json")
    assert without.status_code == 400 and "L2" in without.json()["hearing_on"][0]
    assert without.json()["hearing_window"]["earliest"] == "2026-11-25"
    answer = client.post(url, suspension_body(mailed, dt.date(2026, 12, 24)), format="json")
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert data["hearing_window"] == {**body["hearing_window"]}
    assert (
        data["hearing"]["decision_due_on"]
        == revocation_decision_due(dt.date(2026, 12, 24), **rules(mailed)).due.isoformat()
    )
    text = pdf_text(Hearing.objects.get(pk=data["hearing"]["id"]).explanation["notice_document"])
    assert "Notice of proposed suspension" in text and "Thursday, December 24, 2026" in text
    assert "Wednesday, November 25, 2026" in text and "L2" in text


@pytest.mark.provision("L2")
def test_l2_a_suspension_without_a_hearing_is_refused_and_the_permit_untouched(town, manager, case):
    permit = a_permit(town)
    answer = api_as(manager).post(f"/api/v1/enforcement/cases/{case.pk}/suspension-notices/",
                                  suspension_body(ago(10), None), format="json")  # fmt: skip
    assert answer.status_code == 400 and "hearing" in answer.json()["hearing_on"][0]
    permit.refresh_from_db()
    assert permit.status == PermitStatus.ISSUED and not permit.orders.exists()


@pytest.mark.provision("L3")
def test_l3_continuance_past_60_days_in_total_is_refused_and_l4_follows_the_new_date(
    town, manager, officer, case
):
    a_permit(town)
    mailed = ago(5)
    window = revocation_hearing_window(mailed, **rules(mailed))
    first = window.earliest_business_day
    created = api_as(manager).post(f"/api/v1/enforcement/cases/{case.pk}/suspension-notices/",
                                   suspension_body(mailed, first), format="json")  # fmt: skip
    hearing_id = created.json()["hearing"]["id"]
    limit = continuance_limit(first, **rules(first)).due
    url = f"/api/v1/enforcement/hearings/{hearing_id}/continuances/"
    client = api_as(officer)
    refused = client.post(url, {"new_date": first + 61 * DAY, "reason": "Counsel unavailable"}, format="json")
    assert refused.status_code == 400 and refused.json()["new_date"][0].startswith("L3")
    assert fmt_date(limit) in refused.json()["new_date"][0]
    answer = client.post(url, {"new_date": limit, "reason": "Counsel unavailable"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["scheduled_on"] == limit.isoformat()
    assert answer.json()["decision_due_on"] == revocation_decision_due(limit, **rules(limit)).due.isoformat()
    assert answer.json()["continuances"][0]["total_days"] == (limit - first).days
    notice = pdf_text(Hearing.objects.get(pk=hearing_id).explanation["continuance_notice"])
    assert "Notice of hearing" in notice and fmt_date(limit) in notice and "Counsel unavailable" in notice
    again = client.post(url, {"new_date": limit + DAY, "reason": "Again"}, format="json")
    assert again.status_code == 400 and "L3" in again.json()["new_date"][0]


@pytest.mark.provision("L4")
@pytest.mark.provision("L6")
def test_l4_l5_l6_decision_in_time_final_and_applied_to_the_permit(town, manager, case):
    permit = a_permit(town)
    mailed = ago(90)
    hearing_on = revocation_hearing_window(mailed, **rules(mailed)).earliest_business_day
    client = api_as(manager)
    created = client.post(f"/api/v1/enforcement/cases/{case.pk}/suspension-notices/",
                          suspension_body(mailed, hearing_on), format="json")  # fmt: skip
    hearing_id = created.json()["hearing"]["id"]
    due = revocation_decision_due(hearing_on, **rules(hearing_on)).due
    late = client.post(f"/api/v1/enforcement/hearings/{hearing_id}/decision/",
                       {"held_on": hearing_on, "decided_on": due + DAY, "hearing_officer_name": "A. Reyes",
                        "outcome_text": "Suspended for 30 days.", "article_number": "9407 4"}, format="json")  # fmt: skip
    assert late.status_code == 400 and "L4" in str(late.json())
    decided = client.post(f"/api/v1/enforcement/hearings/{hearing_id}/decision/",
                          {"held_on": hearing_on, "decided_on": due, "hearing_officer_name": "A. Reyes",
                           "outcome_text": "Suspended for 30 days.", "article_number": "9407 4"}, format="json")  # fmt: skip
    assert decided.status_code == 200, decided.json()
    assert decided.json()["decision_due_on"] == due.isoformat()
    permit.refresh_from_db()
    assert permit.status == PermitStatus.ISSUED  # not final yet (L6)
    final = client.post(f"/api/v1/enforcement/hearings/{hearing_id}/appeal/",
                        {"appeal_status": "not_appealed", "final_on": due + 16 * DAY}, format="json")  # fmt: skip
    assert final.status_code == 200, final.json()
    permit.refresh_from_db()
    assert permit.status == PermitStatus.SUSPENDED


# --- M1-M3: emergency suspension -----------------------------------------------------------------


@pytest.mark.provision("M3")
def test_m1_m3_emergency_suspension_takes_effect_at_once_with_its_hearing_and_decision_dates(
    town, manager, case
):
    permit = a_permit(town)
    ordered = ago(1)
    answer = api_as(manager).post("/api/v1/enforcement/emergency-suspensions/",
                                  {"case": case.pk, "ordered_on": ordered, "determination": "Grease backing up into Main St.",
                                   "determined_by": "FOG Manager"}, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    hearing_by = emergency_hearing_due(ordered, **rules(ordered)).due
    decision_by = emergency_decision_due(hearing_by, **rules(hearing_by)).due
    assert answer.json()["hearing_by"] == hearing_by.isoformat()
    assert answer.json()["decision_by"] == decision_by.isoformat()
    permit.refresh_from_db()
    assert permit.status == PermitStatus.SUSPENDED
    hearing = Hearing.objects.get(pk=answer.json()["hearing"]["id"])
    text = pdf_text(hearing.explanation["order_document"])
    assert "suspended at once" in text and fmt_date(hearing_by) in text and fmt_date(decision_by) in text
    assert "final and not appealable" in text


# --- P7-P10: penalty orders ----------------------------------------------------------------------


def penalty_body(case, **extra):
    return {"case": case.pk, "violation_kind": "maintenance", "days": 10, "under_order": False, "amount": "20000",
            "hearing_officer_name": "A. Reyes", **FACTORS, "proposed_on": ago(3), **extra}  # fmt: skip


def approval_body(**extra):
    return {"issued_on": ago(3), "service_method": "registered_mail", "served_on": ago(2), "article_number": "RR 1",
            **extra}  # fmt: skip


def approve(approver, order_id, **extra):
    """The two-person rule's second approval (the proposal alone issues nothing)."""
    return api_as(approver).post(f"/api/v1/enforcement/penalty-orders/{order_id}/approve/", approval_body(**extra),
                                 format="json")  # fmt: skip


@pytest.mark.provision("P7")
def test_p7_p8_penalty_over_the_cap_is_refused_with_its_working_and_within_it_issued(
    town, officer, manager, case
):
    client = api_as(officer)
    cap = client.get("/api/v1/enforcement/penalty-orders/cap/", {"violation_kind": "maintenance", "days": 10})
    assert (
        cap.status_code == 200
        and cap.json()["max_amount"] == "30000.00"
        and "P7(3)" in cap.json()["explanation"]
    )
    over = client.post(
        "/api/v1/enforcement/penalty-orders/", penalty_body(case, amount="30000.01"), format="json"
    )
    assert over.status_code == 400 and "P7" in over.json()["amount"][0]
    assert (
        over.json()["cap"]["max_amount"] == "30000.00"
        and "$3,000.00 x 10" in over.json()["cap"]["explanation"]
    )
    assert not PenaltyOrder.objects.exists()
    proposed = client.post("/api/v1/enforcement/penalty-orders/", penalty_body(case), format="json")
    assert proposed.status_code == 201, proposed.json()
    answer = approve(manager, proposed.json()["id"])
    assert answer.status_code == 200, answer.json()
    due = penalty_payment_due(ago(3), **rules(ago(3))).due
    order = PenaltyOrder.objects.get()
    assert (
        answer.json()["payment_due_on"] == due.isoformat() and order.status == "final" and order.cap == 30000
    )
    text = pdf_text(order.document_id)
    assert "$20,000.00" in text and fmt_date(due) in text and "fog-penalties-p12" in text
    assert FACTORS["economic_benefit"] in text and "final on issuance unless appealed" in text


@pytest.mark.provision("P8")
def test_p8_p6_a_penalty_order_is_final_unless_appealed_in_time(town, officer, manager, case):
    proposed = api_as(officer).post("/api/v1/enforcement/penalty-orders/", penalty_body(case), format="json")
    created = approve(manager, proposed.json()["id"])
    url = f"/api/v1/enforcement/penalty-orders/{created.json()['id']}/appeal/"
    last = appeal_due(ago(2), **rules(ago(2))).due
    assert created.json()["status"] == "final"
    appealed = api_as(officer).post(url, {"status": "appealed", "on": min(last, town_today())}, format="json")
    assert appealed.status_code == 200 and appealed.json()["status"] == "appealed"
    upheld = api_as(officer).post(url, {"status": "upheld", "on": town_today()}, format="json")
    assert upheld.status_code == 200 and upheld.json()["status"] == "upheld"


@pytest.mark.provision("P8")
def test_p8_a_penalty_order_is_served_by_personal_service_or_registered_mail(town, officer, manager, case):
    proposed = api_as(officer).post("/api/v1/enforcement/penalty-orders/", penalty_body(case), format="json")
    answer = approve(manager, proposed.json()["id"], service_method="certified_mail")
    assert answer.status_code == 400 and "service_method" in answer.json()
    assert PenaltyOrder.objects.get().status == "proposed"


@pytest.mark.provision("P10")
def test_p10_no_administrative_penalty_after_a_judicial_one_and_the_reverse(town, officer, manager, case):
    violation = case.violations.get()
    referral = referral_record(acting_user=manager, case=case, kind="judicial", violations=[violation],
                               referred_on=ago(20), referred_to="Town Attorney", today=town_today())  # fmt: skip
    referral_outcome_record(acting_user=manager, referral=referral, outcome="Judgment", outcome_on=ago(10),
                            amount_recovered=Decimal("15000"))  # fmt: skip
    answer = api_as(officer).post("/api/v1/enforcement/penalty-orders/", penalty_body(case), format="json")
    assert (
        answer.status_code == 409
        and "P10" in answer.json()["detail"]
        and "$15,000.00" in answer.json()["detail"]
    )
    other = a_case_of_kind(town, kind="records", provision="F1")
    proposed = api_as(officer).post("/api/v1/enforcement/penalty-orders/",
                                    penalty_body(other, violation_kind="records", amount="1000"), format="json")  # fmt: skip
    assert proposed.status_code == 201
    assert approve(manager, proposed.json()["id"]).status_code == 200
    with pytest.raises(StateConflict, match="P10"):
        referral_record(acting_user=manager, case=other, kind="judicial", violations=list(other.violations.all()),
                        referred_on=ago(1), referred_to="Town Attorney", today=town_today())  # fmt: skip


# --- O1, O2: termination of sewer service ---------------------------------------------------------


@pytest.mark.provision("O1")
@pytest.mark.provision("O2")
def test_o1_o2_termination_on_an_emergency_order_and_reinstatement_costs_owed(town, manager, case):
    a_permit(town)
    client = api_as(manager)
    emergency = client.post("/api/v1/enforcement/emergency-suspensions/",
                            {"case": case.pk, "ordered_on": ago(4), "determination": "SSO on Main St.",
                             "determined_by": "FOG Manager"}, format="json")  # fmt: skip
    order_id = emergency.json()["permit_order"]
    terminated = client.post(f"/api/v1/enforcement/cases/{case.pk}/terminations/",
                             {"terminated_on": ago(3), "how": "Lateral plugged at the cleanout.",
                              "permit_order": order_id, "cost": "850", "owed_by": "Blue Plate Diner LLC"}, format="json")  # fmt: skip
    assert terminated.status_code == 201, terminated.json()
    termination_id = terminated.json()["id"]
    back = client.post(f"/api/v1/enforcement/terminations/{termination_id}/reinstatement/",
                       {"reinstated_on": ago(1), "cost": "400", "owed_by": "Blue Plate Diner LLC"}, format="json")  # fmt: skip
    assert back.status_code == 200 and back.json()["reinstated_on"] == ago(1).isoformat()
    assert [(c["kind"], c["amount"]) for c in back.json()["costs"]] == [
        ("disconnection", "850.00"),
        ("reinstatement", "400.00"),
    ]
    assert ServiceCost.objects.filter(owed_by="Blue Plate Diner LLC").count() == 2
    text = pdf_text(terminated.json()["document_id"])
    assert "Termination of sewer service" in text and "O2" in text and "Lateral plugged" in text


@pytest.mark.provision("O1")
def test_o1_no_termination_without_an_order_in_effect(town, manager, case):
    a_permit(town)
    mailed = ago(5)
    hearing_on = revocation_hearing_window(mailed, **rules(mailed)).earliest_business_day
    created = api_as(manager).post(f"/api/v1/enforcement/cases/{case.pk}/suspension-notices/",
                                   suspension_body(mailed, hearing_on), format="json")  # fmt: skip
    answer = api_as(manager).post(f"/api/v1/enforcement/cases/{case.pk}/terminations/",
                                  {"terminated_on": ago(1), "how": "Plugged.", "permit_order": created.json()["permit_order"]},
                                  format="json")  # fmt: skip
    assert answer.status_code == 409 and "O1" in answer.json()["detail"]


@pytest.mark.provision("O1")
def test_o1_an_unpermitted_discharger_is_terminated_only_after_the_notice_s_date(town, manager):
    from fogcontrol.enforcement.services.steps import notice_of_violation_issue

    case = a_case_of_kind(town, kind="no_permit", provision="B1")
    notice = notice_of_violation_issue(
        acting_user=manager, case=case, violations=list(case.violations.all()),
        required_action="Stop discharging and apply for a FOG permit.", correct_by=ago(5), issued_on=ago(20),
        service_method="personal_delivery", served_on=ago(20), today=town_today(),
    )  # fmt: skip
    url = f"/api/v1/enforcement/cases/{case.pk}/terminations/"
    early = api_as(manager).post(
        url, {"terminated_on": ago(6), "how": "Plugged.", "notice": notice.pk}, format="json"
    )
    assert (
        early.status_code == 409
        and "O1" in early.json()["detail"]
        and fmt_date(ago(5)) in early.json()["detail"]
    )
    done = api_as(manager).post(
        url, {"terminated_on": ago(2), "how": "Plugged.", "notice": notice.pk}, format="json"
    )
    assert done.status_code == 201 and done.json()["basis"] == "unpermitted"


@pytest.mark.provision("P7")
def test_p7_cap_for_an_impossible_count_of_days_is_a_400_not_a_server_error(town, officer):
    """Found by schemathesis (tests/test_api_fuzz.py): 91 trillion days overflowed the amount."""
    client = api_as(officer)

    for query in (
        {"violation_kind": "maintenance", "days": 91133768258392},
        {"violation_kind": "sso", "occurrences": 10**15},
    ):
        answer = client.get("/api/v1/enforcement/penalty-orders/cap/", query)

        assert answer.status_code == 400, answer.content
        field = "days" if "days" in query else "occurrences"
        assert field in answer.json()
