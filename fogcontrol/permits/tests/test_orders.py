"""A permit is suspended or revoked only by an order that records the chapter's process: notice by
certified mail and a hearing in the L2 window, the continuance cap (L3), the written decision in time
(L4), final unless appealed (L5, L6); or an emergency order with its M3 hearing and decision (M1, M3)."""

import datetime as dt
import html

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from conftest import api_as
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitNotice, PermitOrder, PermitStatus
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.tests.orders import final_order, noticed_order, process_dates
from fogcontrol.program.selectors import town_today

DAY = dt.timedelta(days=1)


def page_text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.fixture
def hearing_officer(town):
    return town.users[Role.HEARING_OFFICER]


@pytest.mark.provision("L2")
@pytest.mark.provision("M1")
def test_l2_l4_l6_m1_m3_suspend_or_revoke_without_an_order_is_refused_naming_the_process(issued, manager):
    for service in (services.permit_suspend, services.permit_revoke):
        with pytest.raises(TransitionNotAllowed) as error:
            service(permit=issued, acting_user=manager, reason="Two SSOs this month")
        words = str(error.value)
        assert all(provision in words for provision in ("L2", "L4", "L6")), words
    with pytest.raises(TransitionNotAllowed) as error:
        services.permit_suspend(permit=issued, acting_user=manager)
    assert "M1, M3" in str(error.value) and "15 to 45 days" in str(error.value)
    issued.refresh_from_db()
    assert issued.status == PermitStatus.ISSUED
    assert not audit_entries_for(issued).filter(action__in=["permit.suspend", "permit.revoke"]).exists()


@pytest.mark.provision("L2")
def test_l2_api_and_page_refuse_a_one_click_suspension_409(issued, manager, client):
    response = api_as(manager).post(f"/api/v1/permits/{issued.pk}/suspend/", {"reason": "SSO"}, format="json")
    assert (
        response.status_code == 409
        and "L2" in response.json()["detail"]
        and "M3" in response.json()["detail"]
    )
    client.force_login(manager)
    page = client.post(f"/permits/{issued.pk}/status/suspend/", {"status-reason": "SSO"})
    assert page.status_code == 409 and "not suspended in one step" in page_text(page)
    detail = page_text(client.get(f"/permits/{issued.pk}/"))
    assert ">Suspend<" not in client.get(f"/permits/{issued.pk}/").content.decode()
    assert "Record a suspension, revocation or reinstatement order (L, M)" in detail
    issued.refresh_from_db()
    assert issued.status == PermitStatus.ISSUED


@pytest.mark.provision("L2")
def test_l2_the_hearing_must_fall_15_to_45_days_after_mailing(issued, manager):
    mailed = town_today() - 60 * DAY
    with pytest.raises(ValidationError) as error:
        services.permit_order_record(
            permit=issued, acting_user=manager, kind="suspension", grounds=["violation"], facts="Facts",
            notice_mailed_on=mailed, certified_mail_number="9407", hearing_on=mailed + 10 * DAY,
            hearing_place="Town Hall",
        )  # fmt: skip
    assert "L2" in error.value.message_dict["hearing_on"][0]
    with pytest.raises(ValidationError) as error:
        services.permit_order_record(permit=issued, acting_user=manager, kind="revocation", facts="Facts")
    assert {"grounds", "notice_mailed_on", "certified_mail_number", "hearing_on", "hearing_place"} <= set(
        error.value.message_dict
    )
    assert not PermitOrder.objects.exists()


@pytest.mark.provision("L3")
@pytest.mark.provision("L4")
def test_l3_l4_continuance_cap_and_decision_deadline(issued, manager, hearing_officer):
    order = noticed_order(issued, manager)
    hearing = order.hearing_on
    common = dict(order=order, acting_user=hearing_officer, hearing_officer_name="A. Reyes", outcome="ordered",
                  decision="Suspended 30 days.", decision_mail_number="9407 2", appeal_status="open")  # fmt: skip
    with pytest.raises(ValidationError) as error:
        services.permit_order_decide(
            hearing_concluded_on=hearing + 61 * DAY, decision_on=hearing + 62 * DAY, **common
        )
    assert "L3" in error.value.message_dict["hearing_concluded_on"][0]
    with pytest.raises(ValidationError) as error:
        services.permit_order_decide(decision_on=hearing + 40 * DAY, **common)
    assert "L4" in error.value.message_dict["decision_on"][0]
    decided = services.permit_order_decide(decision_on=hearing + 10 * DAY, **common)
    assert decided.decision_due_on is not None and "L4" in decided.explanation
    assert decided.decided_by == hearing_officer


