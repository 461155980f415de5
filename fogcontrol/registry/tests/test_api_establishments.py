"""Establishments through the API: registering (A1), closing without losing history, input checks,
filters, search, ordering and paging."""

import datetime as dt

import pytest

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.testing import factories


def _manager(town):
    return api_as(town.users[Role.FOG_MANAGER])


@pytest.mark.provision("A1")
def test_A1_an_fse_is_registered_under_its_business_name_and_licence(town):
    response = _manager(town).post(
        "/api/v1/establishments/",
        {
            "business_name": "Sunrise Bakery",
            "licence_number": "BL-31000",
            "site_address": "12 Oak Avenue",
            "parcel": town.owned_parcel.pk,
            "category": "cafe_bakery",
            "haulers": [town.hauler.pk],
        },
        format="json",
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["business_name"], body["licence_number"], body["parcel_apn"]) == (
        "Sunrise Bakery",
        "BL-31000",
        town.owned_parcel.apn,
    )
    assert body["haulers"] == [town.hauler.pk]
    assert body["device_count"] == 0


@pytest.mark.provision("A1")
def test_A1_a_duplicate_licence_number_is_refused_naming_the_field(town):
    response = _manager(town).post(
        "/api/v1/establishments/",
        {
            "business_name": "Copycat Cafe",
            "licence_number": town.own_fse.licence_number,
            "site_address": "1 A St",
        },
        format="json",
    )

    assert response.status_code == 400
    assert list(response.json()) == ["licence_number"]
    assert not FoodServiceEstablishment.objects.filter(business_name="Copycat Cafe").exists()


def test_an_unknown_parcel_id_is_refused_naming_the_field(town):
    response = _manager(town).patch(
        f"/api/v1/establishments/{town.own_fse.pk}/", {"parcel": 999999}, format="json"
    )

    assert response.status_code == 400
    message = response.json()["parcel"][0]
    assert 'No parcel with id "999999"' in message and "/api/v1/parcels/" in message
    town.own_fse.refresh_from_db()
    assert town.own_fse.parcel_id is not None


def test_missing_required_fields_are_named(town):
    response = _manager(town).post("/api/v1/establishments/", {"business_name": ""}, format="json")

    assert response.status_code == 400
    assert {"business_name", "licence_number", "site_address"} <= set(response.json())


def test_closing_sets_the_status_and_keeps_the_record(town):
    client = _manager(town)

    response = client.post(f"/api/v1/establishments/{town.own_fse.pk}/close/", {"closed_on": "2026-03-31"})

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["closed_on"]) == ("closed", "2026-03-31")
    fse = FoodServiceEstablishment.objects.get(pk=town.own_fse.pk)
    assert fse.status == "closed" and fse.closed_on == dt.date(2026, 3, 31)
    assert fse.devices.get() == town.own_device  # its history stays linked
    entry = AuditEntry.objects.get(action="establishment.update", object_id=str(fse.pk))
    assert (entry.before["status"], entry.after["status"]) == ("active", "closed")
    # Still listed, and findable by status.
    rows = client.get("/api/v1/establishments/", {"status": "closed"}).json()["results"]
    assert [row["id"] for row in rows] == [fse.pk]


def test_closing_by_patch_dates_it_today(town):
    response = _manager(town).patch(
        f"/api/v1/establishments/{town.own_fse.pk}/", {"status": "closed"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["closed_on"] is not None


def test_closing_a_closed_fse_is_a_conflict(town):
    client = _manager(town)
    client.post(f"/api/v1/establishments/{town.own_fse.pk}/close/")

    response = client.post(f"/api/v1/establishments/{town.own_fse.pk}/close/")

    assert response.status_code == 409
    assert "already closed" in response.json()["detail"]


def test_only_editors_close_and_outside_users_cannot_find_others(town):
    fse_user = api_as(town.users[Role.FSE])
    readonly = api_as(town.users[Role.STAFF_READONLY])

    assert fse_user.post(f"/api/v1/establishments/{town.own_fse.pk}/close/").status_code == 403
    assert fse_user.post(f"/api/v1/establishments/{town.other_fse.pk}/close/").status_code == 404
    assert readonly.post(f"/api/v1/establishments/{town.own_fse.pk}/close/").status_code == 403
    town.own_fse.refresh_from_db()
    assert town.own_fse.status == "active"


def test_delete_answers_405_and_says_to_close_instead(town):
    response = _manager(town).delete(f"/api/v1/establishments/{town.own_fse.pk}/")

    assert response.status_code == 405
    assert "close" in response.json()["detail"].lower()
    assert FoodServiceEstablishment.objects.filter(pk=town.own_fse.pk).exists()


def test_search_q_filters_ordering_and_paging(town):
    client = _manager(town)
    for number in range(5):
        factories.EstablishmentFactory(business_name=f"Zeta Grill {number}")

    by_search = client.get("/api/v1/establishments/", {"search": "zeta"}).json()
    by_q = client.get("/api/v1/establishments/", {"q": "Zeta Grill"}).json()
    by_apn = client.get("/api/v1/establishments/", {"apn": town.owned_parcel.apn}).json()
    ordered = client.get("/api/v1/establishments/", {"ordering": "-business_name", "page_size": 2}).json()

    assert by_search["count"] == by_q["count"] == 5
    assert {row["business_name"] for row in by_apn["results"]} == {"Plaza Pizza", "Plaza Pho"}
    assert [row["business_name"] for row in ordered["results"]] == ["Zeta Grill 4", "Zeta Grill 3"]
    assert ordered["count"] == 9 and ordered["next"] is not None


def test_a_bad_filter_value_names_the_filter(town):
    response = _manager(town).get("/api/v1/establishments/", {"status": "sleeping"})

    assert response.status_code == 400
    assert list(response.json()) == ["status"]
