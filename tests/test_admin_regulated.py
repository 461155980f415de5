"""The Django admin cannot write a regulated record behind the program's back.

Regulated fields are read-only (a device's assigned frequency changes only through the B7 notice
workflow; permit states and terms, fees, manifests, ruleset versions, the holiday calendar, copies
of record and the audit trail are read-only); a back-office repair of a name, an address or a
contact goes through the registry or program service, so it leaves an audit entry naming the admin
user, with before and after.
"""

import datetime as dt

import pytest
from django.contrib import admin
from django.urls import reverse

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.permits.models import PermitStatus
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.models import Holiday, RulesetVersion
from fogcontrol.program.selectors import town_profile
from fogcontrol.registry.models import GreaseControlDevice, Party
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


def _change_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def _form_data(client, url: str, **changes) -> dict:
    """The admin form as the page shows it, with ``changes``: what a browser would post."""
    response = client.get(url)
    assert response.status_code == 200
    data: dict = {}
    form = response.context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
    data.update(changes)
    return data


@pytest.mark.provision("B7")
def test_b7_the_device_admin_shows_the_assigned_frequency_read_only_and_a_posted_change_is_ignored(
    admin_client, town
):
    device = town.own_device
    GreaseControlDevice.objects.filter(pk=device.pk).update(assigned_frequency_days=90)
    url = _change_url(device)
    page = admin_client.get(url).content.decode()
    assert 'name="assigned_frequency_days"' not in page
    assert "Assigned frequency days" in page and ">90<" in page

    data = _form_data(
        admin_client, url, assigned_frequency_days="30", location_description="Under the dish pit"
    )
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    device.refresh_from_db()
    assert device.assigned_frequency_days == 90  # B7: only the notice workflow changes it
    assert device.location_description == "Under the dish pit"
    entry = audit_entries_for(device)[0]
    assert entry.action == "device.update" and entry.actor_label == "admin"
    assert entry.after["assigned_frequency_days"] == 90
    assert entry.after["location_description"] == "Under the dish pit"


def test_an_admin_repair_of_a_contact_writes_an_audit_entry_with_before_and_after(admin_client, town):
    party = town.own_fse.operator
    url = _change_url(party)
    before_name = party.name
    response = admin_client.post(
        url, _form_data(admin_client, url, name="Blue Plate Diner LLC", phone="(650) 555-0101")
    )
    assert response.status_code == 302
    entry = audit_entries_for(party)[0]
    assert entry.action == "party.update" and entry.actor_label == "admin"
    assert entry.before["name"] == before_name and entry.after["name"] == "Blue Plate Diner LLC"
    assert entry.after["phone"] == "(650) 555-0101"


def test_an_admin_save_that_changes_nothing_writes_no_audit_entry(admin_client, town):
    party = town.own_fse.operator
    url = _change_url(party)
    assert admin_client.post(url, _form_data(admin_client, url)).status_code == 302
    assert not audit_entries_for(party).exists()


def test_a_record_added_in_the_admin_is_audited_as_created(admin_client, town):
    url = reverse("admin:registry_party_add")
    response = admin_client.post(
        url, {"kind": "person", "name": "Dana Ortiz", "mailing_state": "CA", "preferred_language": "en"}
    )  # the form as the admin page sends it, its defaults included
    assert response.status_code == 302, response.context["adminform"].form.errors
    party = Party.objects.get(name="Dana Ortiz")
    assert audit_entries_for(party)[0].action == "party.create"


@pytest.mark.provision("A1")
def test_a1_the_establishment_admin_keeps_the_licence_read_only_and_audits_the_address_repair(
    admin_client, town
):
    establishment = town.own_fse
    url = _change_url(establishment)
    expiry = establishment.licence_expires_on
    data = _form_data(
        admin_client,
        url,
        licence_number="BL-HACKED",
        licence_expires_on="2099-12-31",
        site_address="12 Main St",
    )
    assert admin_client.post(url, data).status_code == 302
    establishment.refresh_from_db()
    assert establishment.licence_number != "BL-HACKED" and establishment.licence_expires_on == expiry
    assert establishment.site_address == "12 Main St"
    assert audit_entries_for(establishment)[0].action == "establishment.update"


def test_the_hauler_admin_saves_through_the_service_with_its_vehicles_shown_read_only(admin_client, town):
    url = _change_url(town.hauler)
    assert admin_client.post(url, _form_data(admin_client, url, phone="(650) 555-0177")).status_code == 302
    assert audit_entries_for(town.hauler)[0].action == "hauler.update"


@pytest.mark.parametrize(
    "model",
    [m for m in admin.site._registry if m._meta.app_label in {"registry"}],
    ids=lambda m: m._meta.label,
)
def test_registry_records_are_not_deleted_in_the_admin(admin_client, town, model):
    factories.HaulerVehicleFactory(hauler=town.hauler)
    factories.ReceivingFacilityFactory()
    obj = model._default_manager.first()
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_delete", args=[obj.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert model._default_manager.filter(pk=obj.pk).exists()


READ_ONLY = [
    m
    for m in admin.site._registry
    if m._meta.app_label in {"permits", "servicing", "audit"} or m in {RulesetVersion, Holiday}
]


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m._meta.label)
def test_regulated_records_cannot_be_added_changed_or_deleted_in_the_admin(rf, admin_user, model):
    model_admin = admin.site._registry[model]
    request = rf.get("/admin/")
    request.user = admin_user
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


@pytest.mark.provision("B6")
def test_b6_a_permit_state_or_term_posted_to_the_admin_is_refused(admin_client, town):
    permit = PermitFactory(establishment=town.own_fse)
    url = _change_url(permit)
    response = admin_client.post(url, {"status": PermitStatus.REVOKED, "valid_until": "2099-01-01"})
    assert response.status_code == 403
    permit.refresh_from_db()
    assert permit.status == PermitStatus.ISSUED and permit.valid_until == dt.date(2026, 7, 1)


def test_a_ruleset_version_cannot_be_added_in_the_admin(admin_client):
    response = admin_client.post(
        reverse("admin:program_rulesetversion_add"),
        {"effective_from": "2027-01-01", "label": "Backdoor", "values": '{"fill_limit_ratio": "1.5"}'},
    )
    assert response.status_code == 403
    assert not RulesetVersion.objects.filter(label="Backdoor").exists()


@pytest.mark.provision("J1")
def test_j1_the_town_profile_repaired_in_the_admin_is_audited(admin_client):
    profile = town_profile()
    url = _change_url(profile)
    data = _form_data(admin_client, url, after_hours_emergency_phone="(650) 555-0199")
    assert admin_client.post(url, data).status_code == 302
    assert town_profile().after_hours_emergency_phone == "(650) 555-0199"
    entry = audit_entries_for(profile)[0]
    assert entry.action == "town_profile.update" and entry.actor_label == "admin"
    response = admin_client.post(url, _form_data(admin_client, url, time_zone="America/Los_Robles"))
    assert response.status_code == 200 and "America/Los_Angeles" in response.content.decode()
    assert AuditEntry.objects.filter(action="town_profile.update").count() == 1
