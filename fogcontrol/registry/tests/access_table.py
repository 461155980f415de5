"""Who may open and change what in the registry: every page and API route × every role.

Anonymous users are sent to sign in (pages) or refused (API, 401). Staff see everything; outside
users (FSE, property owner, hauler) see their own records and get a 404 for anyone else's, and for
staff-only pages, so a record's existence never leaks. Writes: the FOG Manager and inspectors;
other staff 403; outside users 403 through the API (404 on a record they cannot see) and 404 on
the edit pages. Contacts hold personal data: the API refuses outside users outright (403).
Receiving facilities are seen by every signed-in user. Nothing is deleted (405).

Run by registry/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.registry.imports import services as import_services
from fogcontrol.registry.imports.testing import HEADER, csv_upload
from fogcontrol.testing import factories
from fogcontrol.testing.access import ALL_ROLES, OUTSIDE, STAFF, api, page

# Stated here rather than imported, so that a change of policy has to change this table too.
EDITORS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
FSE, OWNER, HAULER = Role.FSE, Role.PROPERTY_OWNER, Role.HAULER


def build(town) -> None:
    """A vehicle, a hauler no one is bound to, a facility and a licence import."""
    town.records["vehicle"] = factories.HaulerVehicleFactory(hauler=town.hauler, plate="8TRK001")
    town.records["other_hauler"] = factories.HaulerCompanyFactory(name="Far Away Pumping")
    town.records["facility"] = factories.ReceivingFacilityFactory(name="Bayside Rendering")
    table = [HEADER, ["TL-1", "Diner 1", "1 Main St", "6/30/2027", "", ""]]
    town.records["import"] = import_services.licence_import_upload(
        acting_user=town.users[Role.FOG_MANAGER], uploaded_file=csv_upload(table)
    )


# --- Pages --------------------------------------------------------------------------------------


def _detail(name, url, owners=frozenset(), label=""):
    return page(f"registry:{name}", url, owners=frozenset(owners), label=label)


def _edit(name, url, label="", method="get", body=None):
    """Edit pages and their POSTs: editors; other staff 403; outside users 404."""
    return page(f"registry:{name}", url, may=EDITORS, scope=STAFF, label=label, method=method, body=body)


PAGES = [
    page("registry:establishment_list", "/registry/establishments/", record=False),
    page("registry:device_list", "/registry/devices/", record=False),
    page("registry:parcel_list", "/registry/parcels/", record=False),
    page("registry:hauler_list", "/registry/haulers/", record=False),
    page("registry:party_list", "/registry/contacts/", scope=STAFF),
    _detail(
        "establishment_detail",
        lambda t: f"/registry/establishments/{t.own_fse.pk}/",
        {FSE, HAULER},
        "own FSE",
    ),
    _detail(
        "establishment_detail",
        lambda t: f"/registry/establishments/{t.mall_fses[0].pk}/",
        {OWNER},
        "FSE in the owner's mall",
    ),
    _detail(
        "establishment_detail", lambda t: f"/registry/establishments/{t.other_fse.pk}/", label="other FSE"
    ),
    _detail("device_detail", lambda t: f"/registry/devices/{t.own_device.pk}/", {FSE, HAULER}, "own device"),
    _detail("device_detail", lambda t: f"/registry/devices/{t.shared_device.pk}/", {OWNER}, "shared device"),
    _detail("device_detail", lambda t: f"/registry/devices/{t.other_device.pk}/", label="other device"),
    _detail(
        "parcel_detail", lambda t: f"/registry/parcels/{t.own_fse.parcel_id}/", {FSE}, "own FSE's parcel"
    ),
    _detail("parcel_detail", lambda t: f"/registry/parcels/{t.owned_parcel.pk}/", {OWNER}, "owned parcel"),
    _detail("parcel_detail", lambda t: f"/registry/parcels/{t.other_fse.parcel_id}/", label="other parcel"),
    _detail("hauler_detail", lambda t: f"/registry/haulers/{t.hauler.pk}/", {HAULER, FSE}, "engaged hauler"),
    _detail("hauler_detail", lambda t: f"/registry/haulers/{t['other_hauler'].pk}/", label="another hauler"),
    page("registry:party_detail", lambda t: f"/registry/contacts/{t.own_fse.operator_id}/", scope=STAFF),
    _edit("establishment_create", "/registry/establishments/new/"),
    _edit("establishment_edit", lambda t: f"/registry/establishments/{t.own_fse.pk}/edit/"),
    _edit("device_create", "/registry/devices/new/"),
    _edit("device_edit", lambda t: f"/registry/devices/{t.shared_device.pk}/edit/"),
    _edit("parcel_create", "/registry/parcels/new/"),
    _edit("parcel_edit", lambda t: f"/registry/parcels/{t.owned_parcel.pk}/edit/"),
    _edit("party_create", "/registry/contacts/new/"),
    _edit("party_edit", lambda t: f"/registry/contacts/{t.own_fse.operator_id}/edit/"),
    _edit("hauler_create", "/registry/haulers/new/"),
    _edit("hauler_edit", lambda t: f"/registry/haulers/{t.hauler.pk}/edit/"),
    _edit("vehicle_create", lambda t: f"/registry/haulers/{t.hauler.pk}/vehicles/new/"),
    _edit("vehicle_edit", lambda t: f"/registry/haulers/{t.hauler.pk}/vehicles/{t['vehicle'].pk}/edit/"),
]

# What a POST would change, and the data that would change it: nothing may change for a user who
# may not edit, whatever the page answers (test_access.py also compares the registry before/after).
POSTS = [
    _edit(
        "establishment_create",
        "/registry/establishments/new/",
        method="post",
        body={"business_name": "Sneaky Snacks", "licence_number": "BL-1", "site_address": "1 A St"},
    ),
    _edit(
        "establishment_edit",
        lambda t: f"/registry/establishments/{t.own_fse.pk}/edit/",
        method="post",
        body={"business_name": "Renamed"},
    ),
    _edit("establishment_close", lambda t: f"/registry/establishments/{t.own_fse.pk}/close/", method="post"),
    _edit(
        "establishment_reopen", lambda t: f"/registry/establishments/{t.own_fse.pk}/reopen/", method="post"
    ),
    _edit(
        "device_create",
        "/registry/devices/new/",
        method="post",
        body={"identifier": "GI-X", "kind": "gravity_interceptor", "status": "active"},
    ),
    _edit(
        "device_edit",
        lambda t: f"/registry/devices/{t.own_device.pk}/edit/",
        method="post",
        body={"identifier": "GI-X"},
    ),
    _edit(
        "parcel_create",
        "/registry/parcels/new/",
        method="post",
        body={"apn": "999-99-999", "situs_address": "1 B St"},
    ),
    _edit(
        "parcel_edit",
        lambda t: f"/registry/parcels/{t.owned_parcel.pk}/edit/",
        method="post",
        body={"apn": "999-99-999"},
    ),
    _edit(
        "party_create", "/registry/contacts/new/", method="post", body={"name": "Mallory", "kind": "person"}
    ),
    _edit("hauler_create", "/registry/haulers/new/", method="post", body={"name": "Fly By Night Pumping"}),
    _edit(
        "hauler_edit",
        lambda t: f"/registry/haulers/{t.hauler.pk}/edit/",
        method="post",
        body={"name": "Renamed"},
    ),
    _edit(
        "vehicle_create",
        lambda t: f"/registry/haulers/{t.hauler.pk}/vehicles/new/",
        method="post",
        body={"plate": "8ABC123"},
    ),
]

# The licence import: staff see it, editors upload and map, the FOG Manager applies; outside
# users are told it does not exist.
IMPORT_PAGES = [
    page("imports:list", "/registry/imports/", scope=STAFF),
    page("imports:upload", "/registry/imports/new/", scope=STAFF, may=EDITORS),
    page(
        "imports:upload",
        "/registry/imports/new/",
        scope=STAFF,
        may=EDITORS,
        method="post",
        body={"file": SimpleUploadedFile("x.pdf", b"%PDF", "application/pdf")},
        ok=400,
        label="a wrong file",
    ),
    page("imports:detail", lambda t: f"/registry/imports/{t['import'].pk}/"),
    page("imports:mapping", lambda t: f"/registry/imports/{t['import'].pk}/mapping/", may=EDITORS),
    page("imports:status", lambda t: f"/registry/imports/{t['import'].pk}/status/"),
    page("imports:report_csv", lambda t: f"/registry/imports/{t['import'].pk}/report.csv"),
    page(
        "imports:apply",
        lambda t: f"/registry/imports/{t['import'].pk}/apply/",
        method="post",
        may=frozenset({Role.FOG_MANAGER}),
    ),
]


# --- API ----------------------------------------------------------------------------------------


def _ids(response) -> set[int]:
    return {row["id"] for row in response.json()["results"]}


def _list_shows(own: dict, other, *, everyone_sees_all=False):
    """A list's check: the role's own record is in it; the record no one is bound to only for
    staff (or for everyone, where everyone sees every record)."""

    def check(response, town, role):
        if response.status_code != 200:
            return
        ids = _ids(response)
        if role in own:
            assert own[role](town).pk in ids
        if role in STAFF or everyone_sees_all:
            assert other(town).pk in ids
        else:
            assert other(town).pk not in ids

    return check


def _reads(record):
    def check(response, town, role):
        if response.status_code == 200:
            assert response.json()["id"] == record(town).pk

    return check


def _created(model_of, audit_prefix, create):
    def check(response, town, role):
        payload = create(town) if callable(create) else create
        (field, value), *_ = payload.items()
        if response.status_code != 201:
            assert not model_of(town).objects.filter(**{field: value}).exists()
            return
        record = model_of(town).objects.get(pk=response.json()["id"])
        entry = AuditEntry.objects.get(action=f"{audit_prefix}.create", object_id=str(record.pk))
        assert entry.actor == town.users[role]
        assert entry.after is not None

    return check


def _updated(record, audit_prefix, field, value):
    def check(response, town, role):
        instance = record(town)
        instance.refresh_from_db()
        if response.status_code == 200:
            assert response.json()[field] == value
            assert getattr(instance, field) == value
            entry = AuditEntry.objects.get(action=f"{audit_prefix}.update", object_id=str(instance.pk))
            assert entry.actor == town.users[role]
            assert entry.before[field] != value and entry.after[field] == value
            return
        if response.status_code == 403 and role in STAFF:
            assert "FOG Manager" in response.json()["detail"]
        assert getattr(instance, field) != value

    return check


def _not_deleted(record):
    def check(response, town, role):
        instance = record(town)
        assert type(instance).objects.filter(pk=instance.pk).exists()
        if response.status_code == 405:
            detail = response.json()["detail"]
            assert "not deleted" in detail or "never deleted" in detail

    return check


def _endpoint(
    path, audit_prefix, own_records, other, create, update, *, outside_refused=False, everyone_sees_all=False
):
    """Every route of one registry viewset: the list, one record per binding (own and other),
    create, update and delete; `own_records` is [(record, owner roles)], `other` a record no
    outside user is bound to."""
    name = {"establishments": "establishment", "devices": "device", "parcels": "parcel", "parties": "party",
            "haulers": "hauler", "facilities": "facility"}[path]  # fmt: skip
    own_by_role = {role: record for record, owners in own_records for role in owners}
    outside_status = {role: 403 for role in OUTSIDE} if outside_refused else {}
    every = {"scope": ALL_ROLES} if everyone_sees_all else {}
    routes = [
        api(
            f"{name}-list",
            f"/api/v1/{path}/?page_size=500",
            record=False,
            special=outside_status,
            check=_list_shows(own_by_role, other, everyone_sees_all=everyone_sees_all),
        ),
        api(
            f"{name}-list",
            f"/api/v1/{path}/",
            method="post",
            record=False,
            body=create,
            may=EDITORS,
            ok=201,
            label="create",
            check=_created(lambda t: type(other(t)), audit_prefix, create),
        ),
    ]
    for record, owners in [*own_records, (other, ())]:
        label = "other" if record is other else f"of {'/'.join(sorted(r.value for r in owners))}"
        url = (lambda rec: lambda t: f"/api/v1/{path}/{rec(t).pk}/")(record)
        routes.append(
            api(
                f"{name}-detail",
                url,
                owners=frozenset(owners),
                special=outside_status,
                label=label,
                check=_reads(record),
                **every,
            )  # fmt: skip
        )
        if update is not None:
            (field, value), *_ = update.items()
            routes.append(
                api(
                    f"{name}-detail",
                    url,
                    method="patch",
                    body=update,
                    owners=frozenset(owners),
                    may=EDITORS,
                    ok=200,
                    special=outside_status,
                    label=f"update {label}",
                    check=_updated(record, audit_prefix, field, value),
                    **every,
                )  # fmt: skip
            )
    sample = own_records[0][0] if own_records else other
    routes.append(
        api(
            f"{name}-detail",
            lambda t: f"/api/v1/{path}/{sample(t).pk}/",
            method="delete",
            owners=frozenset(own_records[0][1]) if own_records else frozenset(),
            scope=ALL_ROLES,
            ok=405,
            refused=405,
            special=outside_status,
            label="delete",
            check=_not_deleted(sample),
        )  # fmt: skip
    )
    return routes


def _other_hauler(town):
    return town["other_hauler"]


API_ROUTES = [
    *_endpoint(
        "establishments",
        "establishment",
        [(lambda t: t.own_fse, {FSE, HAULER}), (lambda t: t.mall_fses[0], {OWNER})],
        lambda t: t.other_fse,
        lambda t: {
            "business_name": "Noodle Bar",
            "licence_number": "BL-NEW-0001",
            "site_address": "9 Elm Street",
            "parcel": t.owned_parcel.pk,
        },
        {"food_types": "Noodles; broths"},
    ),
    api(
        "establishment-close",
        lambda t: f"/api/v1/establishments/{t.own_fse.pk}/close/",
        method="post",
        owners=frozenset({FSE, HAULER}),
        may=EDITORS,
        body={},
    ),  # fmt: skip
    *_endpoint(
        "devices",
        "device",
        [(lambda t: t.own_device, {FSE, HAULER}), (lambda t: t.shared_device, {OWNER})],
        lambda t: t.other_device,
        lambda t: {
            "identifier": "GT-NEW-01",
            "kind": "hydromechanical_interceptor",
            "establishments": [t.other_fse.pk],
        },
        {"location_description": "Under the dish sink"},
    ),
    *_endpoint(
        "parcels",
        "parcel",
        [(lambda t: t.own_fse.parcel, {FSE}), (lambda t: t.owned_parcel, {OWNER})],
        lambda t: t.other_fse.parcel,
        {"apn": "999-99-999", "situs_address": "1 New Road"},
        {"situs_address": "2 Renamed Road"},
    ),
    *_endpoint(
        "parties",
        "party",
        [],
        lambda t: t.other_fse.operator,
        {"name": "Acme Holdings LLC", "kind": "organisation"},
        {"phone": "(650) 555-0199"},
        outside_refused=True,
    ),
    *_endpoint(
        "haulers",
        "hauler",
        [(lambda t: t.hauler, {FSE, HAULER})],
        _other_hauler,
        {"name": "New Grease Hauling"},
        {"phone": "(408) 555-0199"},
    ),
    *_endpoint(
        "facilities",
        "facility",
        [],
        lambda t: t["facility"],
        {"name": "North County Digester"},
        None,
        everyone_sees_all=True,
    ),
]


def _vehicles_are(plates):
    def check(response, town, role):
        if response.status_code == 200:
            assert [v["plate"] for v in response.json()] == plates

    return check


def _vehicle_added(response, town, role):
    other = town["other_hauler"]
    if response.status_code == 201:
        assert AuditEntry.objects.get(action="vehicle.create").actor == town.users[role]
        assert other.vehicles.get().plate == "7NEW123"
    else:
        assert not other.vehicles.exists()


# Vehicles, nested under their hauler: they follow the hauler's scope.
VEHICLE_ROUTES = [
    api(
        "hauler-vehicles",
        lambda t: f"/api/v1/haulers/{t.hauler.pk}/vehicles/",
        owners=frozenset({FSE, HAULER}),
        check=_vehicles_are(["8TRK001"]),
        label="own hauler",
    ),  # fmt: skip
    api(
        "hauler-vehicles", lambda t: f"/api/v1/haulers/{t['other_hauler'].pk}/vehicles/", label="other hauler"
    ),
    api(
        "hauler-vehicles",
        lambda t: f"/api/v1/haulers/{t['other_hauler'].pk}/vehicles/",
        method="post",
        body={"plate": "7NEW123"},
        may=EDITORS,
        ok=201,
        label="add to other hauler",
        check=_vehicle_added,
    ),  # fmt: skip
]

# The licence import API: Town staff read; editors start a dry run; the FOG Manager applies.
# Outside users find nothing: an empty list, and 404 for any import (the pages say the same).
IMPORT_API = [
    api("licence-import-list", "/api/v1/imports/licences/", record=False),
    api(
        "licence-import-list",
        "/api/v1/imports/licences/",
        record=False,
        scope=STAFF,
        method="post",
        may=EDITORS,
        label="upload",
    ),  # fmt: skip
    api("licence-import-detail", lambda t: f"/api/v1/imports/licences/{t['import'].pk}/"),
    api("licence-import-rows", lambda t: f"/api/v1/imports/licences/{t['import'].pk}/rows/"),
    api(
        "licence-import-dry-run",
        lambda t: f"/api/v1/imports/licences/{t['import'].pk}/dry-run/",
        method="post",
        may=EDITORS,
    ),  # fmt: skip
    api(
        "licence-import-apply",
        lambda t: f"/api/v1/imports/licences/{t['import'].pk}/apply/",
        method="post",
        may=frozenset({Role.FOG_MANAGER}),
    ),  # fmt: skip
]


ROUTES = [*PAGES, *POSTS, *IMPORT_PAGES, *API_ROUTES, *VEHICLE_ROUTES, *IMPORT_API]
