"""The registry lists: filters that keep their URL, live search (htmx), paging, and a fixed
number of queries whatever the number of rows."""

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.registry import services
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db

PAGES = ["/registry/establishments/", "/registry/devices/", "/registry/parcels/", "/registry/haulers/"]


def _names(response) -> list[str]:
    return [fse.business_name for fse in response.context["rows"]]


def _identifiers(response) -> list[str]:
    return [device.identifier for device in response.context["rows"]]


@pytest.mark.parametrize(
    "role, expected",
    [
        # Session, user, Town profile, count, rows, then the prefetches each list shows
        # (the establishments served by each device).
        (Role.FOG_MANAGER, {**dict.fromkeys(PAGES, 5), "/registry/devices/": 6, "/registry/contacts/": 5}),
        # An outside user's establishment list adds one scope look-up (core/scoping.py).
        (
            Role.PROPERTY_OWNER,
            {**dict.fromkeys(PAGES, 5), "/registry/establishments/": 6, "/registry/devices/": 6},
        ),
        (Role.FSE, {**dict.fromkeys(PAGES, 5), "/registry/establishments/": 6, "/registry/devices/": 6}),
    ],
    ids=["fog_manager", "property_owner", "fse"],
)
def test_registry_lists_take_the_same_exact_queries_for_few_rows_and_many(client, town, role, expected):
    user = town.users[role]
    client.force_login(user)
    responses = assert_queries_do_not_grow(
        client, lambda count: add_registry_rows(town, count, bound_user=user), expected
    )
    establishments = responses["/registry/establishments/"][1]
    assert len(establishments.context["rows"]) == len(set(_names(establishments)))


@pytest.mark.parametrize("role, expected", [(Role.FOG_MANAGER, 5), (Role.PROPERTY_OWNER, 6)])
def test_establishment_list_runs_the_same_exact_queries_filtered_and_full(client, town, role, expected):
    """`?status=active`, 3 rows and then 30 (a full first page of 25)."""

    def add_rows(count):
        for _ in range(count):
            fse = factories.EstablishmentFactory(parcel=town.owned_parcel)
            factories.DeviceFactory(establishments=[fse], parcel=town.owned_parcel)

    client.force_login(town.users[role])
    url = "/registry/establishments/"
    few, many = assert_queries_do_not_grow(
        client, add_rows, {url: expected}, small=3, large=30, data={"status": "active"}
    )[url]
    visible = 2 + (2 if role == Role.FOG_MANAGER else 0)
    assert len(few.context["rows"]) == 3 + visible
    assert len(many.context["rows"]) == min(30 + visible, 25)


@pytest.mark.parametrize("role, expected", [(Role.FOG_MANAGER, 6), (Role.PROPERTY_OWNER, 6)])
def test_device_list_runs_the_same_exact_queries_for_shared_devices(client, town, role, expected):
    """Devices serving two establishments each (A2), 3 and then 30 (a full first page)."""

    def add_rows(count):
        for _ in range(count):
            served = factories.EstablishmentFactory.create_batch(2, parcel=town.owned_parcel)
            factories.DeviceFactory(establishments=served, parcel=town.owned_parcel)

    client.force_login(town.users[role])
    url = "/registry/devices/"
    few, many = assert_queries_do_not_grow(client, add_rows, {url: expected}, small=3, large=30)[url]
    visible = 3 if role == Role.FOG_MANAGER else 1
    assert len(few.context["rows"]) == 3 + visible
    assert len(many.context["rows"]) == min(30 + visible, 25)


def test_an_fse_user_lists_only_its_own_establishment(client, town):
    client.force_login(town.users[Role.FSE])
    response = client.get("/registry/establishments/")
    assert _names(response) == ["Blue Plate Diner"]
    assert "Golden Wok" not in response.content.decode()


