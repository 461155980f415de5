"""A change of a device's frequency: one pending per device (B7), told to the responsible party by
the contact on record (A2, A3), with or without a permit in force; a backdated notice needs the FOG
Manager, a reason and the mailing record (B7). Service, page and API."""

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.test import Client

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import Permit, PermitModification, PermitNotice, PermitStatus
from fogcontrol.program.selectors import town_calendar, town_today
from fogcontrol.servicing.models import FrequencyChange
from fogcontrol.servicing.services import frequency_change, frequency_change_withdraw, status_sweep
from fogcontrol.testing import factories

MAILED = "USPS Certified Mail article 9407 1118 9876 5400 1234 56, mailed"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


def _permit(fse, device, *, days=90):
    today = town_today()
    return Permit.objects.create(
        establishment=fse, device=device, number=f"FOG-T-{fse.pk}", first_issued_on=today - dt.timedelta(days=30),
        term_start=today - dt.timedelta(days=30), valid_until=today + dt.timedelta(days=300),
        device_kind=device.kind, service_frequency_days=days, status=PermitStatus.ISSUED,
    )  # fmt: skip


# --- Item 6: the notice goes to the responsible party, with or without a permit (A2, A3) ----------


@pytest.mark.provision("A3")
def test_a3_a_change_with_no_permit_in_force_is_told_to_the_fse(
    town, manager, django_capture_on_commit_callbacks
):
    assert not Permit.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        change = frequency_change(
            device=town.own_device, acting_user=manager, to_days=60, reason="Fryer added"
        )
    notice = change.notices.get()
    assert notice.establishment == town.own_fse and notice.kind == PermitNotice.Kind.FREQUENCY_CHANGE
    assert notice.device == town.own_device and notice.sent_on == town_today()
    assert "from the default frequency (E2) to every 60 days" in notice.body and "B7" in notice.body
    assert town.own_fse.operator.email in notice.email_to
    assert (
        mail.outbox[-1].subject
        == f"Grease control device {town.own_device.identifier}: proposed change of service frequency"
    )


@pytest.mark.provision("A2")
def test_a2_every_change_of_a_shared_device_reaches_the_property_owner(town, manager):
    owner = town.owned_parcel.owner
    pizza, pho = town.mall_fses
    _permit(pizza, town.shared_device)
    change = frequency_change(
        device=town.shared_device, acting_user=manager, to_days=60, reason="Both fry daily"
    )
    to_owner = change.notices.get(party=owner)
    assert to_owner.establishment is None and owner.email in to_owner.email_to
    assert to_owner.method == PermitNotice.Method.EMAIL_AND_LETTER and owner.name in to_owner.addressee
    assert (
        "party responsible for grease control device" in to_owner.body
        and "(Chapter 10.02, A2)" in to_owner.body
    )
    to_permittee = change.notices.get(establishment=pizza)
    assert to_permittee.permit.establishment == pizza and "will be reissued" in to_permittee.body
    assert not change.notices.filter(establishment=pho).exists()  # no permit: the owner answers for it


@pytest.mark.provision("A2")
def test_a2_the_owners_designee_receives_the_notice_when_named(town, manager):
    designee = factories.PartyFactory(name="Plaza Property Management")
    town.owned_parcel.owner_designee = designee
    town.owned_parcel.save()
    change = frequency_change(
        device=town.shared_device, acting_user=manager, to_days=60, reason="Fill at 24%"
    )
    assert [notice.party for notice in change.notices.all()] == [designee]


@pytest.mark.provision("A2")
def test_a2_no_contact_on_record_for_the_owner_refuses_the_change_and_says_whose_to_add(town, manager):
    owner = town.owned_parcel.owner
    owner.email = ""
    owner.mailing_address_line1 = owner.mailing_city = owner.mailing_postal_code = owner.mailing_state = ""
    owner.save()
    with pytest.raises(ValidationError) as refused:
        frequency_change(device=town.shared_device, acting_user=manager, to_days=60, reason="Fill at 24%")
    message = refused.value.message_dict["responsible_party"][0]
    assert message.startswith(f"A2: the notice goes to {owner.name}, owner of parcel {town.owned_parcel.apn}")
    assert f"no e-mail or mailing address is on record for {owner.name}" in message
    assert not FrequencyChange.objects.exists() and not PermitNotice.objects.exists()


@pytest.mark.provision("A2")
def test_a2_a_shared_device_with_no_owner_on_record_is_refused(town, manager):
    town.owned_parcel.owner = None
    town.owned_parcel.save()
    with pytest.raises(ValidationError) as refused:
        frequency_change(device=town.shared_device, acting_user=manager, to_days=60, reason="Fill at 24%")
    assert refused.value.message_dict["responsible_party"][0].startswith("A2: device")
    assert "no owner is on record" in refused.value.message_dict["responsible_party"][0]


@pytest.mark.provision("A3")
def test_a3_an_fse_with_no_contact_on_record_is_refused_naming_it(town, manager):
    town.own_fse.operator = None
    town.own_fse.save()
    town.own_fse.users.clear()
    with pytest.raises(ValidationError) as refused:
        frequency_change(device=town.own_device, acting_user=manager, to_days=60, reason="Fill at 24%")
    message = refused.value.message_dict["responsible_party"][0]
    assert message.startswith(f"A3: the notice goes to {town.own_fse.business_name}")
    assert not FrequencyChange.objects.exists()


