"""What the record pages show: A1 registry data, A2 responsibility, A4 flags, E3 depth, history."""

import pytest
from django.utils.html import escape

from fogcontrol.core.roles import Role
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import town_today
from fogcontrol.registry import services
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


def page(client, user, url) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.provision("A2")
def test_a2_the_shared_device_page_names_the_property_owner_and_why(client, town):
    owner = town.owned_parcel.owner
    body = page(client, town.users[Role.INSPECTOR], f"/registry/devices/{town.shared_device.pk}/")
    assert "Property owner (A2)" in body
    assert f"{escape(owner.name)}</strong> (the property owner)" in body
    assert f"The device serves 2 FSEs on one parcel ({town.owned_parcel.apn})." in body
    assert "official designee, is responsible for its installation and maintenance" in body
    assert "Plaza Pizza" in body and "Plaza Pho" in body


@pytest.mark.provision("A2")
def test_a2_notices_go_to_the_owners_designee_when_named(client, town):
    designee = factories.PartyFactory(name="Plaza Property Management")
    services.parcel_update(
        parcel=town.owned_parcel, acting_user=town.users[Role.FOG_MANAGER], owner_designee=designee
    )
    body = page(client, town.users[Role.PROPERTY_OWNER], f"/registry/devices/{town.shared_device.pk}/")
    assert "Plaza Property Management</strong> (the owner's official designee)" in body


@pytest.mark.provision("A2")
def test_a2_a_device_serving_one_fse_is_that_fses(client, town):
    body = page(client, town.users[Role.FSE], f"/registry/devices/{town.own_device.pk}/")
    assert "The FSE (A3)" in body
    assert "Property owner (A2)" not in body
    assert "Blue Plate Diner</a> (the FSE)" in body


@pytest.mark.provision("A2")
def test_a2_responsibility_shown_with_each_device_on_the_fse_and_parcel_pages(client, town):
    user = town.users[Role.PROPERTY_OWNER]
    assert "Property owner (A2)" in page(client, user, f"/registry/establishments/{town.mall_fses[0].pk}/")
    body = page(client, user, f"/registry/parcels/{town.owned_parcel.pk}/")
    assert "Property owner (A2)" in body
    assert town.shared_device.identifier in body and "Plaza Pho" in body


@pytest.mark.provision("A4")
def test_a4_flags_of_an_interceptor_with_one_compartment_are_shown(client, town):
    device = services.device_create(
        acting_user=town.users[Role.FOG_MANAGER],
        identifier="GI-SMALL",
        kind="gravity_interceptor",
        compartments=1,
        manhole_diameter_in=18,
        total_design_depth_in=40,
        establishments=[town.own_fse],
    )
    user = town.users[Role.FSE]
    for url in (
        f"/registry/devices/{device.pk}/",
        f"/registry/establishments/{town.own_fse.pk}/",
        "/registry/devices/",
    ):
        body = page(client, user, url)
        assert len(device.a4_flags) == 2
        for flag in device.a4_flags:
            assert escape(flag) in body, url
        assert "1 compartment(s); at least 2 required" in body, url
    assert "Below the A4 construction minimums" in page(client, user, f"/registry/devices/{device.pk}/")


@pytest.mark.provision("A4")
def test_a4_minimums_come_from_the_ruleset_in_force(client, town):
    RulesetVersion.objects.create(
        effective_from=town_today(), label="A stricter town", values={"interceptor_min_compartments": 3}
    )
    device = services.device_create(
        acting_user=town.users[Role.FOG_MANAGER],
        identifier="GI-TWO",
        kind="gravity_interceptor",
        compartments=2,
        manhole_diameter_in=24,
        establishments=[town.own_fse],
    )
    body = page(client, town.users[Role.FOG_MANAGER], f"/registry/devices/{device.pk}/")
    assert "A4: 2 compartment(s); at least 3 required" in body


@pytest.mark.provision("A4")
def test_a4_a_compliant_interceptor_says_so(client, town):
    device = services.device_create(
        acting_user=town.users[Role.FOG_MANAGER],
        identifier="GI-GOOD",
        kind="gravity_interceptor",
        compartments=2,
        manhole_diameter_in=24,
        total_design_depth_in=48,
    )
    body = page(client, town.users[Role.FOG_MANAGER], f"/registry/devices/{device.pk}/")
    assert "Meets A4 minimums" in body and "Below the A4" not in body