def test_the_home_page_tiles_lead_to_filtered_lists(client, town):
    """`?status=active`, `?shared=1`, `?flagged=1` as the home page links them."""
    services.device_create(
        acting_user=town.users[Role.FOG_MANAGER],
        identifier="GI-ONE",
        kind="gravity_interceptor",
        compartments=1,
        manhole_diameter_in=24,
        establishments=[town.own_fse],
    )
    closed = factories.EstablishmentFactory(business_name="Shut Shop")
    services.establishment_close(establishment=closed, acting_user=town.users[Role.FOG_MANAGER])
    client.force_login(town.users[Role.FOG_MANAGER])

    active = _names(client.get("/registry/establishments/?status=active"))
    assert "Shut Shop" not in active and "Blue Plate Diner" in active
    assert _names(client.get("/registry/establishments/?status=closed")) == ["Shut Shop"]
    assert _identifiers(client.get("/registry/devices/?shared=1")) == [town.shared_device.identifier]
    assert town.shared_device.identifier not in _identifiers(client.get("/registry/devices/?shared=0"))
    assert _identifiers(client.get("/registry/devices/?flagged=1")) == ["GI-ONE"]
    assert _identifiers(client.get("/registry/devices/?flagged=true")) == ["GI-ONE"]
    assert client.get("/registry/haulers/").status_code == 200


def test_establishments_filter_by_category_parcel_and_device(client, town):
    bakery = factories.EstablishmentFactory(
        business_name="Crumbs", category=FoodServiceEstablishment.Category.CAFE_BAKERY
    )
    client.force_login(town.users[Role.INSPECTOR])
    assert _names(client.get("/registry/establishments/?category=cafe_bakery")) == ["Crumbs"]
    assert _names(client.get(f"/registry/establishments/?parcel={town.owned_parcel.pk}")) == [
        "Plaza Pho",
        "Plaza Pizza",
    ]
    assert _names(client.get(f"/registry/establishments/?apn={town.owned_parcel.apn}")) == [
        "Plaza Pho",
        "Plaza Pizza",
    ]
    assert _names(client.get("/registry/establishments/?has_device=0")) == [bakery.business_name]
    assert "Crumbs" not in _names(client.get("/registry/establishments/?has_device=1"))


def test_search_finds_by_name_licence_address_or_parcel(client, town):
    client.force_login(town.users[Role.STAFF_READONLY])
    assert _names(client.get("/registry/establishments/?q=plate")) == ["Blue Plate Diner"]
    assert _names(client.get(f"/registry/establishments/?q={town.other_fse.licence_number}")) == [
        "Golden Wok"
    ]
    assert _names(client.get("/registry/establishments/?q=nothing-like-this")) == []


def test_live_search_swaps_only_the_results_table(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.get("/registry/establishments/?q=wok", headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="results"')
    assert "<html" not in body and "Golden Wok" in body and "Blue Plate Diner" not in body
    assert "HX-Request" in response["Vary"]


def test_the_search_box_is_live(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    body = client.get("/registry/establishments/").content.decode()
    assert 'hx-trigger="input changed delay:300ms, search"' in body
    assert 'hx-push-url="true"' in body and 'hx-target="#results"' in body


def test_back_button_history_restore_gets_the_whole_page(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.get(
        "/registry/establishments/?q=wok",
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.content.decode()


def test_paging_keeps_the_filters_in_the_links(client, town):
    factories.EstablishmentFactory.create_batch(30, business_name="Taco Stand")
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.get("/registry/establishments/?q=taco&status=active")
    body = response.content.decode()
    assert "Page 1 of 2" in body
    assert "?q=taco&amp;status=active&amp;page=2" in body
    second = client.get("/registry/establishments/?q=taco&status=active&page=2")
    assert len(second.context["rows"]) == 5


def test_a_bad_filter_value_says_so_and_never_fails(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.get("/registry/establishments/?status=bogus&parcel=abc&page=zzz")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


def test_outside_users_do_not_see_the_contacts_list(client, town):
    client.force_login(town.users[Role.HAULER])
    assert client.get("/registry/contacts/").status_code == 404
