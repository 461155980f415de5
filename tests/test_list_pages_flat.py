"""Issue 16: the lists staff open most answer in a time that does not grow with the town.

No timing here (bench/list_pages.py measures it; docs/performance.md): this keeps the shape of the
SQL that makes it so. The pager counts the list's own table, without a join or a GROUP BY (no
annotation over a join, no select_related, carried into the COUNT), or, for staff, does not count
it at all: their total is read from the kept counts
(core/kept_totals.py, dashboard/tests/test_kept_totals.py); the page's rows are read off an index
in the list's order, not sorted (SQLite's plan has no "TEMP B-TREE FOR ORDER BY"); the device
count is a subquery for the page's rows.
"""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.servicing.tests.rows import add_servicing_rows

pytestmark = pytest.mark.django_db

# Each list and the table it pages through; the lists whose total staff read from the kept counts.
KEPT_TOTALS = (
    "/registry/establishments/",
    "/api/v1/establishments/",
    "/servicing/manifests/",
    "/api/v1/manifests/",
    "/permits/list/",
    "/api/v1/permits/",
)
LISTS = {
    "/registry/establishments/": "registry_foodserviceestablishment",
    "/api/v1/establishments/": "registry_foodserviceestablishment",
    "/servicing/manifests/": "servicing_manifest",
    "/api/v1/manifests/": "servicing_manifest",
    "/permits/list/": "permits_permit",
    "/api/v1/permits/": "permits_permit",
}


def _statements(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return [query["sql"] for query in queries.captured_queries]


def _plan(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        return " / ".join(str(row[-1]) for row in cursor.fetchall())


def test_each_list_counts_its_table_alone_and_reads_its_page_off_an_index(town):
    """One town for every list (its rows take long to build): for each list, the pager's COUNT is
    on the list's table alone (none, where the total is kept), and (SQLite) the page's SELECT needs
    no sort."""
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule()
    add_registry_rows(town, 2, bound_user=manager)
    add_servicing_rows(town, 2)
    add_permit_rows(2, manager=manager)
    page_client = Client()
    page_client.force_login(manager)
    for url, table in LISTS.items():
        statements = _statements(api_as(manager) if url.startswith("/api/") else page_client, url)
        counts = [sql for sql in statements if sql.startswith("SELECT COUNT(") and f'FROM "{table}"' in sql]
        if url in KEPT_TOTALS:
            assert not counts, (url, counts)
            assert any('"dashboard_figurecount"' in sql for sql in statements), url
        else:
            assert len(counts) == 1, (url, counts)
            assert "JOIN" not in counts[0] and "GROUP BY" not in counts[0], (url, counts[0])
        if connection.vendor != "sqlite":
            continue  # the plan below is SQLite's
        pages = [
            sql
            for sql in statements
            if sql.startswith("SELECT") and f'FROM "{table}"' in sql and "ORDER BY" in sql and "LIMIT" in sql
        ]
        assert len(pages) == 1, (url, pages)
        plan = _plan(pages[0])
        assert "TEMP B-TREE FOR ORDER BY" not in plan, (url, plan)


def test_the_search_and_the_shared_devices_read_what_matches_not_the_whole_town(town):
    """The FSE search matches the parcel numbers in a subquery (no OR across a join), and on
    PostgreSQL reads each column through its trigram index when pg_trgm is there (registry 0008);
    the shared devices (A2) are read from the table the triggers keep, not grouped from every link."""
    manager = town.users[Role.FOG_MANAGER]
    add_registry_rows(town, 2, bound_user=manager)
    client = Client()
    client.force_login(manager)
    search = [sql for sql in _statements(client, "/registry/establishments/?q=plaza") if "LIKE" in sql]
    assert len(search) == 2, search  # the count and the page
    count = next(sql for sql in search if sql.startswith("SELECT COUNT("))
    assert 'JOIN "registry_parcel"' not in count, count
    devices = _statements(client, "/registry/devices/?shared=1")
    count = next(
        sql
        for sql in devices
        if sql.startswith("SELECT COUNT(") and 'FROM "registry_greasecontroldevice"' in sql
    )
    assert '"registry_shareddevice"' in count and "GROUP BY" not in count, count
    assert "registry_greasecontroldevice_establishments" not in count, count
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        if cursor.fetchone() is None:
            pytest.skip(
                "pg_trgm could not be created by this database user (registry 0008 went on without it)"
            )
        # The test town is small enough for a sequential scan, or a walk of a table's primary key
        # with the LIKE as a filter, to be cheaper (which the planner picks depends on the
        # statistics other tests left): ask whether the indexes can serve the search at all.
        cursor.execute(
            "ANALYZE registry_foodserviceestablishment, registry_parcel"
        )  # this town's, rolled back
        for scan in ("seqscan", "indexscan", "indexonlyscan"):
            cursor.execute(f"SET LOCAL enable_{scan} = off")
        cursor.execute(f"EXPLAIN {search[0]}")
        plan = " / ".join(row[0] for row in cursor.fetchall())
    for index in (
        "fse_search_name_trgm",
        "fse_search_licence_trgm",
        "fse_search_site_trgm",
        "parcel_search_apn_trgm",
    ):
        assert index in plan, (index, plan)
