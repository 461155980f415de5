"""B3: the applicable fee accompanies the application, so a permit is not issued while it is owed,
unless the FOG Manager waives it with a reason. Staff record a payment (amount, date, reference)."""

import datetime as dt
import html
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from conftest import api_as
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import FeeCharge, Permit
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.program.selectors import town_today


def page_text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.mark.provision("B3")
def test_b3_issue_while_the_application_fee_is_owed_is_refused(accepted_fee_owed, manager):
    with pytest.raises(TransitionNotAllowed) as error:
        services.permit_issue(application=accepted_fee_owed, acting_user=manager)
    assert "$350.00" in str(error.value) and "B3" in str(error.value) and "waiver" in str(error.value)
    assert not Permit.objects.exists()


@pytest.mark.provision("B3")
def test_b3_api_and_page_refuse_to_issue_with_the_fee_owed_409(accepted_fee_owed, manager, client):
    response = api_as(manager).post(
        f"/api/v1/permit-applications/{accepted_fee_owed.pk}/issue/", {}, format="json"
    )
    assert response.status_code == 409 and "fee is owed" in response.json()["detail"]
    client.force_login(manager)
    page = client.post(f"/permits/applications/{accepted_fee_owed.pk}/issue/", {
        "issue-device_kind": "gravity_interceptor", "issue-device_capacity_gallons": "1000",
        "issue-service_frequency_days": "90"})  # fmt: skip
    assert page.status_code == 409 and "The application fee is owed: $350.00" in page_text(page)
    assert not Permit.objects.exists()


@pytest.mark.provision("B3")
def test_b3_a_waiver_by_the_fog_manager_with_a_reason_lets_the_permit_issue(accepted_fee_owed, manager, town):
    fee = accepted_fee_owed.fees.get()
    with pytest.raises(PermissionDenied):
        services.fee_waive(charge=fee, acting_user=town.users[Role.BILLING_CLERK], reason="Hardship")
    with pytest.raises(ValidationError) as error:
        services.fee_waive(charge=fee, acting_user=manager, reason="  ")
    assert "reason" in error.value.message_dict
    services.fee_waive(
        charge=fee, acting_user=manager, reason="Non-profit community kitchen (Resolution 2023-14)"
    )
    entry = audit_entries_for(fee).get(action="fee.waive")
    assert entry.before["status"] == "owed" and entry.after["status"] == "waived"
    assert entry.after["waiver_reason"].startswith("Non-profit")
    permit = services.permit_issue(application=accepted_fee_owed, acting_user=manager)
    assert permit.status == "issued"
    with pytest.raises(TransitionNotAllowed):
        services.fee_waive(charge=fee, acting_user=manager, reason="Again")


@pytest.mark.provision("B3")
def test_b3_a_payment_is_recorded_with_amount_date_and_reference(accepted_fee_owed, manager, town):
    fee = accepted_fee_owed.fees.get()
    clerk = town.users[Role.BILLING_CLERK]
    with pytest.raises(ValidationError) as error:
        services.fee_record_payment(
            charge=fee,
            acting_user=clerk,
            amount="100",
            paid_on=town_today() + dt.timedelta(days=1),
            reference="",
        )
    assert {"amount", "paid_on", "reference"} == set(error.value.message_dict)
    with pytest.raises(PermissionDenied):
        services.fee_record_payment(
            charge=fee, acting_user=town.users[Role.FSE], amount="350", paid_on=town_today(), reference="R-1"
        )
    services.fee_record_payment(
        charge=fee, acting_user=clerk, amount="350.00", paid_on=town_today(), reference="R-1"
    )
    fee.refresh_from_db()
    assert (fee.status, fee.paid_amount, fee.payment_reference) == ("paid", Decimal("350.00"), "R-1")
    assert audit_entries_for(fee).filter(action="fee.pay").exists()
    assert services.permit_issue(application=accepted_fee_owed, acting_user=manager).status == "issued"


@pytest.mark.provision("B3")
def test_b3_api_pay_and_waive_fee_charges(accepted_fee_owed, manager, town):
    fee = accepted_fee_owed.fees.get()
    bad = api_as(manager).post(f"/api/v1/fee-charges/{fee.pk}/pay/", {"amount": "350.00"}, format="json")
    assert bad.status_code == 400 and {"paid_on", "reference"} <= set(bad.json())
    wrong = api_as(manager).post(f"/api/v1/fee-charges/{fee.pk}/pay/", {
        "amount": "35.00", "paid_on": str(town_today()), "reference": "R-9"}, format="json")  # fmt: skip
    assert wrong.status_code == 400 and "$350.00" in wrong.json()["amount"][0]
    assert (
        api_as(town.users[Role.INSPECTOR])
        .post(f"/api/v1/fee-charges/{fee.pk}/waive/", {"reason": "x"}, format="json")
        .status_code
        == 403
    )
    waived = api_as(manager).post(
        f"/api/v1/fee-charges/{fee.pk}/waive/", {"reason": "Hardship"}, format="json"
    )
    assert waived.status_code == 200 and waived.json()["status"] == "waived"
    assert waived.json()["waiver_reason"] == "Hardship"
    issued = api_as(manager).post(
        f"/api/v1/permit-applications/{accepted_fee_owed.pk}/issue/", {}, format="json"
    )
    assert issued.status_code == 201


@pytest.mark.provision("B3")
def test_b3_the_page_offers_payment_and_waiver_and_shows_them(accepted_fee_owed, manager, client):
    client.force_login(manager)
    page = page_text(client.get(f"/permits/applications/{accepted_fee_owed.pk}/"))
    assert "Record the fee's payment (B3)" in page and "Waive the fee (B3)" in page
    fee = accepted_fee_owed.fees.get()
    missing = client.post(
        f"/permits/applications/{accepted_fee_owed.pk}/waive-fee/", {"waive-fee-fee": fee.pk}
    )
    assert missing.status_code == 400
    response = client.post(f"/permits/applications/{accepted_fee_owed.pk}/waive-fee/", {
        "waive-fee-fee": fee.pk, "waive-fee-reason": "Hardship, approved by the FOG Manager"})  # fmt: skip
    assert response.status_code == 302
    page = page_text(client.get(f"/permits/applications/{accepted_fee_owed.pk}/"))
    assert "Waived by" in page and "Hardship, approved by the FOG Manager" in page
    assert FeeCharge.objects.get().status == "waived"


@pytest.mark.provision("B3")
def test_b3_a_town_that_charges_no_fee_issues_without_a_payment(draft, fse_user, manager):
    FeeCharge.objects.all().delete()
    from fogcontrol.permits.models import FeeSchedule

    FeeSchedule.objects.all().delete()
    fee_schedule(amounts={k: Decimal("0") for k in ("new_permit", "renewal", "reissue", "plan_review")})
    application = services.application_submit(application=draft, acting_user=fse_user)
    application = services.application_accept(application=application, acting_user=manager)
    assert services.permit_issue(application=application, acting_user=manager).status == "issued"
