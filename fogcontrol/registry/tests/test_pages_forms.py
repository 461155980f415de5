"""Registry forms: the FOG Manager and inspectors create and edit through the services (audited);
bad input is shown beside its field and nothing is saved; closing an FSE keeps its history."""

import re

import pytest

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.registry.forms import (
    DeviceForm,
    EstablishmentForm,
    HaulerForm,
    ParcelForm,
    PartyForm,
    VehicleForm,
)
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
)
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


def form_data(form) -> dict:
    """What a browser would post for an unchanged form."""
    data = {}
    for field in form:
        value = field.field.prepare_value(field.value())
        if field.widget_type == "checkbox":
            if value:
                data[field.html_name] = "on"
        elif isinstance(value, list | tuple):
            data[field.html_name] = [str(item) for item in value]
        elif value is not None:
            data[field.html_name] = str(value)
    return data


def field_error(body: str, name: str) -> str:
    """The message shown beside the field `name`, or ''."""
    match = re.search(rf'<p class="field-error" id="id_{name}_error">(.*?)</p>', body, re.S)
    return match.group(1) if match else ""


# (what, create URL, data, model, field that identifies the new record)
def _creations(town):
    hauler_user = factories.UserFactory(role=Role.HAULER)
    return [
        (
            "establishment",
            "/registry/establishments/new/",
            {
                "business_name": "Noodle Bar",
                "licence_number": "BL-90001",
                "licence_expires_on": "2027-06-30",
                "site_address": "12 Castro Street",
                "parcel": str(town.owned_parcel.pk),
                "operator": str(town.own_fse.operator_id),
                "category": "quick_service",
                "meals_per_day": "120",
                "haulers": [str(town.hauler.pk)],
                "users": [str(town.users[Role.FSE].pk)],
            },
            FoodServiceEstablishment,
            {"licence_number": "BL-90001"},
        ),
        (
            "device",
            "/registry/devices/new/",
            {
                "identifier": "GI-90001",
                "kind": "gravity_interceptor",
                "status": "active",
                "establishments": [str(fse.pk) for fse in town.mall_fses],
                "parcel": str(town.owned_parcel.pk),
                "capacity_gallons": "1000",
                "total_design_depth_in": "48",
                "compartments": "2",
                "manhole_diameter_in": "24",
            },
            GreaseControlDevice,
            {"identifier": "GI-90001"},
        ),
        (
            "parcel",
            "/registry/parcels/new/",
            {"apn": "175-90-001", "situs_address": "1 Plaza Way", "owner": str(town.own_fse.operator_id)},
            Parcel,
            {"apn": "175-90-001"},
        ),
        (
            "contact",
            "/registry/contacts/new/",
            {
                "kind": "organisation",
                "name": "Castro Holdings LLC",
                "mailing_address_line1": "PO Box 12",
                "mailing_city": "Los Robles",
                "mailing_state": "CA",
                "mailing_postal_code": "94022",
            },
            Party,
            {"name": "Castro Holdings LLC"},
        ),
        (
            "hauler",
            "/registry/haulers/new/",
            {"name": "Valley Vac", "active": "on", "users": [str(hauler_user.pk)]},
            HaulerCompany,
            {"name": "Valley Vac"},
        ),
        (
            "vehicle",
            f"/registry/haulers/{town.hauler.pk}/vehicles/new/",
            {"plate": "8VAC001", "tank_capacity_gallons": "2500", "active": "on"},
            HaulerVehicle,
            {"plate": "8VAC001", "hauler": town.hauler},
        ),
    ]


@pytest.mark.parametrize("role", [Role.FOG_MANAGER, Role.INSPECTOR])
@pytest.mark.parametrize("what", ["establishment", "device", "parcel", "contact", "hauler", "vehicle"])
def test_registry_editors_create_each_record_with_an_audit_entry(client, town, role, what):
    user = town.users[role]
    client.force_login(user)
    case = next(case for case in _creations(town) if case[0] == what)
    _, url, data, model, lookup = case
    assert client.get(url).status_code == 200
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    record = model.objects.get(**lookup)
    assert "was registered" in response.content.decode() or "was added" in response.content.decode()
    entry = AuditEntry.objects.filter(object_id=str(record.pk), action__endswith=".create").latest("at")
    assert entry.actor == user and entry.before is None and entry.after is not None


