"""The API lists' rows, read the fast way, are DRF's own rows to the byte (issue 16).

`core.api.serializers.RowsSerializerMixin` reads a model's own columns straight off each row instead
of through DRF's generic getter. Each list is requested twice on the same rows, once as served and
once with DRF's own `Serializer.to_representation` put back, and the two bodies must be equal; the
keys of an establishment's and a manifest's row are pinned, in their order.
"""

import pytest
from rest_framework import serializers

from conftest import api_as
from fogcontrol.core.api.serializers import RowsSerializerMixin
from fogcontrol.core.roles import Role
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.registry.tests.rows import add_registry_rows
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
