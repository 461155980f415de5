"""Who may do what, as tables: every route × every role, one declaration per route (issue #9).

After NetBox's `utilities/testing/views.py` and `api.py`: an app declares its routes as data in
`fogcontrol/<app>/tests/access_table.py` (`ROUTES`, and `build(town)`, which adds the records the
routes name to the small town), and one test module runs them:

    from fogcontrol.testing.access import access_cases, check_access, town_fixture
    from fogcontrol.permits.tests.access_table import ROUTES, build

    town = town_fixture(build)          # built once per module, rolled back after it

    @pytest.mark.parametrize("route, role", access_cases(ROUTES))
    def test_who_may_do_what(town, route, role):
        check_access(route, role, town)

A route's answer for a role follows from three facts (docs/architecture.md, "Who may see what"):

- is the record in the role's scope? Staff see every record, an outside role (FSE, property
  owner, hauler) only those it is bound to (`owners`). A route without a record (a list, a "new"
  form) is in everyone's scope unless `scope` says otherwise. Outside the scope: `hidden` (404);
- may the role do this at all (`may`)? If not: `refused` (403), before any body is read;
- otherwise `ok`: a status, a set of statuses, or PASSES (any answer but a refusal or a 500: a write
  whose body or state the service judges, 400/409, has passed the role check).

Anonymous visitors are sent to sign in (pages: 302 to /login/) or refused (API: 401). A refused
write must change nothing: the runner checks that no audit entry was written. The coverage test
(tests/test_route_coverage.py) fails on any route named in no table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client, override_settings
from django.urls import resolve
from rest_framework.test import APIClient

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import OUTSIDE_ROLES, STAFF_ROLES, Role
from fogcontrol.testing.auth import force_login_verified, mark_verified
from fogcontrol.testing.town import SmallTown, build_small_town

PAGE, API = "page", "api"
ALL_ROLES = frozenset(Role)
STAFF = STAFF_ROLES
OUTSIDE = OUTSIDE_ROLES
ANONYMOUS = "anonymous"
SIGN_IN = 302  # a page sends an anonymous visitor to /login/
SESSIONS = "_sessions"


class _Passes:
    """Any answer but a refusal (401, 403, 404, 405) or a server error."""

    def __contains__(self, status: int) -> bool:
        return status < 500 and status not in (401, 403, 404, 405)

    def __repr__(self) -> str:
        return "PASSES"


PASSES = _Passes()


@dataclasses.dataclass(frozen=True)
class Route:
    """One request to one route, and what each role gets from it."""

    url_name: str | None  # the resolver's name ("permits:permit_detail", "permit-detail"); None: no route
    url: Callable[[SmallTown], str] | str
    kind: str = PAGE
    method: str = "get"
    may: frozenset = ALL_ROLES  # roles allowed to do it at all
    owners: frozenset = frozenset()  # outside roles whose own record it is (in their scope)
    scope: frozenset | None = None  # roles that see the record; default: staff + owners, or all (no record)
    record: bool = True  # the route names a record (False: a list, a "new" form, a calculator)
    ok: object = None  # default: 200 for a GET, PASSES for a write
    refused: int = 403
    hidden: int = 404
    anonymous: int | None = None  # default: SIGN_IN for pages, 401 for the API
    body: Callable[[SmallTown], dict] | dict | None = None
    special: Mapping = dataclasses.field(default_factory=dict)  # role -> status, where the rule bends
    check: Callable | None = None  # (response, town, role) -> None: more to assert on the answer
    label: str = ""

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.url_name or 'no route'}{' ' + self.label if self.label else ''}"

    @property
    def writes(self) -> bool:
        return self.method not in ("get", "head", "options")

    def in_scope(self, role) -> bool:
        if self.scope is not None:
            return role in self.scope
        return role in STAFF or role in self.owners or not self.record

    def expected(self, role) -> object:
        """The status (or set of statuses) `role` gets."""
        if role in self.special:
            return self.special[role]
        if role == ANONYMOUS:
            if self.anonymous is not None:
                return self.anonymous
            return SIGN_IN if self.kind == PAGE else 401
        if not self.in_scope(role):
            return self.hidden
        if role not in self.may:
            return self.refused
        if self.ok is not None:
            return self.ok
        return PASSES if self.writes else 200

    def path(self, town) -> str:
        return self.url(town) if callable(self.url) else self.url

    def data(self, town) -> dict:
        if self.body is None:
            return {}
        return self.body(town) if callable(self.body) else dict(self.body)


def page(url_name, url, **kwargs) -> Route:
    return Route(url_name, url, kind=PAGE, **kwargs)


def api(url_name, url, **kwargs) -> Route:
    return Route(url_name, url, kind=API, **kwargs)


def access_cases(routes: Iterable[Route], roles: Iterable = (*sorted(Role), ANONYMOUS)):
    """pytest params: every route × every role and the anonymous visitor. Two rows of one route
    need different labels (a row said twice is a mistake, and would hide behind pytest's suffixes)."""
    roles = list(roles)
    routes = list(routes)
    twice = {str(route) for route in routes if sum(str(other) == str(route) for other in routes) > 1}
    assert not twice, f"access table rows named twice (give them labels): {sorted(twice)}"
    return [
        pytest.param(route, role, id=f"{route}-{getattr(role, 'value', role)}")
        for route in routes
        for role in roles
    ]


def _client(route: Route, role, town):
    """A client signed in as `role`. Pages reuse the session each user signed in with once per town
    (`sign_in_everyone`), so a test does not write a session of its own."""
    user = None if role == ANONYMOUS else town.users[role]
    if route.kind == API:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
            # A program signed in just now, as staff signing for a party must be (issue #15).
            _reuse_session(client, town, role)
    else:
        client = Client()
        if user is not None:
            if not _reuse_session(client, town, role):
                force_login_verified(client, user)
    client.raise_request_exception = False
    return client


def _reuse_session(client, town, role) -> bool:
    """Give `client` the session `role` signed in with when the module's town was built; False if
    there is none. Each test's own activity is rolled back with the test, so the session is marked
    active and verified now, or a long module would pass the idle timeout (issue #15)."""
    session = town.records.get(SESSIONS, {}).get(role)
    if session is None:
        return False
    client.cookies[settings.SESSION_COOKIE_NAME] = session
    mark_verified(client)
    return True


def sign_in_everyone(town) -> None:
    """Sign each user in once, keeping the session key for the page requests of every test."""
    sessions = {}
    for role, user in town.users.items():
        client = Client()
        # Password and second factor, as a staff user signs in (fogcontrol.testing.auth).
        force_login_verified(client, user)
        sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    town.records[SESSIONS] = sessions


def request(route: Route, role, town, path: str):
    """Send the route's request to `path` as `role` (ANONYMOUS: no one signed in)."""
    client = _client(route, role, town)
    send = getattr(client, route.method)
    if route.kind == API and route.writes:
        return send(path, route.data(town), format="json")
    if route.writes:
        return send(path, route.data(town))
    return send(path, route.data(town) or None)


def check_access(route: Route, role, town) -> None:
    """Assert what `role` gets from `route`, and that a refused write changed nothing."""
    path = route.path(town)
    if route.url_name is not None:
        assert resolve(path.split("?")[0]).view_name == route.url_name, (path, route.url_name)
    expected = route.expected(role)
    audit_before = AuditEntry.objects.count()
    response = request(route, role, town, path)
    status = response.status_code
    shown = f"{route} as {getattr(role, 'value', role)}: {path} answered {status}"
    if isinstance(expected, int):
        assert status == expected, f"{shown}, expected {expected}: {_detail(response)}"
    else:
        assert status in expected, f"{shown}, expected {expected}: {_detail(response)}"
    if expected == SIGN_IN and role == ANONYMOUS:
        assert response["Location"].startswith("/login/"), shown
    if status in (401, 403, 404, 405) and route.writes:
        assert AuditEntry.objects.count() == audit_before, f"{shown}, but wrote an audit entry"
    if route.check is not None:
        route.check(response, town, role)


def _detail(response) -> str:
    if response.get("Content-Type", "").startswith("application/json"):
        return response.content.decode()[:300]
    return ""


def town_fixture(build: Callable[[SmallTown], None] | None = None):
    """A module-scoped `town` fixture: the small town plus `build(town)`'s records, made once per
    test module inside a transaction that is rolled back after it; each test runs in a savepoint
    inside it (pytest-django's `db`), so what one test writes the next never sees."""

    @pytest.fixture(scope="module")
    def town(django_db_setup, django_db_blocker):
        with django_db_blocker.unblock():
            atomic = transaction.atomic()
            atomic.__enter__()
            try:
                built = build_small_town()
                if build is not None:
                    build(built)
                sign_in_everyone(built)
            except BaseException:
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)
                raise
        yield built
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)

    return town


def media_fixture(name: str = "_media_in_tmp"):
    """A module-scoped fixture (used by every test of the module) keeping uploads in a temporary
    folder: the town's files (photos, receipts, signed sheets) are stored when the town is built,
    once per module, and read by the tests after it. Named after the records tests' per-test
    fixture by default, which it replaces in the module, so the files stay where they were put."""

    @pytest.fixture(scope="module", autouse=True, name=name)
    def media(tmp_path_factory):
        with override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media")):
            yield

    return media
