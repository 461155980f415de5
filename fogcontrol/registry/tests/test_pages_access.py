"""Who may open which registry page: every page x every role, from one table.

Anonymous users are sent to sign in. Staff see everything; outside users (FSE, property owner,
hauler) see their own records and get a 404 for anyone else's, and for staff-only pages, so a
record's existence never leaks. Edit pages: the FOG Manager and inspectors; other staff 403.
"""

import dataclasses
from collections.abc import Callable

import pytest

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import REGISTRY_EDITORS, STAFF_ROLES, Role
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany, Parcel, Party
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db

LIST, DETAIL, STAFF_ONLY, EDIT = "list", "detail", "staff only", "edit"


@dataclasses.dataclass(frozen=True)
class Page:
    name: str
    url: Callable
    kind: str
    # Outside roles for which the page's record is their own.
    owners: frozenset = frozenset()

    def __str__(self) -> str:
        return self.name


def _vehicle(town):
    return factories.HaulerVehicleFactory(hauler=town.hauler)


PAGES = [
    Page("establishment list", lambda t: "/registry/establishments/", LIST),
    Page("device list", lambda t: "/registry/devices/", LIST),
    Page("parcel list", lambda t: "/registry/parcels/", LIST),
    Page("hauler list", lambda t: "/registry/haulers/", LIST),
    Page("contact list", lambda t: "/registry/contacts/", STAFF_ONLY),
    Page(
        "own FSE",
        lambda t: f"/registry/establishments/{t.own_fse.pk}/",
        DETAIL,
        frozenset({Role.FSE, Role.HAULER}),
    ),
    Page(
        "FSE in the owner's mall",
        lambda t: f"/registry/establishments/{t.mall_fses[0].pk}/",
        DETAIL,
        frozenset({Role.PROPERTY_OWNER}),
    ),
    Page("someone else's FSE", lambda t: f"/registry/establishments/{t.other_fse.pk}/", DETAIL),
    Page(
        "own device",
        lambda t: f"/registry/devices/{t.own_device.pk}/",
        DETAIL,
        frozenset({Role.FSE, Role.HAULER}),
    ),
    Page(
        "shared device",
        lambda t: f"/registry/devices/{t.shared_device.pk}/",
        DETAIL,
        frozenset({Role.PROPERTY_OWNER}),
    ),
    Page("someone else's device", lambda t: f"/registry/devices/{t.other_device.pk}/", DETAIL),
    Page(
        "own FSE's parcel",
        lambda t: f"/registry/parcels/{t.own_fse.parcel_id}/",
        DETAIL,
        frozenset({Role.FSE}),
    ),
    Page(
        "owned parcel",
        lambda t: f"/registry/parcels/{t.owned_parcel.pk}/",
        DETAIL,
        frozenset({Role.PROPERTY_OWNER}),
    ),
    Page("someone else's parcel", lambda t: f"/registry/parcels/{t.other_fse.parcel_id}/", DETAIL),
    Page(
        "engaged hauler",
        lambda t: f"/registry/haulers/{t.hauler.pk}/",
        DETAIL,
        frozenset({Role.HAULER, Role.FSE}),
    ),
    Page(
        "another hauler",
        lambda t: f"/registry/haulers/{factories.HaulerCompanyFactory().pk}/",
        DETAIL,
    ),
    Page("contact", lambda t: f"/registry/contacts/{t.own_fse.operator_id}/", STAFF_ONLY),
    Page("register an FSE", lambda t: "/registry/establishments/new/", EDIT),
    Page("edit own FSE", lambda t: f"/registry/establishments/{t.own_fse.pk}/edit/", EDIT),
    Page("register a device", lambda t: "/registry/devices/new/", EDIT),
    Page("edit the shared device", lambda t: f"/registry/devices/{t.shared_device.pk}/edit/", EDIT),
    Page("add a parcel", lambda t: "/registry/parcels/new/", EDIT),
    Page("edit the owned parcel", lambda t: f"/registry/parcels/{t.owned_parcel.pk}/edit/", EDIT),
    Page("add a contact", lambda t: "/registry/contacts/new/", EDIT),
    Page("edit a contact", lambda t: f"/registry/contacts/{t.own_fse.operator_id}/edit/", EDIT),
    Page("add a hauler", lambda t: "/registry/haulers/new/", EDIT),
    Page("edit the hauler", lambda t: f"/registry/haulers/{t.hauler.pk}/edit/", EDIT),
    Page("add a vehicle", lambda t: f"/registry/haulers/{t.hauler.pk}/vehicles/new/", EDIT),
    Page(
        "edit a vehicle",
        lambda t: f"/registry/haulers/{t.hauler.pk}/vehicles/{_vehicle(t).pk}/edit/",
        EDIT,
    ),
]


def expected_status(page: Page, role: Role) -> int:
    staff = role in STAFF_ROLES
    if page.kind == LIST:
        return 200
    if page.kind == DETAIL:
        return 200 if staff or role in page.owners else 404
    if page.kind == STAFF_ONLY:
        return 200 if staff else 404
    if role in REGISTRY_EDITORS:
        return 200
    return 403 if staff else 404


@pytest.mark.parametrize("page", PAGES, ids=str)
def test_anonymous_users_are_sent_to_sign_in(client, town, page):
    url = page.url(town)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.parametrize("role", list(Role), ids=str)
@pytest.mark.parametrize("page", PAGES, ids=str)
def test_every_page_for_every_role(client, town, page, role):
    client.force_login(town.users[role])
    response = client.get(page.url(town))
    assert response.status_code == expected_status(page, role), (page.name, role)


# What a POST would change, and the data that would change it: nothing may change for a user who
# may not edit, whatever the page answers.
def _posts(town):
    return [
        (
            "/registry/establishments/new/",
            {"business_name": "Sneaky Snacks", "licence_number": "BL-1", "site_address": "1 A St"},
        ),
        (f"/registry/establishments/{town.own_fse.pk}/edit/", {"business_name": "Renamed"}),
        (f"/registry/establishments/{town.own_fse.pk}/close/", {}),
        (f"/registry/establishments/{town.own_fse.pk}/reopen/", {}),
        ("/registry/devices/new/", {"identifier": "GI-X", "kind": "gravity_interceptor", "status": "active"}),
        (f"/registry/devices/{town.own_device.pk}/edit/", {"identifier": "GI-X"}),
        ("/registry/parcels/new/", {"apn": "999-99-999", "situs_address": "1 B St"}),
        (f"/registry/parcels/{town.owned_parcel.pk}/edit/", {"apn": "999-99-999"}),
        ("/registry/contacts/new/", {"name": "Mallory", "kind": "person"}),
        ("/registry/haulers/new/", {"name": "Fly By Night Pumping"}),
        (f"/registry/haulers/{town.hauler.pk}/edit/", {"name": "Renamed"}),
        (f"/registry/haulers/{town.hauler.pk}/vehicles/new/", {"plate": "8ABC123"}),
    ]


def _state():
    return (
        AuditEntry.objects.count(),
        sorted(FoodServiceEstablishment.objects.values_list("business_name", "status")),
        Parcel.objects.count(),
        Party.objects.count(),
        sorted(HaulerCompany.objects.values_list("name", flat=True)),
    )


@pytest.mark.parametrize("role", sorted((set(Role) - set(REGISTRY_EDITORS)), key=str), ids=str)
def test_users_who_may_not_edit_change_nothing(client, town, role):
    client.force_login(town.users[role])
    before = _state()
    for url, data in _posts(town):
        response = client.post(url, data)
        assert response.status_code == (403 if role in STAFF_ROLES else 404), url
    assert _state() == before
