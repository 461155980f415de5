"""API lists run the same, exact number of queries however many rows they hold (no N+1)."""

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.testing.queries import assert_queries_do_not_grow

PATHS = ["establishments", "devices", "parcels", "haulers", "parties", "facilities"]
# Town profile (time zone middleware), count, page, then the prefetches each list shows (an outside
# user's scope is a subquery of the page's query, so it costs nothing more).
QUERIES = {
    Role.FOG_MANAGER: {
        "establishments": 5,
        "devices": 4,
        "parcels": 3,
        "haulers": 4,
        "parties": 3,
        "facilities": 3,
    },  # fmt: skip
    Role.FSE: {"establishments": 5, "devices": 4, "parcels": 3, "haulers": 4, "facilities": 3},
}


@pytest.mark.parametrize("role", QUERIES, ids=lambda role: role.value)
def test_list_query_count_does_not_grow_with_rows(town, role):
    """Parties are for staff only, so the FSE user's lists leave them out."""
    user = town.users[role]
    lists = {f"/api/v1/{path}/": count for path, count in QUERIES[role].items()}
    assert_queries_do_not_grow(
        api_as(user),
        lambda count: add_registry_rows(town, count, bound_user=user),
        lists,
        small=3,
        large=30,
        data={"page_size": 100},
    )


def test_establishment_and_device_lists_take_the_same_queries_for_3_rows_and_30(town):
    """The issue's check, for a staff user whose lists hold rows bound to someone else."""
    client = api_as(town.users[Role.INSPECTOR])
    responses = assert_queries_do_not_grow(
        client,
        lambda count: add_registry_rows(town, count, bound_user=town.users[Role.FSE]),
        # Town profile, count, page, then the prefetches: users and haulers.
        # Town profile, count, page (parcel and owner joined), the establishments served (A2).
        {"/api/v1/establishments/": 5, "/api/v1/devices/": 4},
        small=3,
        large=30,
        data={"page_size": 100},
    )
    few, many = responses["/api/v1/establishments/"]
    assert many.json()["count"] - few.json()["count"] == 27 + 13  # 27 FSEs, 13 neighbours sharing
