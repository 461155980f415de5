"""Two people saving the same registry record from the same copy (issue 15, optimistic concurrency;
fogcontrol/core/concurrency.py): the first save wins, the second is refused (the page says so and
keeps the input, 409; the API answers 409), and nothing is silently overwritten."""

from html import escape

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.registry import services
from fogcontrol.registry.forms import DeviceForm, EstablishmentForm, HaulerForm, ParcelForm, PartyForm
from fogcontrol.registry.tests.test_pages_forms import form_data
from fogcontrol.testing import factories
from fogcontrol.testing.auth import force_login_verified

pytestmark = pytest.mark.django_db

STALE = "Someone else saved this record after you opened it"


# (what, the record, its edit page, its API detail, its form, a field people change)
def _records(town):
    return [
        ("establishment", town.own_fse, "/registry/establishments/{}/edit/", "/api/v1/establishments/{}/",
         EstablishmentForm, "business_name"),
        ("device", town.own_device, "/registry/devices/{}/edit/", "/api/v1/devices/{}/", DeviceForm, "identifier"),
        ("parcel", town.owned_parcel, "/registry/parcels/{}/edit/", "/api/v1/parcels/{}/", ParcelForm,
         "situs_address"),
        ("hauler", town.hauler, "/registry/haulers/{}/edit/", "/api/v1/haulers/{}/", HaulerForm, "name"),
        ("party", factories.PartyFactory(), "/registry/contacts/{}/edit/", "/api/v1/parties/{}/", PartyForm,
         "name"),
    ]  # fmt: skip


def _signed_in(user) -> Client:
    client = Client()
    force_login_verified(client, user)
    return client


@pytest.mark.parametrize("which", ["establishment", "device", "parcel", "hauler", "party"])
def test_a_stale_page_save_is_refused_with_the_input_kept_and_the_fresh_one_kept(town, which):
    _what, record, edit_url, _api, form_class, field = next(r for r in _records(town) if r[0] == which)
    url = edit_url.format(record.pk)
    manager, inspector = _signed_in(town.users[Role.FOG_MANAGER]), _signed_in(town.users[Role.INSPECTOR])
    # Both open the edit page on the same version of the record.
    assert manager.get(url).status_code == 200 and inspector.get(url).status_code == 200
    first = form_data(form_class(instance=record)) | {field: "Saved First 1"}
    second = form_data(form_class(instance=record)) | {field: "Saved Second 2"}

    assert manager.post(url, first).status_code == 302
    refused = inspector.post(url, second)

    assert refused.status_code == 409
    page = refused.content.decode()
    assert STALE in page
    assert 'value="Saved Second 2"' in page  # the inspector's input is still in the form
    record.refresh_from_db()
    assert getattr(record, field) == "Saved First 1"  # not overwritten
    assert AuditEntry.objects.filter(action=f"{which}.update", object_id=str(record.pk)).count() == 1

    # Having seen the warning, saving the kept input again is a deliberate choice, and it saves.
    again = inspector.post(url, second | {"version": str(record.version)})
    assert again.status_code == 302
    record.refresh_from_db()
    assert getattr(record, field) == "Saved Second 2"


@pytest.mark.parametrize("which", ["establishment", "device", "parcel", "hauler", "party"])
def test_a_stale_api_save_is_refused_409_and_a_fresh_one_accepted(town, which):
    _what, record, _edit, api_url, _form, field = next(r for r in _records(town) if r[0] == which)
    url = api_url.format(record.pk)
    manager, inspector = api_as(town.users[Role.FOG_MANAGER]), api_as(town.users[Role.INSPECTOR])
    read = inspector.get(url)
    etag = read["ETag"]
    assert etag == f'"{read.json()["version"]}"'

    won = manager.patch(url, {field: "Saved First 1"}, format="json", HTTP_IF_MATCH=manager.get(url)["ETag"])
    assert won.status_code == 200, won.json()
    assert won["ETag"] != etag

    refused = inspector.patch(url, {field: "Saved Second 2"}, format="json", HTTP_IF_MATCH=etag)
    assert refused.status_code == 409
    assert refused.json()["code"] == "stale_record"
    assert refused["ETag"] == won["ETag"]
    record.refresh_from_db()
    assert getattr(record, field) == "Saved First 1"

    fresh = inspector.patch(url, {field: "Saved Second 2"}, format="json", HTTP_IF_MATCH=refused["ETag"])
    assert fresh.status_code == 200
    record.refresh_from_db()
    assert getattr(record, field) == "Saved Second 2"


def test_a_malformed_if_match_is_a_400_naming_the_header(town):
    url = f"/api/v1/establishments/{town.own_fse.pk}/"
    answer = api_as(town.users[Role.FOG_MANAGER]).patch(url, {"business_name": "X"}, format="json",
                                                        HTTP_IF_MATCH="three")  # fmt: skip
    assert answer.status_code == 400 and "If-Match" in answer.json()


def test_a_save_without_a_version_a_job_or_script_moves_the_version_on(town):
    """A caller holding no copy saves over what is there, and a person's copy is then stale."""
    fse = town.own_fse
    opened_at = fse.version
    services.establishment_update(
        establishment=fse, acting_user="licence-import", business_name="Renamed Inc"
    )
    fse.refresh_from_db()
    assert fse.version == opened_at + 1
    manager = _signed_in(town.users[Role.FOG_MANAGER])
    stale = form_data(EstablishmentForm(instance=fse)) | {"version": str(opened_at), "business_name": "Mine"}
    response = manager.post(f"/registry/establishments/{fse.pk}/edit/", stale)
    assert response.status_code == 409 and escape(STALE) in response.content.decode()
    fse.refresh_from_db()
    assert fse.business_name == "Renamed Inc"


def test_a_stale_vehicle_page_save_is_refused_with_the_input_kept(town):
    """A hauler's vehicle, edited in place on its page (no API edits a vehicle)."""
    from fogcontrol.registry.forms import VehicleForm

    vehicle = services.vehicle_create(
        acting_user=town.users[Role.FOG_MANAGER], hauler=town.hauler, plate="7ABC123", description="Vac truck"
    )
    url = f"/registry/haulers/{town.hauler.pk}/vehicles/{vehicle.pk}/edit/"
    manager, inspector = _signed_in(town.users[Role.FOG_MANAGER]), _signed_in(town.users[Role.INSPECTOR])
    assert f'name="version" value="{vehicle.version}"' in manager.get(url).content.decode()
    first = form_data(VehicleForm(instance=vehicle)) | {"description": "Saved First 1"}
    second = form_data(VehicleForm(instance=vehicle)) | {"description": "Saved Second 2"}

    assert manager.post(url, first).status_code == 302
    refused = inspector.post(url, second)

    assert refused.status_code == 409
    page = refused.content.decode()
    assert STALE in page and 'value="Saved Second 2"' in page
    vehicle.refresh_from_db()
    assert vehicle.description == "Saved First 1"
    assert AuditEntry.objects.filter(action="vehicle.update", object_id=str(vehicle.pk)).count() == 1

    again = inspector.post(url, second | {"version": str(vehicle.version)})
    assert again.status_code == 302
    vehicle.refresh_from_db()
    assert vehicle.description == "Saved Second 2"
