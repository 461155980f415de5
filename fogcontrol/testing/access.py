"""A kit for role x route access tables (after NetBox's utilities/testing/views.py and api.py).

Each app states, in `fogcontrol/<app>/tests/access_table.py`, a module-level `ACCESS` list of
`Route`s: a URL name, how to build its URL from the app's test world, and the status each of the
eight roles (and an anonymous visitor) gets. The app's `test_access_table.py` runs every cell with
`check_route`; a refused write (any status but 2xx/302) must change nothing and write no
AuditEntry. `fogcontrol/core/tests/test_route_coverage.py` walks the URL resolver and fails on any
route that no app's `ACCESS` names.

    Route("permits:permit_list", page("/permits/list/"), expect(200)),
    Route("permit-issue", api(lambda w: f"/permit-applications/{w.accepted.pk}/issue/"),
          expect(403, outside=404), method="post"),
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterable

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import OUTSIDE_ROLES, STAFF_ROLES, Role

ANONYMOUS = "anonymous"
WRITE_METHODS = {"post", "put", "patch", "delete"}
# 415: an upload route sent JSON instead of a file.
ALLOWED_STATUSES = {200, 201, 204, 302, 400, 401, 403, 404, 405, 409, 415}

# Routes that are not the program's records: Django's admin, the static/media servers, the API's
# schema and docs, sign-in and sign-out. The walker skips them by these names, and only these.
NOT_TABLED = {
    "api-schema": "the OpenAPI schema is generated; tested in registry/tests/test_api_schema.py",
    "api-docs": "Swagger UI over the schema; no records",
    "api-root": "DRF's browsable index of the routes; no records",
    "login": "the sign-in page itself, open to everyone",
    "logout": "signing out; no records",
}
SKIPPED_PREFIXES = ("admin/", "^static/", "static/", "^media/", "media/")


def expect(default: int, *, staff: int | None = None, outside: int | None = None, anonymous=None, **by_role):
    """Status per role: `default` for all, then the staff/outside group, then single roles by
    their value (fog_manager=201). Anonymous visitors: 302 to sign in for pages, 401 for the API,
    unless stated."""
    table = {role: default for role in Role}
    for group, status in ((STAFF_ROLES, staff), (OUTSIDE_ROLES, outside)):
        if status is not None:
            table.update(dict.fromkeys(group, status))
    for value, status in by_role.items():
        table[Role(value)] = status
    if anonymous is not None:
        table[ANONYMOUS] = anonymous
    return table


def page(path: str | Callable) -> Callable:
    return path if callable(path) else (lambda world: path)


def api(path: str | Callable) -> Callable:
    build = path if callable(path) else (lambda world: path)
    return lambda world: "/api/v1" + build(world)


@dataclasses.dataclass(frozen=True)
class Route:
    name: str  # the URL name as the resolver knows it, with its namespace ("permits:permit_list")
    url: Callable  # world -> URL
    expected: dict  # Role (or ANONYMOUS) -> status
    method: str = "get"
    data: Callable | None = None  # world -> body, for writes
    state: Callable | None = None  # world -> a snapshot that a refused write must leave unchanged
    label: str = ""

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.name}{' ' + self.label if self.label else ''}"

    @property
    def is_api(self) -> bool:
        return not self.name.count(":") and self.name not in {"home"}

    def status_for(self, role) -> int:
        if role == ANONYMOUS:
            return self.expected.get(ANONYMOUS, 401 if self.is_api else 302)
        return self.expected[role]


def cases(table: Iterable[Route], *, with_anonymous: bool = True):
    """pytest params (route, role) for every cell of a table."""
    import pytest

    roles = [*Role, ANONYMOUS] if with_anonymous else list(Role)
    for route in table:
        for role in roles:
            yield pytest.param(route, role, id=f"{route}-{role}")


def check_row(route: Route, world, users: dict) -> None:
    """Every role's cell of one route against one world, built once: the refusals first, so a
    write that succeeds for some role changes the world only after every refusal is checked.
    Reports every wrong cell of the row at once."""
    roles = sorted([*Role, ANONYMOUS], key=lambda role: _accepted(route, role))
    wrong = []
    for role in roles:
        try:
            check_route(route, role, world, users)
        except AssertionError as error:
            wrong.append(str(error).splitlines()[0])
    assert not wrong, "\n".join(wrong)


def _accepted(route: Route, role) -> bool:
    expected = route.status_for(role)
    return 200 <= expected < 300 or (expected == 302 and role != ANONYMOUS)


def check_route(route: Route, role, world, users: dict) -> None:
    """One cell: the status, and for a refused write, nothing changed and no audit row."""
    assert route.status_for(role) in ALLOWED_STATUSES, route
    url = route.url(world)
    body = route.data(world) if route.data else {}
    before_state = route.state(world) if route.state else None
    audit_before = AuditEntry.objects.count()
    if route.is_api:
        client = APIClient()
        if role != ANONYMOUS:
            client.force_authenticate(users[role])
        response = getattr(client, route.method)(url, body, format="json")
    else:
        from django.test import Client

        client = Client()
        if role != ANONYMOUS:
            client.force_login(users[role])
        response = getattr(client, route.method)(url, body)
    expected = route.status_for(role)
    assert response.status_code == expected, f"{route} as {role}: {response.status_code}, expected {expected}"
    if role == ANONYMOUS and not route.is_api and expected == 302:
        assert response["Location"].startswith("/login/")
    if route.method in WRITE_METHODS and not _accepted(route, role):
        assert AuditEntry.objects.count() == audit_before, f"{route} as {role} wrote an audit entry"
        if route.state:
            assert route.state(world) == before_state, f"{route} as {role} changed something"


# --- The route walker ---------------------------------------------------------------------------


def walk_routes(resolver: URLResolver | None = None, prefix: str = "", namespace: str = ""):
    """(name, pattern) of every route, recursively through includes."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = namespace + (f"{entry.namespace}:" if entry.namespace else "")
            yield from walk_routes(entry, pattern, inner)
        elif isinstance(entry, URLPattern):
            yield (namespace + entry.name if entry.name else pattern), pattern


def tabled_routes() -> dict[str, list[Route]]:
    """Every app's ACCESS, from fogcontrol.<app>.tests.access_table, keyed by route name."""
    found: dict[str, list[Route]] = {}
    for config in apps.get_app_configs():
        if not config.name.startswith("fogcontrol."):
            continue
        try:
            module = importlib.import_module(f"{config.name}.tests.access_table")
        except ModuleNotFoundError as error:
            if error.name != f"{config.name}.tests.access_table":
                raise
            continue
        for route in module.ACCESS:
            found.setdefault(route.name, []).append(route)
    return found


def untabled_routes() -> list[str]:
    tabled = tabled_routes()
    missing = set()
    for name, pattern in walk_routes():
        if pattern.startswith(SKIPPED_PREFIXES) or name in NOT_TABLED:
            continue
        if name not in tabled:
            missing.add(f"{name}  ({pattern})")
    return sorted(missing)


def snapshot(*models) -> tuple:
    """Every row of every model, to compare before and after a refused write."""
    return tuple(sorted(repr(sorted(row.items())) for row in model.objects.values()) for model in models)