@pytest.mark.provision("L6")
@pytest.mark.provision("L5")
def test_l5_l6_an_order_takes_effect_only_when_final(issued, manager, hearing_officer):
    order = noticed_order(issued, manager)
    dates = process_dates()
    with pytest.raises(TransitionNotAllowed, match="no written decision"):
        services.permit_suspend(permit=issued, acting_user=manager, order=order)
    order = services.permit_order_decide(
        order=order, acting_user=hearing_officer, decision_on=dates["decision"], hearing_officer_name="A. Reyes",
        outcome="ordered", decision="Suspended 30 days.", decision_mail_number="9407 2", appeal_status="appealed",
    )  # fmt: skip
    with pytest.raises(TransitionNotAllowed) as error:
        services.permit_suspend(permit=issued, acting_user=manager, order=order)
    assert "L6" in str(error.value) and "not final" in str(error.value)
    services.permit_order_record_appeal(
        order=order, acting_user=manager, appeal_status="upheld", final_on=dates["final"]
    )
    permit = services.permit_suspend(permit=issued, acting_user=manager, order=order)
    assert permit.status == PermitStatus.SUSPENDED and order.reference in permit.status_reason
    order.refresh_from_db()
    assert order.applied_on == town_today()
    with pytest.raises(TransitionNotAllowed):
        services.permit_revoke(
            permit=issued, acting_user=manager, order=order
        )  # a suspension does not revoke


@pytest.mark.provision("L5")
def test_l5_suspend_with_a_recorded_order_on_the_pages(issued, manager, hearing_officer, client):
    dates = process_dates()
    client.force_login(manager)
    response = client.post(f"/permits/{issued.pk}/orders/new/", {
        "order-kind": "suspension", "order-grounds": ["violation", "unpaid"], "order-facts": "Pump-outs missed",
        "order-notice_mailed_on": str(dates["mailed"]), "order-certified_mail_number": "9407 1",
        "order-hearing_on": str(dates["hearing"]), "order-hearing_place": "Town Hall",
    })  # fmt: skip
    assert response.status_code == 302, page_text(response)
    order = PermitOrder.objects.get()
    bad = client.post(f"/permits/{issued.pk}/orders/new/", {"order-kind": "revocation", "order-facts": "x"})
    assert bad.status_code == 400 and "L2: give the date the written notice" in page_text(bad)

    client.force_login(hearing_officer)
    response = client.post(f"/permits/orders/{order.pk}/decide/", {
        "decision-decision_on": str(dates["decision"]), "decision-hearing_officer_name": "A. Reyes",
        "decision-outcome": "ordered", "decision-decision": "Suspended for 30 days.",
        "decision-decision_mail_number": "9407 2", "decision-appeal_status": "not_appealed",
        "decision-final_on": str(dates["final"]),
    })  # fmt: skip
    assert response.status_code == 302, page_text(response)

    client.force_login(manager)
    page = page_text(client.get(f"/permits/{issued.pk}/"))
    assert (
        order.reference in page and "Not appealed: final (L6)" in page and "Apply: suspend the permit" in page
    )
    response = client.post(f"/permits/{issued.pk}/status/suspend/", {"status-order": order.pk})
    assert response.status_code == 302
    issued.refresh_from_db()
    assert issued.status == PermitStatus.SUSPENDED
    assert PermitNotice.objects.filter(permit=issued, kind="order").exists()