def test_the_many_to_many_choices_are_saved(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    cases = {case[0]: case for case in _creations(town)}
    client.post(cases["establishment"][1], cases["establishment"][2])
    fse = FoodServiceEstablishment.objects.get(licence_number="BL-90001")
    assert list(fse.haulers.all()) == [town.hauler]
    assert list(fse.users.all()) == [town.users[Role.FSE]]
    client.post(cases["device"][1], cases["device"][2])
    device = GreaseControlDevice.objects.get(identifier="GI-90001")
    assert set(device.establishments.all()) == set(town.mall_fses)


# (what, edit URL, form class, instance, changes, model field to check)
def _edits(town):
    vehicle = factories.HaulerVehicleFactory(hauler=town.hauler)
    return [
        ("establishment", f"/registry/establishments/{town.own_fse.pk}/edit/", EstablishmentForm,
         town.own_fse, {"meals_per_day": "320"}, ("meals_per_day", 320)),
        ("device", f"/registry/devices/{town.own_device.pk}/edit/", DeviceForm,
         town.own_device, {"compartments": "1"}, ("compartments", 1)),
        ("parcel", f"/registry/parcels/{town.owned_parcel.pk}/edit/", ParcelForm,
         town.owned_parcel, {"situs_address": "402 Plaza Way"}, ("situs_address", "402 Plaza Way")),
        ("contact", f"/registry/contacts/{town.own_fse.operator_id}/edit/", PartyForm,
         town.own_fse.operator, {"phone": "(650) 555-0199"}, ("phone", "(650) 555-0199")),
        ("hauler", f"/registry/haulers/{town.hauler.pk}/edit/", HaulerForm,
         town.hauler, {"phone": "(408) 555-0199"}, ("phone", "(408) 555-0199")),
        ("vehicle", f"/registry/haulers/{town.hauler.pk}/vehicles/{vehicle.pk}/edit/", VehicleForm,
         vehicle, {"description": "Vacuum truck"}, ("description", "Vacuum truck")),
    ]  # fmt: skip


@pytest.mark.parametrize("what", ["establishment", "device", "parcel", "contact", "hauler", "vehicle"])
def test_the_fog_manager_edits_each_record_and_the_change_is_audited(client, town, what):
    user = town.users[Role.FOG_MANAGER]
    client.force_login(user)
    _, url, form_class, instance, changes, (name, value) = next(c for c in _edits(town) if c[0] == what)
    data = form_data(form_class(instance=instance)) | changes
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    instance.refresh_from_db()
    assert getattr(instance, name) == value
    entry = AuditEntry.objects.filter(object_id=str(instance.pk), action__endswith=".update").latest("at")
    assert entry.actor == user
    changed = {field for field, _, _ in entry.changed_fields()}
    assert name in changed
    # Only what changed is recorded as changed (plus the bookkeeping timestamp and derived A4 flags).
    assert changed <= {name, "updated_at", "a4_flags"}


@pytest.mark.provision("A4")
def test_a4_editing_a_device_down_to_one_compartment_flags_it(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    data = form_data(DeviceForm(instance=town.own_device)) | {"compartments": "1"}
    response = client.post(f"/registry/devices/{town.own_device.pk}/edit/", data, follow=True)
    town.own_device.refresh_from_db()
    assert town.own_device.a4_flags
    assert "1 compartment(s); at least 2 required" in response.content.decode()


def test_bad_input_is_shown_beside_the_field_and_nothing_is_saved(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    audit_before = AuditEntry.objects.count()
    fse_before = FoodServiceEstablishment.objects.count()
    response = client.post(
        "/registry/establishments/new/",
        {
            "business_name": "",
            "licence_number": "BL-77",
            "site_address": "5 Elm",
            "category": "full_service",
            "meals_per_day": "lots",
            "latitude": "123",
            "licence_expires_on": "30/02/2027",
        },
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Nothing has been saved yet." in body
    assert field_error(body, "business_name") == "This field is required."
    assert field_error(body, "meals_per_day") == "Enter a whole number."
    assert field_error(body, "licence_expires_on") == "Enter a valid date."
    assert FoodServiceEstablishment.objects.count() == fse_before
    assert AuditEntry.objects.count() == audit_before
    # What the user typed is still there to correct.
    assert 'value="BL-77"' in body and 'value="5 Elm"' in body


def test_a_service_refusal_is_shown_beside_the_field_it_names(client, town):
    """The model's own rules (a duplicate licence, a latitude off the globe) come from the service."""
    client.force_login(town.users[Role.FOG_MANAGER])
    audit_before = AuditEntry.objects.count()
    response = client.post(
        "/registry/establishments/new/",
        {
            "business_name": "Copycat Cafe",
            "licence_number": town.other_fse.licence_number,
            "site_address": "5 Elm",
            "category": "cafe_bakery",
            "latitude": "123",
        },
    )
    body = response.content.decode()
    assert "business licence number already exists" in field_error(body, "licence_number").lower()
    assert "less than or equal to 90" in field_error(body, "latitude")
    assert not FoodServiceEstablishment.objects.filter(business_name="Copycat Cafe").exists()
    assert AuditEntry.objects.count() == audit_before


def test_a_bad_edit_leaves_the_record_as_it_was(client, town):
    client.force_login(town.users[Role.INSPECTOR])
    data = form_data(DeviceForm(instance=town.own_device)) | {
        "identifier": town.other_device.identifier,
        "total_design_depth_in": "0",
    }
    response = client.post(f"/registry/devices/{town.own_device.pk}/edit/", data)
    body = response.content.decode()
    assert "already exists" in field_error(body, "identifier")
    saved = GreaseControlDevice.objects.get(pk=town.own_device.pk)
    assert saved.identifier == town.own_device.identifier
    assert not AuditEntry.objects.filter(object_id=str(saved.pk), action="device.update").exists()


def test_a_duplicate_vehicle_plate_is_refused_with_a_message(client, town):
    factories.HaulerVehicleFactory(hauler=town.hauler, plate="8DUP001")
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.post(f"/registry/haulers/{town.hauler.pk}/vehicles/new/", {"plate": "8DUP001"})
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert HaulerVehicle.objects.filter(plate="8DUP001").count() == 1


def test_new_device_form_starts_with_the_fse_and_its_parcel(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    form = client.get(f"/registry/devices/new/?establishment={town.own_fse.pk}").context["form"]
    assert form.initial == {"establishments": [town.own_fse.pk], "parcel": town.own_fse.parcel_id}
    assert client.get("/registry/devices/new/?establishment=nonsense").status_code == 200


def test_closing_an_fse_keeps_it_and_its_history(client, town):
    user = town.users[Role.FOG_MANAGER]
    client.force_login(user)
    url = f"/registry/establishments/{town.own_fse.pk}/"
    page = client.get(url).content.decode()
    # The page asks before closing (app.js reads the question; no inline handler under the CSP).
    assert 'data-confirm="Close Blue Plate Diner? Its records and history are kept."' in page
    assert "Close this FSE" in page
    response = client.post(f"{url}close/", follow=True)
    body = response.content.decode()
    assert "was closed. Its records and history are kept." in body
    town.own_fse.refresh_from_db()
    assert town.own_fse.status == "closed" and town.own_fse.closed_on is not None
    assert list(town.own_fse.devices.all()) == [town.own_device]
    assert "establishment.update" in body and "Change history" in body
    # Closing again changes nothing and says why.
    entries = AuditEntry.objects.count()
    body = client.post(f"{url}close/", follow=True).content.decode()
    assert "is already closed" in body
    assert AuditEntry.objects.count() == entries
    # Closed FSEs stay findable.
    assert "Blue Plate Diner" in client.get("/registry/establishments/?status=closed").content.decode()


def test_a_closed_fse_can_be_reopened(client, town):
    client.force_login(town.users[Role.INSPECTOR])
    url = f"/registry/establishments/{town.own_fse.pk}/"
    client.post(f"{url}close/")
    client.post(f"{url}reopen/")
    town.own_fse.refresh_from_db()
    assert town.own_fse.status == "active" and town.own_fse.closed_on is None


def test_closing_needs_a_post(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert client.get(f"/registry/establishments/{town.own_fse.pk}/close/").status_code == 405
