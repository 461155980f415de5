"""Parcels (with what is on them, scoped), haulers with their vehicles, facilities, parties."""

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.testing import factories


def test_a_parcel_shows_the_fses_and_devices_on_it(town):
    response = api_as(town.users[Role.PROPERTY_OWNER]).get(f"/api/v1/parcels/{town.owned_parcel.pk}/")

    assert response.status_code == 200
    body = response.json()
    assert body["apn"] == town.owned_parcel.apn
    assert {row["business_name"] for row in body["establishments"]} == {"Plaza Pizza", "Plaza Pho"}
    assert [row["id"] for row in body["devices"]] == [town.shared_device.pk]
    assert sorted(body["devices"][0]["establishments"]) == sorted(fse.pk for fse in town.mall_fses)


def test_an_fse_user_sees_only_its_own_fse_on_a_shared_parcel(town):
    neighbour = factories.EstablishmentFactory(business_name="Next Door Noodles", parcel=town.own_fse.parcel)
    factories.DeviceFactory(establishments=[neighbour], parcel=town.own_fse.parcel)

    body = api_as(town.users[Role.FSE]).get(f"/api/v1/parcels/{town.own_fse.parcel_id}/").json()

    assert [row["business_name"] for row in body["establishments"]] == ["Blue Plate Diner"]
    assert [row["id"] for row in body["devices"]] == [town.own_device.pk]


def test_parcel_owner_accounts_are_linked_by_staff(town):
    owner_user = factories.UserFactory(role=Role.PROPERTY_OWNER)

    response = api_as(town.users[Role.FOG_MANAGER]).patch(
        f"/api/v1/parcels/{town.other_fse.parcel_id}/", {"owner_users": [owner_user.pk]}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["owner_users"] == [owner_user.pk]
    seen = api_as(owner_user).get("/api/v1/establishments/").json()["results"]
    assert [row["id"] for row in seen] == [town.other_fse.pk]


def test_haulers_carry_their_vehicles(town):
    factories.HaulerVehicleFactory(hauler=town.hauler, plate="8TRK001")

    body = api_as(town.users[Role.HAULER]).get(f"/api/v1/haulers/{town.hauler.pk}/").json()

    assert body["name"] == "Peninsula Pumping"
    assert [vehicle["plate"] for vehicle in body["vehicles"]] == ["8TRK001"]


def test_a_plate_already_on_the_hauler_is_refused_naming_the_field(town):
    factories.HaulerVehicleFactory(hauler=town.hauler, plate="8TRK001")

    response = api_as(town.users[Role.INSPECTOR]).post(
        f"/api/v1/haulers/{town.hauler.pk}/vehicles/", {"plate": "8trk001"}, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()) == ["plate"]
    assert town.hauler.vehicles.count() == 1


def test_a_hauler_name_already_registered_is_refused_naming_the_field(town):
    response = api_as(town.users[Role.FOG_MANAGER]).post(
        "/api/v1/haulers/", {"name": "Peninsula Pumping"}, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()) == ["name"]


def test_parties_are_for_staff_only_and_carry_the_mailing_address(town):
    operator = town.own_fse.operator

    staff = api_as(town.users[Role.BILLING_CLERK]).get(f"/api/v1/parties/{operator.pk}/")
    outside = api_as(town.users[Role.FSE]).get(f"/api/v1/parties/{operator.pk}/")

    assert staff.status_code == 200
    assert "Los Robles" in staff.json()["mailing_address"]
    assert outside.status_code == 403
    assert "staff" in outside.json()["detail"]


def test_a_bad_email_on_a_party_is_refused_naming_the_field(town):
    response = api_as(town.users[Role.FOG_MANAGER]).post(
        "/api/v1/parties/", {"name": "Someone", "email": "not-an-address"}, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()) == ["email"]
    assert not AuditEntry.objects.exists()


def test_facilities_are_listed_to_every_signed_in_user(town):
    factories.ReceivingFacilityFactory(name="Bayside Rendering")

    rows = api_as(town.users[Role.HAULER]).get("/api/v1/facilities/", {"search": "bayside"}).json()["results"]

    assert [row["name"] for row in rows] == ["Bayside Rendering"]


def test_parties_are_found_by_q_and_kind(town):
    # A surname no generated company name contains (the factories draw from Faker's surnames).
    factories.PartyFactory(name="Rosa Quillfeatherby", kind="person", contact_name="")

    client = api_as(town.users[Role.INSPECTOR])
    by_q = client.get("/api/v1/parties/", {"q": "quillfeatherby"}).json()["results"]
    people = client.get("/api/v1/parties/", {"kind": "person"}).json()["results"]

    assert [row["name"] for row in by_q] == ["Rosa Quillfeatherby"]
    assert [row["name"] for row in people] == ["Rosa Quillfeatherby"]