@pytest.mark.provision("A2")
def test_a2_the_page_and_the_api_refuse_a_change_no_one_can_be_told_of(town, manager):
    owner = town.owned_parcel.owner
    owner.email = ""
    owner.mailing_address_line1 = owner.mailing_city = owner.mailing_postal_code = owner.mailing_state = ""
    owner.save()
    page = _client(manager).post(
        f"/servicing/devices/{town.shared_device.pk}/frequency/", {"to_days": "60", "reason": "Fill at 24%"}
    )
    assert page.status_code == 400 and f"A2: the notice goes to {owner.name}" in page.content.decode()
    api = api_as(manager).post(
        f"/api/v1/devices/{town.shared_device.pk}/frequency/",
        {"to_days": 60, "reason": "Fill"},
        format="json",
    )
    assert api.status_code == 400 and api.json()["responsible_party"][0].startswith("A2: the notice goes to")
    assert not FrequencyChange.objects.exists()


# --- Item 4: one pending change per device (B7) ----------------------------------------------------


@pytest.mark.provision("B7")
def test_b7_a_new_proposal_withdraws_the_pending_one_and_only_it_takes_effect(town, manager):
    device = town.own_device
    permit = _permit(town.own_fse, device)
    first = frequency_change(device=device, acting_user=manager, to_days=60, reason="Fill at 24%")
    second = frequency_change(device=device, acting_user=manager, to_days=120, reason="New data: 9% fill")
    first.refresh_from_db()
    assert (
        first.status == "withdrawn"
        and first.replaced_by == second
        and "Replaced by a new proposal" in first.withdrawn_reason
    )
    assert second.status == "pending"
    notice = second.notices.get(establishment=town.own_fse)
    assert "This replaces the change proposed on" in notice.body and "every 60 days" in notice.body
    assert PermitModification.objects.get(changes__service_frequency_days=60).status == "withdrawn"
    status_sweep(today=second.effective_on)
    device.refresh_from_db()
    permit.refresh_from_db()
    assert device.assigned_frequency_days == 120 and permit.service_frequency_days == 120
    assert permit.version_number == 2  # reissued once, with the change that stood
    first.refresh_from_db()
    assert first.applied_at is None


@pytest.mark.provision("B7")
def test_b7_the_database_refuses_a_second_pending_change_for_a_device(town, manager):
    frequency_change(device=town.own_device, acting_user=manager, to_days=60, reason="Fill at 24%")
    with pytest.raises(IntegrityError), transaction.atomic():
        FrequencyChange.objects.create(device=town.own_device, to_days=30, reason="Around the service",
                                       notice_date=town_today(), effective_on=town_today())  # fmt: skip


@pytest.mark.provision("B7")
def test_b7_withdrawing_a_change_tells_everyone_who_was_told(town, manager):
    change = frequency_change(
        device=town.shared_device, acting_user=manager, to_days=60, reason="Fill at 24%"
    )
    with pytest.raises(ValidationError):
        frequency_change_withdraw(change=change, acting_user=manager, reason="")
    frequency_change_withdraw(change=change, acting_user=manager, reason="Owner showed cleaner data")
    change.refresh_from_db()
    assert change.status == "withdrawn"
    withdrawn = change.notices.filter(subject__endswith="proposed change withdrawn")
    assert [n.party for n in withdrawn] == [town.owned_parcel.owner]
    assert status_sweep(today=change.effective_on)["frequency_changes_applied"] == 0


