"""Devices through the API: who answers for a device (A2), A4 flags, and input checks."""

from decimal import Decimal

import pytest

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.testing import factories


def _manager(town):
    return api_as(town.users[Role.FOG_MANAGER])


@pytest.mark.provision("A2")
def test_A2_shared_device_is_the_property_owners(town):
    response = _manager(town).get(f"/api/v1/devices/{town.shared_device.pk}/")

    assert response.status_code == 200
    responsible = response.json()["responsible"]
    assert responsible["responsible"] == "property_owner"
    assert responsible["label"] == "Property owner"
    assert responsible["needs_review"] is False
    assert responsible["notices_to"] == {
        "id": town.owned_parcel.owner.pk,
        "name": town.owned_parcel.owner.name,
    }
    assert responsible["notices_to_kind"] == "party"
    assert "A2" in responsible["explanation"]["provisions"]
    assert town.owned_parcel.apn in responsible["explanation"]["text"]
    served = {row["business_name"] for row in response.json()["establishments_served"]}
    assert served == {"Plaza Pizza", "Plaza Pho"}


@pytest.mark.provision("A2")
def test_A2_notices_go_to_the_owners_designee_when_named(town):
    designee = factories.PartyFactory(name="Plaza Property Management")
    town.owned_parcel.owner_designee = designee
    town.owned_parcel.save()

    responsible = _manager(town).get(f"/api/v1/devices/{town.shared_device.pk}/").json()["responsible"]

    assert responsible["notices_to"] == {"id": designee.pk, "name": "Plaza Property Management"}


@pytest.mark.provision("A2")
def test_A2_the_property_owner_sees_the_shared_device_and_that_it_is_theirs(town):
    response = api_as(town.users[Role.PROPERTY_OWNER]).get("/api/v1/devices/")

    rows = response.json()["results"]
    assert [row["id"] for row in rows] == [town.shared_device.pk]
    assert rows[0]["responsible"]["responsible"] == "property_owner"


@pytest.mark.provision("A3")
def test_A3_a_device_serving_one_fse_is_that_fses(town):
    responsible = _manager(town).get(f"/api/v1/devices/{town.own_device.pk}/").json()["responsible"]

    assert responsible["responsible"] == "fse"
    assert responsible["notices_to"] == {"id": town.own_fse.pk, "name": "Blue Plate Diner"}
    assert responsible["notices_to_kind"] == "establishment"


@pytest.mark.provision("A4")
def test_A4_a_one_compartment_interceptor_is_saved_with_its_flag(town):
    response = _manager(town).post(
        "/api/v1/devices/",
        {
            "identifier": "GI-ONE-01",
            "kind": "gravity_interceptor",
            "compartments": 1,
            "manhole_diameter_in": "24.0",
            "capacity_gallons": 750,
            "establishments": [town.other_fse.pk],
        },
        format="json",
    )

    assert response.status_code == 201, response.json()
    flags = response.json()["a4_flags"]
    assert len(flags) == 1
    assert flags[0].startswith("A4: 1 compartment(s); at least 2 required")
    device = GreaseControlDevice.objects.get(identifier="GI-ONE-01")
    assert device.a4_flags == flags
    assert AuditEntry.objects.filter(action="device.create", object_id=str(device.pk)).exists()


@pytest.mark.provision("A4")
def test_A4_flags_follow_a_correction_of_the_record(town):
    device = factories.DeviceFactory(identifier="GI-SMALL", compartments=1, manhole_diameter_in=Decimal("18"))
    client = _manager(town)
    # The services keep the flags current; the factory does not, so a first update computes them.
    flags = client.patch(f"/api/v1/devices/{device.pk}/", {"compartments": 1}, format="json").json()[
        "a4_flags"
    ]
    assert len(flags) == 2

    fixed = client.patch(
        f"/api/v1/devices/{device.pk}/", {"compartments": 2, "manhole_diameter_in": "24"}, format="json"
    )

    assert fixed.status_code == 200
    assert fixed.json()["a4_flags"] == []


@pytest.mark.provision("A4")
def test_A4_flagged_filter_lists_only_devices_below_the_minimums(town):
    client = _manager(town)
    client.post(
        "/api/v1/devices/",
        {
            "identifier": "GI-FLAG",
            "kind": "gravity_interceptor",
            "compartments": 1,
            "manhole_diameter_in": "24",
        },
        format="json",
    )

    rows = client.get("/api/v1/devices/", {"flagged": "true"}).json()["results"]

    assert [row["identifier"] for row in rows] == ["GI-FLAG"]


def test_negative_depth_is_refused_naming_the_field(town):
    response = _manager(town).post(
        "/api/v1/devices/",
        {"identifier": "GI-NEG", "kind": "gravity_interceptor", "total_design_depth_in": "-4"},
        format="json",
    )

    assert response.status_code == 400
    assert list(response.json()) == ["total_design_depth_in"]
    assert not GreaseControlDevice.objects.filter(identifier="GI-NEG").exists()


@pytest.mark.provision("E3")
def test_E3_zero_depth_is_refused_because_the_25_percent_rule_divides_by_it(town):
    response = _manager(town).patch(
        f"/api/v1/devices/{town.own_device.pk}/", {"total_design_depth_in": "0"}, format="json"
    )

    assert response.status_code == 400
    assert "more than 0 inches" in response.json()["total_design_depth_in"][0]
    town.own_device.refresh_from_db()
    assert town.own_device.total_design_depth_in == Decimal("48.00")


@pytest.mark.provision("E1")
def test_E1_only_an_assignable_frequency_is_accepted_for_a_new_device(town):
    client = _manager(town)
    new_device = {"identifier": "GI-77777", "kind": "gravity_interceptor", "compartments": 2}
    refused = client.post("/api/v1/devices/", {**new_device, "assigned_frequency_days": 45}, format="json")
    accepted = client.post("/api/v1/devices/", {**new_device, "assigned_frequency_days": 60}, format="json")

    assert refused.status_code == 400
    assert "30, 60, 90, 120, 180" in refused.json()["assigned_frequency_days"][0]
    assert accepted.status_code == 201
    assert accepted.json()["assigned_frequency_days"] == 60


@pytest.mark.provision("B7")
def test_B7_an_existing_devices_frequency_is_not_changed_by_a_plain_edit(town):
    response = _manager(town).patch(
        f"/api/v1/devices/{town.own_device.pk}/", {"assigned_frequency_days": 60}, format="json"
    )

    assert response.status_code == 400
    assert f"/api/v1/devices/{town.own_device.pk}/frequency/" in response.json()["assigned_frequency_days"][0]
    town.own_device.refresh_from_db()
    assert town.own_device.assigned_frequency_days is None


def test_unknown_kind_and_duplicate_identifier_are_refused_naming_the_fields(town):
    response = _manager(town).post(
        "/api/v1/devices/", {"identifier": town.own_device.identifier, "kind": "septic_tank"}, format="json"
    )

    assert response.status_code == 400
    assert set(response.json()) == {"identifier", "kind"}


def test_an_establishment_outside_the_scope_reads_as_unknown(town):
    response = _manager(town).post(
        "/api/v1/devices/",
        {"identifier": "GI-X", "kind": "other", "establishments": [999999]},
        format="json",
    )

    assert response.status_code == 400
    assert "No establishment with id" in response.json()["establishments"][0]
