"""Who may do what in the registry API: every endpoint x every role x own/other record.

A generic, table-driven test (after NetBox's generic API test cases). Each endpoint only supplies
data: a record each outside role is bound to ("own"), a record no outside user is bound to
("other"), and a create and an update payload. The tests then check, for every role:

- anonymous requests are refused (401);
- lists show the records in the user's scope and leave the rest out;
- a record outside the user's scope is not found (404), in reads and writes alike;
- staff who may not edit the registry, and outside users, can read but not write (403), and a
  refused write changes nothing and writes no audit entry;
- a write by the FOG Manager or an inspector succeeds and leaves an audit entry naming them;
- nothing is deleted (405 with a message).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.testing import factories

# Stated here rather than imported, so that a change of policy has to change this test too.
EDITORS = {Role.FOG_MANAGER, Role.INSPECTOR}
STAFF = {Role.FOG_MANAGER, Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY}
OUTSIDE = {Role.FSE, Role.PROPERTY_OWNER, Role.HAULER}


@dataclasses.dataclass(frozen=True)
class Endpoint:
    path: str  # under /api/v1/
    audit_prefix: str  # the audit action is f"{audit_prefix}.create" / ".update"
    own: dict[Role, Callable]  # outside role -> a record that role is bound to
    other: Callable  # a record no outside user is bound to
    create: Callable  # town -> payload
    update: dict | None  # a PATCH payload (one field), None if the endpoint has no update
    outside_refused: bool = False  # outside users are refused outright (403), e.g. parties
    outside_sees_all: bool = False  # every signed-in user sees every record, e.g. facilities

    def __str__(self) -> str:
        return self.path

    def list_url(self) -> str:
        return f"/api/v1/{self.path}/"

    def detail_url(self, record) -> str:
        return f"/api/v1/{self.path}/{record.pk}/"

    def sample(self, town):
        """A record for staff to act on: the first outside role's own record, else `other`."""
        for getter in self.own.values():
            return getter(town)
        return self.other(town)


def _other_hauler(town):
    return factories.HaulerCompanyFactory(name="Far Away Pumping")


def _facility(town):
    return factories.ReceivingFacilityFactory(name="Bayside Rendering")


ENDPOINTS = [
    Endpoint(
        path="establishments",
        audit_prefix="establishment",
        own={
            Role.FSE: lambda t: t.own_fse,
            Role.PROPERTY_OWNER: lambda t: t.mall_fses[0],
            Role.HAULER: lambda t: t.own_fse,
        },
        other=lambda t: t.other_fse,
        create=lambda t: {
            "business_name": "Noodle Bar",
            "licence_number": "BL-NEW-0001",
            "site_address": "9 Elm Street",
            "parcel": t.owned_parcel.pk,
        },
        update={"food_types": "Noodles; broths"},
    ),
    Endpoint(
        path="devices",
        audit_prefix="device",
        own={
            Role.FSE: lambda t: t.own_device,
            Role.PROPERTY_OWNER: lambda t: t.shared_device,
            Role.HAULER: lambda t: t.own_device,
        },
        other=lambda t: t.other_device,
        create=lambda t: {
            "identifier": "GT-NEW-01",
            "kind": "hydromechanical_interceptor",
            "establishments": [t.other_fse.pk],
        },
        update={"location_description": "Under the dish sink"},
    ),
    Endpoint(
        path="parcels",
        audit_prefix="parcel",
        own={Role.FSE: lambda t: t.own_fse.parcel, Role.PROPERTY_OWNER: lambda t: t.owned_parcel},
        other=lambda t: t.other_fse.parcel,
        create=lambda t: {"apn": "999-99-999", "situs_address": "1 New Road"},
        update={"situs_address": "2 Renamed Road"},
    ),
    Endpoint(
        path="parties",
        audit_prefix="party",
        own={},
        other=lambda t: t.other_fse.operator,
        create=lambda t: {"name": "Acme Holdings LLC", "kind": "organisation"},
        update={"phone": "(650) 555-0199"},
        outside_refused=True,
    ),
    Endpoint(
        path="haulers",
        audit_prefix="hauler",
        own={Role.FSE: lambda t: t.hauler, Role.HAULER: lambda t: t.hauler},
        other=_other_hauler,
        create=lambda t: {"name": "New Grease Hauling"},
        update={"phone": "(408) 555-0199"},
    ),
    Endpoint(
        path="facilities",
        audit_prefix="facility",
        own={},
        other=_facility,
        create=lambda t: {"name": "North County Digester"},
        update=None,
        outside_sees_all=True,
    ),
]


def expected_read(endpoint: Endpoint, role: Role, which: str) -> int:
    """The status a GET of one record answers for this role."""
    if role in STAFF or endpoint.outside_sees_all:
        return 200
    if endpoint.outside_refused:
        return 403
    return 200 if which == "own" else 404


def record_for(endpoint: Endpoint, role: Role, which: str, town):
    if which == "other":
        return endpoint.other(town)
    if role in endpoint.own:
        return endpoint.own[role](town)
    return endpoint.sample(town)


def _cases(*, with_update: bool = False):
    """(endpoint, role, which) for every pairing that exists in the small town."""
    for endpoint in ENDPOINTS:
        if with_update and endpoint.update is None:
            continue
        for role in Role:
            for which in ("own", "other"):
                has_own = role in STAFF or role in endpoint.own or endpoint.outside_sees_all
                if which == "own" and not has_own and not endpoint.outside_refused:
                    continue  # this outside role is bound to no such record in the small town
                yield pytest.param(endpoint, role, which, id=f"{endpoint}-{role.value}-{which}")


