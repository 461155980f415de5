"""Scoping: each role sees exactly its records; anything else does not exist for it."""

import pytest

from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.registry import selectors

pytestmark = pytest.mark.django_db


def names(queryset):
    return sorted(fse.business_name for fse in queryset)


@pytest.mark.parametrize("role", sorted(STAFF_ROLES))
def test_staff_see_the_whole_program(town, role):
    user = town.users[role]
    assert names(selectors.establishment_list(user)) == [
        "Blue Plate Diner",
        "Golden Wok",
        "Plaza Pho",
        "Plaza Pizza",
    ]
    assert selectors.devices_visible_to(user).count() == 3


def test_an_fse_user_sees_only_its_establishment_and_device(town):
    user = town.users[Role.FSE]
    assert names(selectors.establishment_list(user)) == ["Blue Plate Diner"]
    assert list(selectors.devices_visible_to(user)) == [town.own_device]
    with pytest.raises(selectors.FoodServiceEstablishment.DoesNotExist):
        selectors.establishment_detail(user, town.other_fse.pk)


def test_a_property_owner_sees_its_parcel_its_tenants_and_the_shared_device(town):
    user = town.users[Role.PROPERTY_OWNER]
    assert names(selectors.establishment_list(user)) == ["Plaza Pho", "Plaza Pizza"]
    assert list(selectors.devices_visible_to(user)) == [town.shared_device]
    parcel = selectors.parcel_detail(user, town.owned_parcel.pk)
    assert names(parcel.visible_establishments) == ["Plaza Pho", "Plaza Pizza"]
    assert parcel.visible_devices == [town.shared_device]
    with pytest.raises(selectors.Parcel.DoesNotExist):
        selectors.parcel_detail(user, town.own_fse.parcel_id)


def test_a_hauler_sees_its_company_and_its_customers(town):
    user = town.users[Role.HAULER]
    assert names(selectors.establishment_list(user)) == ["Blue Plate Diner"]
    assert list(selectors.devices_visible_to(user)) == [town.own_device]
    assert list(selectors.haulers_visible_to(user)) == [town.hauler]
    assert selectors.parcels_visible_to(user).count() == 0


@pytest.mark.parametrize("role", [Role.FSE, Role.PROPERTY_OWNER, Role.HAULER])
def test_outside_users_never_see_contacts(town, role):
    assert selectors.parties_visible_to(town.users[role]).count() == 0


def test_anonymous_sees_nothing(town):
    from django.contrib.auth.models import AnonymousUser

    anonymous = AnonymousUser()
    assert selectors.establishments_visible_to(anonymous).count() == 0
    assert selectors.devices_visible_to(anonymous).count() == 0


def test_an_fse_bound_to_two_establishments_sees_each_once(town):
    user = town.users[Role.FSE]
    town.other_fse.users.add(user)
    assert names(selectors.establishment_list(user)) == ["Blue Plate Diner", "Golden Wok"]


def test_registry_counts_for_staff(town):
    counts = selectors.registry_counts(town.users[Role.FOG_MANAGER])
    assert counts["establishments_active"] == 4
    assert counts["shared_devices"] == 1
    assert counts["devices"] == 3


@pytest.mark.provision("A2")
def test_a2_the_shared_filter_accepts_1_as_the_home_page_link_sends_it(town):
    from fogcontrol.registry.filters import DeviceFilter

    user = town.users[Role.FOG_MANAGER]
    shared = DeviceFilter({"shared": "1"}, queryset=selectors.device_list(user)).qs
    assert list(shared) == [town.shared_device]
    flagged = DeviceFilter({"flagged": "1"}, queryset=selectors.device_list(user)).qs
    assert list(flagged) == []
