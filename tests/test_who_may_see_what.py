"""Who may see what: pages and API give one answer per model (issue #9; docs/architecture.md).

Each test here failed before the decision was made once, in `Model.objects.visible_to`.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import OUTSIDE_ROLES, STAFF_ROLES, Role
from fogcontrol.permits.tests.factories import PermitFactory, fee_schedule

ALL_ROLES = sorted(Role)


def page_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def links(response) -> set[str]:
    return set(re.findall(r'href="(/[^"#?]*)', response.content.decode()))


# --- Fee schedules: a public Council resolution ------------------------------------------------


@pytest.mark.parametrize("role", ALL_ROLES)
def test_every_signed_in_user_reads_the_fee_schedule_in_pages_and_api_alike(town, role):
    fee_schedule()
    user = town.users[role]

    page = page_as(user).get("/permits/fees/")
    api = api_as(user).get("/api/v1/fee-schedules/")

    assert (page.status_code, api.status_code) == (200, 200)
    assert "Resolution 2023-14" in page.content.decode()
    assert api.json()["results"][0]["label"] == "Resolution 2023-14"


@pytest.mark.parametrize("role", [r for r in ALL_ROLES if r != Role.FOG_MANAGER])
def test_only_the_fog_manager_records_a_fee_schedule(town, role):
    user = town.users[role]
    body = {"effective_from": "2027-01-01", "label": "Resolution 2026-40", "amounts": {}}

    assert api_as(user).post("/api/v1/fee-schedules/", body, format="json").status_code == 403
    page = page_as(user).get("/permits/fees/")
    assert "Record a new version" not in page.content.decode()


def test_anonymous_visitors_see_no_fee_schedule(client, db):
    assert client.get("/permits/fees/").status_code == 302
    assert Client().get("/api/v1/fee-schedules/").status_code in (401, 403)


# --- The rules calculator: public law --------------------------------------------------------


@pytest.mark.parametrize("role", ALL_ROLES)
def test_the_calculator_page_and_api_agree_for_every_role(town, role):
    user = town.users[role]

    page = page_as(user).get("/rules/", {"provision": "L2", "start": "2026-06-18"})
    api = api_as(user).get("/api/v1/rules/deadlines/L2/", {"start": "2026-06-18"})

    assert (page.status_code, api.status_code) == (200, 200)


def test_the_calculator_asks_anonymous_visitors_to_sign_in(client, db):
    assert client.get("/rules/").status_code == 302
    assert client.get("/api/v1/rules/deadlines/L2/", {"start": "2026-06-18"}).status_code in (401, 403)


# --- Filters never tell which records exist ---------------------------------------------------

NO_SUCH_ID = 987654


@pytest.mark.parametrize(
    ("path", "parameter", "record"),
    [
        ("/api/v1/fee-charges/", "establishment", "other_fse"),
        ("/api/v1/permit-notices/", "establishment", "other_fse"),
        ("/api/v1/permit-notices/", "permit", "other_permit"),
        ("/api/v1/permit-modifications/", "permit", "other_permit"),
        ("/api/v1/fee-charges/", "application", None),
    ],
)
def test_a_filter_on_another_fse_record_answers_as_for_one_that_does_not_exist(town, path, parameter, record):
    other_permit = PermitFactory(establishment=town.other_fse)
    others = {"other_fse": town.other_fse.pk, "other_permit": other_permit.pk, None: NO_SUCH_ID - 1}
    client = api_as(town.users[Role.FSE])

    outside = client.get(path, {parameter: others[record]})
    missing = client.get(path, {parameter: NO_SUCH_ID})

    assert outside.status_code == missing.status_code == 400
    assert outside.json() == missing.json()
    assert parameter in outside.json()


def test_a_filter_on_an_own_record_still_works(town):
    own_permit = PermitFactory(establishment=town.own_fse)
    client = api_as(town.users[Role.FSE])

    assert client.get("/api/v1/permit-notices/", {"establishment": town.own_fse.pk}).status_code == 200
    assert client.get("/api/v1/permit-modifications/", {"permit": own_permit.pk}).status_code == 200
    assert client.get("/api/v1/fee-charges/", {"establishment": "9" * 30}).status_code == 400


# --- Links and buttons only where the user may follow them ------------------------------------


def test_the_hauler_sees_no_link_to_a_parcel_or_hauler_page_it_may_not_open(town):
    hauler_user = town.users[Role.HAULER]
    rival = town.own_fse.haulers.create(
        name="Coastal Environmental Services", state_registration_number="LWH-1"
    )
    client = page_as(hauler_user)

    for page in (
        f"/registry/establishments/{town.own_fse.pk}/",
        "/registry/establishments/",
        f"/registry/devices/{town.own_device.pk}/",
    ):
        response = client.get(page)
        assert response.status_code == 200
        shown = links(response)
        assert f"/registry/parcels/{town.own_fse.parcel_id}/" not in shown
        assert f"/registry/haulers/{rival.pk}/" not in shown
        assert town.own_fse.parcel.apn in response.content.decode()  # named, as plain text
        for href in shown:
            if href.startswith("/registry/") and href.rstrip("/").split("/")[-1].isdigit():
                assert client.get(href).status_code == 200, f"{page} links to {href}, which is not found"


def test_the_hauler_still_links_to_its_own_company(town):
    response = page_as(town.users[Role.HAULER]).get(f"/registry/establishments/{town.own_fse.pk}/")

    assert f"/registry/haulers/{town.hauler.pk}/" in links(response)


def test_an_fse_still_links_to_its_own_parcel(town):
    response = page_as(town.users[Role.FSE]).get(f"/registry/establishments/{town.own_fse.pk}/")

    assert f"/registry/parcels/{town.own_fse.parcel_id}/" in links(response)


READ_ONLY_STAFF = [Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY]


@pytest.mark.parametrize("role", READ_ONLY_STAFF)
@pytest.mark.parametrize("page", ["/servicing/", "/servicing/manifests/", "/servicing/requirements/"])
def test_read_only_staff_see_no_submit_or_upload_button_they_could_not_use(town, role, page):
    client = page_as(town.users[role])

    shown = links(client.get(page))

    assert "/servicing/manifests/new/" not in shown
    assert "/servicing/imports/" not in shown
    assert client.get("/servicing/manifests/new/").status_code == 403
    assert client.get("/servicing/imports/").status_code == 403


@pytest.mark.parametrize("role", [Role.FOG_MANAGER, Role.INSPECTOR, Role.HAULER, Role.FSE])
def test_those_who_may_submit_manifests_are_offered_the_buttons(town, role):
    shown = links(page_as(town.users[role]).get("/servicing/manifests/"))

    assert "/servicing/manifests/new/" in shown
    assert "/servicing/imports/" in shown


def test_staff_and_outside_roles_cover_every_role():
    assert STAFF_ROLES | OUTSIDE_ROLES == set(Role)
