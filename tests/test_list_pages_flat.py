"""Issue 16: the lists staff open most answer in a time that does not grow with the town.

No timing here (bench/list_pages.py measures it; docs/performance.md): this keeps the shape of the
SQL that makes it so. The pager counts the list's own table, without a join or a GROUP BY (no
annotation over a join, no select_related, carried into the COUNT); the page's rows are read off
an index in the list's order, not sorted (SQLite's plan has no "TEMP B-TREE FOR ORDER BY"); the
device count is a subquery for the page's rows.
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

# Each list and the table it pages through.
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
    on the list's table alone, and (SQLite) the page's SELECT needs no sort."""
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
