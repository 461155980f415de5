"""The API lists' rows, read the fast way, are DRF's own rows to the byte (issue 16).

`core.api.serializers.RowsSerializerMixin` reads a model's own columns straight off each row instead
of through DRF's generic getter. Each list is requested twice on the same rows, once as served and
once with DRF's own `Serializer.to_representation` put back, and the two bodies must be equal; the
keys of an establishment's and a manifest's row are pinned, in their order. The lists' selectors
load some relations as plain lists (`prefetched_lists`); a record's detail reads them through the
relation, and a row with flags, an attachment, linked users and served FSEs is its detail. The FSE
and device lists read only the columns their rows show of the related records; a row of each is its
detail, which loads them whole.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework import serializers

from conftest import api_as
from fogcontrol.core.api.serializers import RowsSerializerMixin
from fogcontrol.core.roles import Role
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.servicing.tests.rows import add_servicing_rows

LISTS = ["/api/v1/establishments/", "/api/v1/devices/", "/api/v1/manifests/", "/api/v1/permits/"]

ESTABLISHMENT_KEYS = [
    "id", "business_name", "licence_number", "licence_expires_on", "site_address", "parcel",
    "parcel_apn", "operator", "operator_name", "contact", "contact_name", "category", "food_types",
    "meals_per_day", "dining_capacity", "employees", "kitchen_size_sqft", "food_preparation_hours",
    "cleaning_hours", "status", "closed_on", "latitude", "longitude", "haulers", "users",
    "device_count", "created_at", "updated_at", "version",
]  # fmt: skip
MANIFEST_KEYS = [
    "id", "device", "device_id", "establishment_id", "site_address", "hauler_id", "hauler_name",
    "hauler_attested", "driver_name", "vehicle_plate", "manifest_number", "serviced_at",
    "service_date", "full_pumpout", "baffles_cleaned", "fog_depth_in", "solids_depth_in",
    "fill_ratio", "gallons_removed", "leak_observed", "damaged_baffles", "damaged_tees",
    "condition_notes", "receiving_facility", "delivered_on", "certified_by_name",
    "certification_version", "channel", "received_at", "submitted_by", "corrects",
    "correction_reason", "withdrawn", "record_sequence", "previous_hash", "record_hash", "flags",
    "attachments",
]  # fmt: skip


@pytest.fixture
def rows(town):
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule()
    add_registry_rows(town, 4, bound_user=town.users[Role.FSE])
    add_servicing_rows(town, 3)
    add_permit_rows(3, manager=manager)
    return manager


def test_the_lists_rows_are_drfs_own(rows, monkeypatch):
    client = api_as(rows)
    served = {path: client.get(path, {"page_size": 100}) for path in LISTS}
    monkeypatch.setattr(RowsSerializerMixin, "to_representation", serializers.Serializer.to_representation)
    for path, response in served.items():
        assert response.status_code == 200, path
        assert response.json()["results"], path
        assert response.content == client.get(path, {"page_size": 100}).content, path


def test_an_establishments_and_a_manifests_row_keep_their_keys(rows):
    client = api_as(rows)
    establishment = client.get("/api/v1/establishments/").json()["results"][0]
    manifest = client.get("/api/v1/manifests/").json()["results"][0]
    assert list(establishment) == ESTABLISHMENT_KEYS
    assert list(manifest) == MANIFEST_KEYS
    assert isinstance(establishment["device_count"], int)
    assert isinstance(manifest["flags"], list)


def test_the_lists_prefetched_lists_are_not_empty_here(rows):
    """The comparison above reads users, haulers and served FSEs through their relations: some rows
    have them, so it compares something."""
    client = api_as(rows)
    fses = client.get("/api/v1/establishments/", {"page_size": 100}).json()["results"]
    devices = client.get("/api/v1/devices/", {"page_size": 100}).json()["results"]
    assert any(row["users"] for row in fses) and any(row["haulers"] for row in fses)
    assert any(len(row["establishments_served"]) > 1 for row in devices)


def test_a_manifests_row_is_its_detail_with_its_flags_and_attachments(rows, town):
    """The list loads a manifest's flags and attachments as lists; its detail reads the relations."""
    ticket = SimpleUploadedFile("ticket.pdf", b"%PDF-1.4 ticket", content_type="application/pdf")
    manifest = submit(
        town.users[Role.HAULER],
        town.own_device,
        serviced_at=days_ago(1),
        baffles_cleaned=False,
        attachments=[ticket],
    )
    client = api_as(rows)
    listed = {
        row["id"]: row for row in client.get("/api/v1/manifests/", {"page_size": 100}).json()["results"]
    }
    row = listed[manifest.pk]
    assert row["flags"] and [a["name"] for a in row["attachments"]] == ["ticket.pdf"]
    assert row == client.get(f"/api/v1/manifests/{manifest.pk}/").json()


def test_an_fses_and_a_devices_row_is_its_detail(rows, town):
    """The FSE and device lists read of the parcel and its parties only the APN and the names
    (`registry.selectors.*_list_for_api(as_lists=True)`); their details load the records whole. A
    device on a parcel with a designee, one on no parcel serving two FSEs of a parcel (A2: the
    owner's designee, found through the FSEs) and one serving one FSE (the FSE) are their details."""
    from fogcontrol.registry import selectors
    from fogcontrol.testing import factories

    parcel = factories.ParcelFactory(owner_designee=factories.PartyFactory())
    fse = factories.EstablishmentFactory(parcel=parcel, contact=factories.PartyFactory())
    neighbour = factories.EstablishmentFactory(parcel=parcel)
    devices = [
        factories.DeviceFactory(establishments=[fse], parcel=parcel),
        factories.DeviceFactory(establishments=[fse, neighbour]),
        factories.DeviceFactory(establishments=[neighbour]),
    ]
    client = api_as(rows)
    for path, ids in (("establishments", [fse.pk, neighbour.pk]), ("devices", [d.pk for d in devices])):
        listed = client.get(f"/api/v1/{path}/", {"page_size": 100}).json()["results"]
        assert {row["id"] for row in listed} >= set(ids)
        for row in listed:
            assert row == client.get(f"/api/v1/{path}/{row['id']}/").json(), (path, row["id"])
    recipients = {row["id"]: row["responsible"]["notices_to"] for row in listed}
    assert recipients[devices[1].pk] == {"id": parcel.owner_designee_id, "name": parcel.owner_designee.name}
    # The lists compared above did read the related rows narrowed (and the details whole).
    # The devices' served FSEs were rows of the links (`with_served_rows`), not records.
    page = selectors.with_served_rows(list(selectors.device_list_for_api(rows, as_lists=True)))
    assert all(isinstance(fse, selectors.ServedRow) for device in page for fse in device.api_establishments)
    assert any(len(device.api_establishments) > 1 for device in page)
    narrow = selectors.device_list_for_api(rows, as_lists=True).get(pk=devices[0].pk)
    assert "situs_address" in narrow.parcel.get_deferred_fields()
    assert "email" in narrow.parcel.owner_designee.get_deferred_fields()
    listed_fse = selectors.establishment_list_for_api(rows, as_lists=True).get(pk=fse.pk)
    assert "email" in listed_fse.contact.get_deferred_fields()
    assert not selectors.device_list_for_api(rows).get(pk=devices[0].pk).parcel.get_deferred_fields()
