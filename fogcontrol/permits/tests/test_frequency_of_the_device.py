"""The service frequency belongs to the device (E1, A2): a permit states it, a renewal never changes
it, and a change is proposed one way only (servicing's `frequency_change`), which the permit's page
embeds. A backdated B7 notice needs the FOG Manager, a reason and the mailing record."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitModification, PermitNotice
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.tests.conftest import B3_ANSWERS, FIXTURES, pay_fees
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.services import device_update
from fogcontrol.servicing.models import FrequencyChange
from fogcontrol.servicing.services import frequency_change, status_sweep

MAILED = "USPS Certified Mail article 9407 1118 9876 5400 1234 56, mailed"


@pytest.fixture
def as_user(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def _issue(application, manager, **terms):
    pay_fees(application, manager)  # B3: the fee accompanies the application
    return services.permit_issue(application=application, acting_user=manager, **terms)


def _tenant_permit(fse, device, manager, *, issued_on):
    """A tenant's permit for the shared interceptor, issued through the whole B5 path by staff."""
    application = services.application_create(
        acting_user=manager, establishment=fse, fixtures=FIXTURES, device=device, device_kind=device.kind,
        **B3_ANSWERS | {"applicant_name": fse.business_name},
    )  # fmt: skip
    application = services.application_submit(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    return _issue(application, manager, issued_on=issued_on)


def _renew(permit, manager, **terms):
    application = services.renewal_application_start(permit=permit, acting_user=manager)
    application = services.application_submit(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    return _issue(application, manager, **terms)


# --- Item 5: a shared interceptor's frequency is the device's; renewals never change it (A2) -----


@pytest.mark.provision("A2")
def test_a2_renewing_one_tenants_permit_never_resets_the_shared_interceptor(town, manager, profile, fees):
    device = town.shared_device
    pizza, pho = town.mall_fses
    today = town_today()
    permits = [
        _tenant_permit(fse, device, manager, issued_on=today - dt.timedelta(days=320)) for fse in (pizza, pho)
    ]
    assert [p.service_frequency_days for p in permits] == [90, 90]
    change = frequency_change(
        device=device, acting_user=manager, to_days=60, reason="Both kitchens fry daily"
    )
    status_sweep(today=change.effective_on)
    device.refresh_from_db()
    assert device.assigned_frequency_days == 60
    for permit in permits:
        permit.refresh_from_db()
        assert permit.service_frequency_days == 60  # every tenant's permit states the device's frequency
        renewed = _renew(permit, manager, issued_on=today)
        device.refresh_from_db()
        assert device.assigned_frequency_days == 60, "a tenant's renewal reset the shared interceptor (A2)"
        assert renewed.service_frequency_days == 60


@pytest.mark.provision("A2")
def test_a2_a_renewal_states_the_devices_frequency_even_over_a_stale_permit(town, manager, profile, fees):
    """A permit stating 90 days while the shared device is serviced every 60 (records from before the
    frequency belonged to the device): renewing it must not move the device back to 90."""
    device = town.shared_device
    permit = _tenant_permit(
        town.mall_fses[0], device, manager, issued_on=town_today() - dt.timedelta(days=320)
    )
    device_update(device=device, acting_user=manager, assigned_frequency_days=60)
    renewed = _renew(permit, manager)
    device.refresh_from_db()
    assert device.assigned_frequency_days == 60 and renewed.service_frequency_days == 60
    assert renewed.versions.get(number=renewed.version_number).service_frequency_days == 60


@pytest.mark.provision("A2")
def test_a2_issuing_or_renewing_with_another_frequency_is_refused_naming_a2(town, manager, profile, fees):
    device = town.shared_device
    permit = _tenant_permit(
        town.mall_fses[0], device, manager, issued_on=town_today() - dt.timedelta(days=320)
    )
    application = services.renewal_application_start(permit=permit, acting_user=manager)
    application = services.application_submit(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    with pytest.raises(ValidationError) as refused:
        _issue(application, manager, service_frequency_days=120)
    message = refused.value.message_dict["service_frequency_days"][0]
    assert (
        message.startswith("A2, E1: the service frequency belongs to device") and "every 90 days" in message
    )
    device.refresh_from_db()
    assert device.assigned_frequency_days is None


@pytest.mark.provision("A2")
def test_a2_the_issue_page_offers_the_devices_frequency_and_refuses_another(
    as_user, town, manager, profile, fees
):
    device = town.shared_device
    permit = _tenant_permit(
        town.mall_fses[0], device, manager, issued_on=town_today() - dt.timedelta(days=320)
    )
    device_update(device=device, acting_user=manager, assigned_frequency_days=60)
    application = services.renewal_application_start(permit=permit, acting_user=manager)
    application = services.application_submit(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    pay_fees(application, manager)  # B3
    staff = as_user(manager)
    page = staff.get(f"/permits/applications/{application.pk}/").content.decode()
    assert '<option value="60" selected>' in page
    refused = staff.post(f"/permits/applications/{application.pk}/issue/", {
        "issue-device_kind": device.kind, "issue-device_capacity_gallons": "1500",
        "issue-service_frequency_days": "90", "issue-conditions": ""})  # fmt: skip
    assert (
        refused.status_code == 400
        and "A2, E1: the service frequency belongs to device" in refused.content.decode()
    )
    device.refresh_from_db()
    assert device.assigned_frequency_days == 60


@pytest.mark.provision("A2")
def test_a2_api_renewal_with_another_frequency_is_a_400_naming_a2(town, manager, profile, fees):
    device = town.shared_device
    permit = _tenant_permit(
        town.mall_fses[0], device, manager, issued_on=town_today() - dt.timedelta(days=320)
    )
    application = services.renewal_application_start(permit=permit, acting_user=manager)
    application = services.application_submit(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    pay_fees(application, manager)  # B3
    response = api_as(manager).post(
        f"/api/v1/permit-applications/{application.pk}/issue/", {"service_frequency_days": 120}, format="json"
    )
    assert response.status_code == 400 and "A2" in response.json()["service_frequency_days"][0]


# --- Item 4: one way to propose a change of frequency ---------------------------------------------


@pytest.mark.provision("B7")
def test_b7_a_permit_modification_cannot_change_the_frequency_it_belongs_to_the_device(issued, manager):
    with pytest.raises(ValidationError) as refused:
        services.permit_modification_propose(
            permit=issued, acting_user=manager, changes={"service_frequency_days": 60}, reason="Fill at 24%"
        )
    message = refused.value.message_dict["service_frequency_days"][0]
    assert message.startswith("B7, A2: the service frequency belongs to device")
    assert not PermitModification.objects.exists()


@pytest.mark.provision("B7")
def test_b7_the_permit_and_device_pages_propose_through_one_form_and_keep_one_pending_change(
    as_user, issued, manager
):
    device = issued.device
    staff = as_user(manager)
    permit_page = staff.get(f"/permits/{issued.pk}/").content.decode()
    device_page = staff.get(f"/servicing/devices/{device.pk}/").content.decode()
    form_action = f'action="/servicing/devices/{device.pk}/frequency/"'
    assert form_action in permit_page and form_action in device_page  # the same form on both pages
    modify_page = staff.get(f"/permits/{issued.pk}/modify/").content.decode()
    assert 'name="service_frequency_days"' not in modify_page  # no second way on the permit side
    from_permit = staff.post(
        f"/servicing/devices/{device.pk}/frequency/",
        {"to_days": "60", "reason": "Fill at 24%", "next": f"/permits/{issued.pk}/"},
    )
    assert from_permit.status_code == 302 and from_permit.url == f"/permits/{issued.pk}/"
    from_device = staff.post(
        f"/servicing/devices/{device.pk}/frequency/", {"to_days": "120", "reason": "Data"}
    )
    assert from_device.status_code == 302
    pending = FrequencyChange.objects.filter(applied_at__isnull=True, withdrawn_at__isnull=True)
    assert [change.to_days for change in pending] == [120]
    mods = PermitModification.objects.filter(permit=issued)
    assert sorted(m.status for m in mods) == ["notified", "withdrawn"]
    page = staff.get(f"/permits/{issued.pk}/").content.decode()
    assert "Pending:</strong> every 120 days" in page
    refused = staff.post(f"/permits/{issued.pk}/modify/", {"service_frequency_days": "30", "reason": "x"})
    assert refused.status_code == 400 and not PermitModification.objects.filter(
        changes__service_frequency_days=30
    )


@pytest.mark.provision("B7")
def test_b7_api_permit_modify_refuses_a_frequency_and_points_to_the_device(issued, manager):
    response = api_as(manager).post(
        f"/api/v1/permits/{issued.pk}/modify/",
        {"changes": {"service_frequency_days": 60}, "reason": "Fill at 24%"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["service_frequency_days"][0].startswith(
        "B7, A2: the service frequency belongs to device"
    )
    assert not PermitModification.objects.exists()


@pytest.mark.provision("B7")
def test_b7_a_frequency_modification_is_withdrawn_with_its_device_change_not_alone(issued, manager):
    change = frequency_change(device=issued.device, acting_user=manager, to_days=60, reason="Fill at 24%")
    modification = change.permit_modifications.get()
    with pytest.raises(TransitionNotAllowed, match="B7, A2"):
        services.permit_modification_withdraw(modification=modification, acting_user=manager, reason="x")
    modification.refresh_from_db()
    assert modification.status == PermitModification.Status.NOTIFIED


# --- Item 3: a backdated B7 notice (conditions, on the permit) ------------------------------------


@pytest.mark.provision("B7")
def test_b7_a_notice_dated_before_today_needs_a_reason_and_the_mailing_record(issued, manager):
    mailed = town_today() - dt.timedelta(days=12)
    with pytest.raises(ValidationError) as refused:
        services.permit_modification_propose(
            permit=issued, acting_user=manager, changes={"conditions": "Drain screens (C1)."},
            reason="Open floor drains", notice_date=mailed,
        )  # fmt: skip
    errors = refused.value.message_dict
    assert errors["backdating_reason"][0].startswith("B7: a notice dated")
    assert (
        errors["mailing_record"][0].startswith("B7: a notice dated")
        and "certified" in errors["mailing_record"][0]
    )
    assert not PermitModification.objects.exists()
    with pytest.raises(PermissionDenied, match="B7: only the FOG Manager"):
        services.permit_modification_propose(
            permit=issued, acting_user="permits_daily", changes={"conditions": "Drain screens (C1)."},
            reason="Open floor drains", notice_date=mailed, backdating_reason="Mailed earlier",
            mailing_record=f"{MAILED} {mailed}",
        )  # fmt: skip
    change = services.permit_modification_propose(
        permit=issued, acting_user=manager, changes={"conditions": "Drain screens (C1)."}, reason="Open floor drains",
        notice_date=mailed, backdating_reason="Letter mailed before the change was entered",
        mailing_record=f"{MAILED} {mailed}",
    )  # fmt: skip
    assert change.status == PermitModification.Status.EFFECTIVE  # 12 days ago: the 10 days have run
    assert PermitNotice.objects.get(modification=change).mailing_record == f"{MAILED} {mailed}"
    entry = AuditEntry.objects.get(action="notice.backdate")
    assert MAILED in entry.note and "Letter mailed before" in entry.note


@pytest.mark.provision("B7")
def test_b7_without_a_notice_date_the_ten_days_run_from_today(issued, manager):
    change = services.permit_modification_propose(
        permit=issued,
        acting_user=manager,
        changes={"conditions": "Drain screens (C1)."},
        reason="Open drains",
    )
    assert change.notice_date == town_today() and change.effective_on == town_today() + dt.timedelta(days=10)
    assert not AuditEntry.objects.filter(action="notice.backdate").exists()


@pytest.mark.provision("B7")
def test_b7_the_permit_page_and_api_refuse_a_backdated_notice_without_its_mailing_record(
    as_user, issued, manager
):
    mailed = str(town_today() - dt.timedelta(days=5))
    page = as_user(manager).post(f"/permits/{issued.pk}/modify/", {
        "conditions": "Drain screens (C1).", "reason": "Open drains", "notice_date": mailed})  # fmt: skip
    assert page.status_code == 400 and "B7: a notice dated" in page.content.decode()
    api = api_as(manager).post(
        f"/api/v1/permits/{issued.pk}/modify/",
        {"changes": {"conditions": "Drain screens (C1)."}, "reason": "Open drains", "notice_date": mailed},
        format="json",
    )
    assert api.status_code == 400 and api.json()["mailing_record"][0].startswith("B7: a notice dated")
    assert not PermitModification.objects.exists()
