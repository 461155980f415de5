"""Every servicing list, page and API, takes the same exact number of queries for a few rows and
for many (no N+1): fogcontrol.testing.queries. Each role is checked on the lists its rows reach."""

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.rows import add_servicing_rows
from fogcontrol.testing.queries import assert_queries_do_not_grow

DEVICE = "{device}"
# Pages: session, user, Town profile, then count and page with what the rows show joined or
# prefetched. The home page adds its tiles; the device page its state, history and readings (the
# Town profile, the rules and the calendar read once for the page; the pending change of frequency
# found among the history's changes, and for staff the status judged from the history's manifests
# and readings, not read again: issue 16).
PAGES = {
    Role.FOG_MANAGER: {
        "/servicing/": 11,
        "/servicing/manifests/": 5,
        "/servicing/imports/": 5,
        "/servicing/flags/": 5,
        "/servicing/requirements/": 5,
        "/servicing/frequency-requests/": 5,
        "/servicing/retention/": 9,
        f"/servicing/devices/{DEVICE}/": 13,
        f"/servicing/devices/{DEVICE}/holds/": 5,
    },
    Role.FSE: {
        "/servicing/": 8,
        "/servicing/manifests/": 5,
        "/servicing/frequency-requests/": 5,
        f"/servicing/devices/{DEVICE}/": 15,
    },
    Role.HAULER: {
        "/servicing/": 8,
        "/servicing/manifests/": 5,
        "/servicing/imports/": 5,
        f"/servicing/devices/{DEVICE}/": 14,
    },
}
# API: Town profile, count, page and prefetches; the device history adds its state and readings.
API = {
    Role.FOG_MANAGER: {
        "/api/v1/manifests/": 5,
        "/api/v1/manifest-imports/": 3,
        "/api/v1/manifest-flags/": 3,
        "/api/v1/service-status/": 4,
        "/api/v1/service-requirements/": 3,
        "/api/v1/frequency-requests/": 3,
        "/api/v1/sludge-readings/": 3,
        "/api/v1/retention-approvals/": 3,
        "/api/v1/purge-reports/": 5,
        f"/api/v1/devices/{DEVICE}/history/": 10,
        f"/api/v1/devices/{DEVICE}/holds/": 3,
    },
    Role.FSE: {
        "/api/v1/manifests/": 5,
        "/api/v1/service-status/": 4,
        "/api/v1/service-requirements/": 3,
        "/api/v1/frequency-requests/": 3,
        "/api/v1/sludge-readings/": 3,
        f"/api/v1/devices/{DEVICE}/history/": 10,
    },
    Role.HAULER: {
        "/api/v1/manifests/": 5,
        "/api/v1/manifest-imports/": 3,
        "/api/v1/service-status/": 4,
        "/api/v1/service-requirements/": 3,
        "/api/v1/sludge-readings/": 3,
        f"/api/v1/devices/{DEVICE}/history/": 10,
    },
}


def _urls(lists: dict[str, int], town) -> dict[str, int]:
    return {url.replace(DEVICE, str(town.own_device.pk)): count for url, count in lists.items()}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("role", PAGES, ids=lambda role: role.value)
def test_the_list_pages_take_the_same_exact_queries_for_few_rows_and_many(town, role):
    assert_queries_do_not_grow(
        _client(town.users[role]), lambda count: add_servicing_rows(town, count), _urls(PAGES[role], town)
    )


@pytest.mark.parametrize("role", API, ids=lambda role: role.value)
def test_the_api_lists_take_the_same_exact_queries_for_few_rows_and_many(town, role):
    assert_queries_do_not_grow(
        api_as(town.users[role]), lambda count: add_servicing_rows(town, count), _urls(API[role], town)
    )