def _ids(response) -> set[int]:
    return {row["id"] for row in response.json()["results"]}


# --- Anonymous ----------------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize("method", ["list", "detail", "create", "update"])
def test_anonymous_requests_are_refused(town, endpoint, method):
    client = APIClient()
    record = endpoint.other(town)
    if method == "list":
        response = client.get(endpoint.list_url())
    elif method == "detail":
        response = client.get(endpoint.detail_url(record))
    elif method == "create":
        response = client.post(endpoint.list_url(), endpoint.create(town), format="json")
    else:
        response = client.patch(endpoint.detail_url(record), endpoint.update or {}, format="json")
    assert response.status_code == 401
    assert not AuditEntry.objects.exists()


# --- Reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
def test_list_shows_only_the_users_scope(town, endpoint, role):
    other = endpoint.other(town)
    response = api_as(town.users[role]).get(endpoint.list_url(), {"page_size": 500})
    if role in OUTSIDE and endpoint.outside_refused:
        assert response.status_code == 403
        return
    assert response.status_code == 200
    ids = _ids(response)
    if role in endpoint.own:
        assert endpoint.own[role](town).pk in ids
    if role in STAFF or endpoint.outside_sees_all:
        assert other.pk in ids
    else:
        assert other.pk not in ids


@pytest.mark.parametrize("endpoint, role, which", list(_cases()))
def test_reading_one_record(town, endpoint, role, which):
    record = record_for(endpoint, role, which, town)
    response = api_as(town.users[role]).get(endpoint.detail_url(record))
    assert response.status_code == expected_read(endpoint, role, which)
    if response.status_code == 200:
        assert response.json()["id"] == record.pk


# --- Writing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
def test_create(town, endpoint, role):
    user = town.users[role]
    model = type(endpoint.other(town))
    count_before = model.objects.count()
    response = api_as(user).post(endpoint.list_url(), endpoint.create(town), format="json")
    if role in EDITORS:
        assert response.status_code == 201, response.json()
        record = model.objects.get(pk=response.json()["id"])
        entry = AuditEntry.objects.get(action=f"{endpoint.audit_prefix}.create", object_id=str(record.pk))
        assert entry.actor == user
        assert entry.after is not None
    else:
        assert response.status_code == 403
        assert model.objects.count() == count_before
        assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("endpoint, role, which", list(_cases(with_update=True)))
def test_update(town, endpoint, role, which):
    user = town.users[role]
    record = record_for(endpoint, role, which, town)
    (field, value), *_ = endpoint.update.items()
    response = api_as(user).patch(endpoint.detail_url(record), endpoint.update, format="json")
    record.refresh_from_db()
    readable = expected_read(endpoint, role, which)
    if readable != 200:
        assert response.status_code == readable  # 404 outside the scope; 403 if refused outright
    elif role in EDITORS:
        assert response.status_code == 200, response.json()
        assert response.json()[field] == value
        assert getattr(record, field) == value
        entry = AuditEntry.objects.get(action=f"{endpoint.audit_prefix}.update", object_id=str(record.pk))
        assert entry.actor == user
        assert entry.before[field] != value and entry.after[field] == value
        return
    else:
        assert response.status_code == 403
        assert "FOG Manager" in response.json()["detail"]
    assert getattr(record, field) != value
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize("role", sorted(EDITORS | {Role.FSE, Role.STAFF_READONLY}), ids=lambda r: r.value)
def test_nothing_is_deleted(town, endpoint, role):
    record = record_for(endpoint, role, "own", town)
    model = type(record)
    response = api_as(town.users[role]).delete(endpoint.detail_url(record))
    if role in OUTSIDE and endpoint.outside_refused:
        assert response.status_code == 403
    else:
        assert response.status_code == 405
        assert "not deleted" in response.json()["detail"] or "never deleted" in response.json()["detail"]
    assert model.objects.filter(pk=record.pk).exists()


# --- Vehicles, nested under their hauler --------------------------------------------------------


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
def test_hauler_vehicles_follow_the_haulers_scope(town, role):
    factories.HaulerVehicleFactory(hauler=town.hauler, plate="8TRK001")
    other = _other_hauler(town)
    client = api_as(town.users[role])

    own_list = client.get(f"/api/v1/haulers/{town.hauler.pk}/vehicles/")
    other_list = client.get(f"/api/v1/haulers/{other.pk}/vehicles/")
    posted = client.post(f"/api/v1/haulers/{other.pk}/vehicles/", {"plate": "7NEW123"}, format="json")

    sees_own = role in STAFF or role in {Role.FSE, Role.HAULER}
    assert own_list.status_code == (200 if sees_own else 404)
    if sees_own:
        assert [v["plate"] for v in own_list.json()] == ["8TRK001"]
    assert other_list.status_code == (200 if role in STAFF else 404)
    if role in EDITORS:
        assert posted.status_code == 201
        entry = AuditEntry.objects.get(action="vehicle.create")
        assert entry.actor == town.users[role]
        assert other.vehicles.get().plate == "7NEW123"
    else:
        assert posted.status_code == (403 if role in STAFF else 404)
        assert not other.vehicles.exists()
        assert not AuditEntry.objects.exists()