@pytest.mark.provision("L5")
def test_l5_suspend_with_a_recorded_order_through_the_api(issued, manager, hearing_officer, town):
    dates = process_dates()
    staff = api_as(manager)
    created = staff.post("/api/v1/permit-orders/", {
        "permit": issued.pk, "kind": "suspension", "grounds": ["interference"], "facts": "SSO on Main St",
        "notice_mailed_on": str(dates["mailed"]), "certified_mail_number": "9407 1",
        "hearing_on": str(dates["hearing"]), "hearing_place": "Town Hall",
    }, format="json")  # fmt: skip
    assert created.status_code == 201, created.json()
    order = created.json()
    assert order["hearing_latest_on"] and order["explanation"]["L2"]["provisions"][0] == "L2"
    assert (
        api_as(town.users[Role.INSPECTOR])
        .post(
            "/api/v1/permit-orders/", {"permit": issued.pk, "kind": "suspension", "facts": "x"}, format="json"
        )
        .status_code
        == 403
    )
    decided = api_as(hearing_officer).post(f"/api/v1/permit-orders/{order['id']}/decide/", {
        "decision_on": str(dates["decision"]), "hearing_officer_name": "A. Reyes", "outcome": "ordered",
        "decision": "Suspended 30 days.", "decision_mail_number": "9407 2", "appeal_status": "not_appealed",
        "final_on": str(dates["final"]),
    }, format="json")  # fmt: skip
    assert decided.status_code == 200, decided.json()
    assert decided.json()["action"] == "suspend"
    applied = staff.post(f"/api/v1/permits/{issued.pk}/suspend/", {"order": order["id"]}, format="json")
    assert applied.status_code == 200 and applied.json()["status"] == "suspended"
    again = staff.post(f"/api/v1/permits/{issued.pk}/suspend/", {"order": order["id"]}, format="json")
    assert again.status_code == 409
    fse_view = api_as(town.users[Role.FSE]).get("/api/v1/permit-orders/").json()
    assert [row["reference"] for row in fse_view["results"]] == [order["reference"]]
    assert api_as(town.users[Role.HAULER]).get("/api/v1/permit-orders/").json()["count"] == 0


@pytest.mark.provision("M1")
@pytest.mark.provision("M3")
def test_m1_m3_emergency_suspension_applies_at_once_with_its_hearing_and_decision_in_time(
    issued, manager, hearing_officer
):
    ordered = town_today() - 20 * DAY
    base = dict(permit=issued, acting_user=manager, kind="emergency_suspension", facts="Grease backing up into MH-12",
                emergency_order_on=ordered, determined_by="FOG Manager")  # fmt: skip
    with pytest.raises(ValidationError) as error:
        services.permit_order_record(hearing_on=ordered + 15 * DAY, **base)
    assert "M3" in error.value.message_dict["hearing_on"][0]
    order = services.permit_order_record(hearing_on=ordered + 2 * DAY, **base)
    assert order.appeal_status == PermitOrder.Appeal.NOT_APPEALABLE
    permit = services.permit_suspend(permit=issued, acting_user=manager, order=order)  # M3: no stay
    assert permit.status == PermitStatus.SUSPENDED
    with pytest.raises(ValidationError) as error:
        services.permit_order_decide(
            order=order, acting_user=hearing_officer, decision_on=order.hearing_on + 10 * DAY,
            hearing_officer_name="A. Reyes", outcome="ordered", decision="Confirmed", decision_mail_number="9407",
        )  # fmt: skip
    assert "M3" in error.value.message_dict["decision_on"][0]
    order = services.permit_order_decide(
        order=order, acting_user=hearing_officer, decision_on=order.hearing_on + DAY,
        hearing_officer_name="A. Reyes", outcome="not_ordered", decision="Set aside: the line was clear.",
        decision_mail_number="9407",
    )  # fmt: skip
    assert order.final_on == order.decision_on and order.appeal_status == PermitOrder.Appeal.NOT_APPEALABLE
    with pytest.raises(TransitionNotAllowed, match="reinstatement order"):
        services.permit_reinstate(permit=issued, acting_user=manager)
    reinstatement = services.permit_order_record(
        permit=issued, acting_user=manager, kind="reinstatement", facts="M3 decision set the order aside.",
        ends_order=order,
    )  # fmt: skip
    permit = services.permit_reinstate(permit=issued, acting_user=manager, order=reinstatement)
    assert permit.status == PermitStatus.ISSUED


@pytest.mark.provision("L5")
def test_l5_revocation_by_final_order_and_who_may_act(issued, manager, town, hearing_officer):
    with pytest.raises(PermissionDenied):
        noticed_order(issued, town.users[Role.INSPECTOR], kind="revocation")
    with pytest.raises(PermissionDenied):
        noticed_order(issued, hearing_officer, kind="revocation")
    order = final_order(issued, manager, kind="revocation")
    with pytest.raises(PermissionDenied):
        services.permit_revoke(permit=issued, acting_user=hearing_officer, order=order)
    permit = services.permit_revoke(permit=issued, acting_user=manager, order=order)
    assert permit.status == PermitStatus.REVOKED
    entry = audit_entries_for(order).get(action="permit.order.apply")
    assert entry.before["applied_on"] is None and entry.after["applied_on"] == str(town_today())