@pytest.mark.provision("E3")
def test_e3_a_device_without_its_total_design_depth_is_flagged(client, town):
    device = factories.DeviceFactory(total_design_depth_in=None, establishments=[town.own_fse])
    body = page(client, town.users[Role.INSPECTOR], f"/registry/devices/{device.pk}/")
    assert "Total design hydraulic depth not recorded." in body
    assert "25% rule (E3)" in body
    assert "Depth missing (E3)" in page(client, town.users[Role.INSPECTOR], "/registry/devices/")
    body = page(client, town.users[Role.INSPECTOR], f"/registry/devices/{town.own_device.pk}/")
    assert "Total design hydraulic depth not recorded." not in body and "48.00 in" in body


@pytest.mark.provision("E2")
def test_e2_the_device_page_shows_the_default_frequency_until_one_is_assigned(client, town):
    body = page(client, town.users[Role.INSPECTOR], f"/registry/devices/{town.own_device.pk}/")
    assert "Every 90 days (default for this kind, E2)" in body


@pytest.mark.provision("A1")
def test_a1_the_fse_page_shows_its_registry_data(client, town):
    fse = town.own_fse
    body = page(client, town.users[Role.FSE], f"/registry/establishments/{fse.pk}/")
    for text in (
        "Blue Plate Diner",
        fse.licence_number,
        "Jun 30, 2027",
        fse.site_address,
        fse.parcel.apn,
        escape(fse.operator.name),
        fse.operator.mailing_address_line1,
        "Full-service restaurant",
        "Mexican; fried foods",
        "250",
        "Peninsula Pumping",
        town.own_device.identifier,
    ):
        assert text in body, text


def test_staff_see_the_change_history_and_outside_users_do_not(client, town):
    services.establishment_update(
        establishment=town.own_fse, acting_user=town.users[Role.FOG_MANAGER], meals_per_day=300
    )
    url = f"/registry/establishments/{town.own_fse.pk}/"
    body = page(client, town.users[Role.STAFF_READONLY], url)
    assert "Change history" in body
    assert "fog_manager" in body and "establishment.update" in body
    assert (
        '<td data-label="Field">Meals per day</td><td data-label="Before">250</td><td data-label="After">300</td>'
        in body
    )
    assert "Change history" not in page(client, town.users[Role.FSE], url)


def test_device_history_lists_its_creation(client, town):
    device = services.device_create(
        acting_user=town.users[Role.INSPECTOR],
        identifier="GI-NEW",
        kind="other",
        establishments=[town.own_fse],
    )
    body = page(client, town.users[Role.FOG_MANAGER], f"/registry/devices/{device.pk}/")
    assert "device.create" in body and "inspector" in body


def test_the_hauler_page_shows_vehicles_and_customers_only_to_staff(client, town):
    factories.HaulerVehicleFactory(hauler=town.hauler, plate="8TRK001")
    url = f"/registry/haulers/{town.hauler.pk}/"
    body = page(client, town.users[Role.BILLING_CLERK], url)
    assert "8TRK001" in body and "Customers" in body and "Blue Plate Diner" in body
    body = page(client, town.users[Role.HAULER], url)
    assert "8TRK001" in body and "Customers" not in body


def test_the_parcel_page_shows_every_fse_and_device_owner_and_designee(client, town):
    designee = factories.PartyFactory(name="Plaza Management")
    services.parcel_update(
        parcel=town.owned_parcel, acting_user=town.users[Role.FOG_MANAGER], owner_designee=designee
    )
    body = page(client, town.users[Role.FOG_MANAGER], f"/registry/parcels/{town.owned_parcel.pk}/")
    for text in ("Plaza Pizza", "Plaza Pho", town.shared_device.identifier, "Plaza Management"):
        assert text in body
    assert escape(town.owned_parcel.owner.name) in body


def test_the_contact_page_lists_where_the_contact_is_named(client, town):
    body = page(client, town.users[Role.FOG_MANAGER], f"/registry/contacts/{town.own_fse.operator_id}/")
    assert "Operator of" in body and "Blue Plate Diner" in body
