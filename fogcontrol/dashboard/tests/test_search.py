"""One search box: establishments, devices, permits, manifests and parcels, grouped by kind, scoped to
the user, one bounded query per kind; live results for htmx; the same in the API."""

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.testing.factories import EstablishmentFactory
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def _titles(response, kind):
    (group,) = [g for g in response.context["groups"] if g.key == kind]
    return [hit.title for hit in group.hits]


def test_staff_find_each_kind_by_its_identifier(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    name = town.own_fse.business_name
    assert name in _titles(client.get("/dashboard/search/", {"q": name[:6]}), "establishments")
    assert town.own_device.identifier in _titles(
        client.get("/dashboard/search/", {"q": town.own_device.identifier}), "devices"
    )
    apn = town.own_fse.parcel.apn
    assert apn in _titles(client.get("/dashboard/search/", {"q": apn}), "parcels")
    permit = PermitFactory(establishment=town.own_fse)
    assert permit.number in _titles(client.get("/dashboard/search/", {"q": permit.number}), "permits")
    manifest = submit(town.users[Role.HAULER], town.own_device, manifest_number="MX-77123")
    assert manifest.manifest_number in _titles(client.get("/dashboard/search/", {"q": "77123"}), "manifests")


def test_a_user_finds_only_what_it_may_see(client, town):
    client.force_login(town.users[Role.FSE])
    response = client.get("/dashboard/search/", {"q": town.other_fse.business_name})
    assert town.other_fse.business_name not in _titles(response, "establishments")
    body = api_as(town.users[Role.FSE]).get("/api/v1/search/", {"q": town.other_fse.business_name}).json()
    assert all(not group["hits"] for group in body["groups"] if group["key"] == "establishments")


def test_too_short_a_search_is_explained(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.get("/dashboard/search/", {"q": "a"})
    assert response.status_code == 400
    assert "Type at least 2 characters" in response.content.decode()
    answer = api_as(town.users[Role.FOG_MANAGER]).get("/api/v1/search/", {"q": "a"})
    assert answer.status_code == 400 and "at least 2" in str(answer.json()["q"])


def test_live_results_are_the_partial_with_a_link_to_all(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.get(
        "/dashboard/search/", {"q": town.own_fse.business_name, "live": "1"}, headers={"HX-Request": "true"}
    )
    page = response.content.decode()
    assert "<h1>" not in page and "search-live" in page
    assert "All results for" in page


def test_one_bounded_query_per_kind(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])

    def add(count):
        for _ in range(count):
            EstablishmentFactory(business_name="Zanzibar Grill")

    # the Town, the session, the user, and one query per kind (5)
    assert_queries_do_not_grow(
        client, add, {"/dashboard/search/?q=Zanzibar": 8, "/api/v1/search/?q=Zanzibar": 8}, grows=False
    )
