"""Every API route that names a record answers 404 for an id that cannot be one (#15, finding 8).

`/api/v1/permits/abc/` used to end in a 500 on 16 operations: the views handed the raw URL text to
the database. Every detail route now finds its record through one look-up
(fogcontrol.core.api.lookup.ScopedObjectLookup), which answers a malformed id, an unknown id and an
id outside the user's scope with the same 404. This test walks the URL resolver, so a route added
later is covered without being named here.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from conftest import api_as
from fogcontrol.core.roles import Role

ID_NAMES = ("pk", "id", "hauler_pk")
BAD_IDS = ("abc", "1.5", "-1", "99999999999999999999999", "%C3%A9")
METHODS = ("get", "post", "put", "patch")


def _routes(patterns, prefix=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


def _url(route: str, bad_id: str) -> str:
    """The route with every record id replaced by `bad_id` (regex and path() patterns alike)."""
    names = "|".join(ID_NAMES)
    url = re.sub(rf"\(\?P<({names})>[^)]*\)", bad_id, route)
    url = re.sub(rf"<(?:\w+:)?({names})>", bad_id, url)
    url = re.sub(r"\(\?P<format>[^)]*\)", "json", url)
    url = url.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
    return "/" + url


def detail_api_routes() -> list[str]:
    names = "|".join(ID_NAMES)
    found = {
        route
        for route in _routes(get_resolver().url_patterns)
        if route.startswith("api/") and re.search(rf"<(?:\w+:)?({names})>|\(\?P<({names})>", route)
    }
    return sorted(found)


def test_the_walk_finds_the_detail_routes():
    routes = detail_api_routes()
    assert len(routes) >= 60
    assert any("permits/(?P<pk>" in route for route in routes)


@pytest.mark.parametrize("route", detail_api_routes())
def test_a_malformed_id_is_not_found_on_every_detail_route(town, route):
    client = api_as(town.users[Role.FOG_MANAGER])
    client.raise_request_exception = False
    for bad_id in BAD_IDS:
        statuses = {method: getattr(client, method)(_url(route, bad_id), {}, format="json").status_code
                    for method in METHODS}  # fmt: skip
        assert set(statuses.values()) <= {404, 405}, (_url(route, bad_id), statuses)
        assert 404 in statuses.values(), (_url(route, bad_id), statuses)


def test_permit_abc_is_not_found(town):
    for role in (Role.FOG_MANAGER, Role.FSE, Role.HAULER):
        client = api_as(town.users[role])
        assert client.get("/api/v1/permits/abc/").status_code == 404
        assert client.post("/api/v1/permits/abc/suspend/", {"reason": "x"}, format="json").status_code == 404