@pytest.mark.provision("B7")
def test_b7_api_a_second_proposal_replaces_the_first_and_the_list_shows_one_pending(town, manager):
    api = api_as(manager)
    url = f"/api/v1/devices/{town.own_device.pk}/frequency/"
    first = api.post(url, {"to_days": 60, "reason": "Fill at 24%"}, format="json")
    second = api.post(url, {"to_days": 120, "reason": "New data"}, format="json")
    assert first.status_code == 201 and second.status_code == 201
    assert (
        second.json()["status"] == "pending"
        and second.json()["notices"][0]["addressee"] == town.own_fse.business_name
    )
    listed = {row["id"]: row for row in api.get(url).json()}
    assert listed[first.json()["id"]]["status"] == "withdrawn"
    assert listed[first.json()["id"]]["replaced_by"] == second.json()["id"]
    withdrawn = api.post(
        f"/api/v1/frequency-changes/{second.json()['id']}/withdraw/", {"reason": "Error"}, format="json"
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    again = api.post(
        f"/api/v1/frequency-changes/{second.json()['id']}/withdraw/", {"reason": "x"}, format="json"
    )
    assert again.status_code == 409


# --- Item 3: a backdated B7 notice ----------------------------------------------------------------


@pytest.mark.provision("B7")
def test_b7_a_backdated_notice_needs_a_reason_and_the_mailing_record(town, manager):
    mailed = town_today() - dt.timedelta(days=6)
    with pytest.raises(ValidationError) as refused:
        frequency_change(
            device=town.own_device, acting_user=manager, to_days=60, reason="Fill", notice_date=mailed
        )
    assert set(refused.value.message_dict) == {"backdating_reason", "mailing_record"}
    assert all(m[0].startswith("B7: a notice dated") for m in refused.value.message_dict.values())
    assert not FrequencyChange.objects.exists()


@pytest.mark.provision("B7")
def test_b7_only_the_fog_manager_backdates_a_notice_not_a_job(town):
    mailed = town_today() - dt.timedelta(days=6)
    with pytest.raises(PermissionDenied, match="B7: only the FOG Manager"):
        frequency_change(device=town.own_device, acting_user="nightly-sweep", to_days=60, reason="Fill",
                         notice_date=mailed, backdating_reason="x", mailing_record="y")  # fmt: skip
    assert not FrequencyChange.objects.exists()


@pytest.mark.provision("B7")
def test_b7_a_backdated_notice_with_its_mailing_record_is_audited_and_counts_from_the_mailing(town, manager):
    mailed = town_today() - dt.timedelta(days=6)
    change = frequency_change(
        device=town.own_device, acting_user=manager, to_days=60, reason="Fill at 24%", notice_date=mailed,
        backdating_reason="Letter mailed before the change was entered", mailing_record=f"{MAILED} {mailed}",
    )  # fmt: skip
    # The ten days are a minimum (B7, "Counting days" 3): on the first business day on or after.
    ten_days_on = town_calendar().next_business_day_on_or_after(mailed + dt.timedelta(days=10))
    assert change.notice_date == mailed and change.effective_on == ten_days_on
    assert change.mailing_record == f"{MAILED} {mailed}"
    notice = change.notices.get()
    assert notice.sent_on == mailed and notice.mailing_record == f"{MAILED} {mailed}"
    entry = AuditEntry.objects.get(action="notice.backdate")
    assert entry.object_id == str(change.pk) and MAILED in entry.note


@pytest.mark.provision("B7")
def test_b7_with_no_notice_date_the_ten_days_run_from_today(town, manager):
    change = frequency_change(device=town.own_device, acting_user=manager, to_days=60, reason="Fill at 24%")
    ten_days_on = town_calendar().next_business_day_on_or_after(town_today() + dt.timedelta(days=10))
    assert change.notice_date == town_today() and change.effective_on == ten_days_on
    assert change.backdating_reason == "" and not AuditEntry.objects.filter(action="notice.backdate").exists()


@pytest.mark.provision("B7")
def test_b7_the_page_and_the_api_refuse_a_backdated_notice_without_its_mailing_record(town, manager):
    mailed = str(town_today() - dt.timedelta(days=6))
    page = _client(manager).post(
        f"/servicing/devices/{town.own_device.pk}/frequency/",
        {
            "to_days": "60",
            "reason": "Fill at 24%",
            "notice_date": mailed,
            "backdating_reason": "Mailed earlier",
        },
    )
    assert page.status_code == 400 and "B7: a notice dated" in page.content.decode()
    api = api_as(manager).post(
        f"/api/v1/devices/{town.own_device.pk}/frequency/",
        {"to_days": 60, "reason": "Fill", "notice_date": mailed},
        format="json",
    )
    assert api.status_code == 400
    assert (
        api.json()["mailing_record"][0].startswith("B7: a notice dated") and "backdating_reason" in api.json()
    )
    assert not FrequencyChange.objects.exists()
    ok = api_as(manager).post(
        f"/api/v1/devices/{town.own_device.pk}/frequency/",
        {"to_days": 60, "reason": "Fill", "notice_date": mailed, "backdating_reason": "Mailed earlier",
         "mailing_record": f"{MAILED} {mailed}"},
        format="json",
    )  # fmt: skip
    assert ok.status_code == 201 and ok.json()["mailing_record"] == f"{MAILED} {mailed}"


@pytest.mark.provision("B7")
def test_b7_the_earliest_effective_date_is_the_first_business_day_on_or_after_the_ten_days(town, manager):
    """Counting days: a minimum never moves earlier. A notice whose ten days end on a Saturday lets
    the change take effect on the first business day after, not on the Saturday."""
    today = town_today()
    # The latest Wednesday on or before today: ten days after it is a Saturday.
    notice_date = today - dt.timedelta(days=(today.weekday() - 2) % 7)
    floor = notice_date + dt.timedelta(days=10)
    assert floor.weekday() == 5
    change = frequency_change(
        device=town.own_device, acting_user=manager, to_days=60, reason="Fill at 24%",
        notice_date=notice_date, backdating_reason="Recorded late", mailing_record=MAILED,
    )  # fmt: skip
    assert change.effective_on == town_calendar().next_business_day_on_or_after(floor)
    assert change.effective_on > floor
    with pytest.raises(ValidationError, match="at the earliest"):
        frequency_change(
            device=town.own_device, acting_user=manager, to_days=120, reason="Fill at 30%",
            notice_date=notice_date, backdating_reason="Recorded late", mailing_record=MAILED,
            effective_on=floor,
        )  # fmt: skip
