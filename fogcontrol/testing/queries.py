"""Exact query counts at two sizes, for list pages and API lists.

A list that takes one more query per row (an N+1) is slow only once the Town is large, so a test
with a handful of rows never notices it. `assert_queries_do_not_grow` loads each list at a small
size, adds rows, loads it again, and asserts the same, stated number of queries both times. The
number is exact, not a ceiling: a query that creeps in (a lost `select_related`, a second count)
fails the test, and the message prints the SQL of both loads so the new query is easy to spot.

Each list is loaded once before counting. The first request of a test fills per-process caches
(Django's ContentType cache, cleared before every test by the root conftest): a request that
happens to come first would otherwise pay for it, and the count would depend on order.

Transaction control (SAVEPOINT, RELEASE, ROLLBACK TO) is not counted: it is bookkeeping of the
database wrapper, not work of the list, and the same view may open a savepoint or not depending
on the backend's features. Only statements that read or write rows are counted, so the same
number holds on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.db import connection
from django.test.utils import CaptureQueriesContext

NOT_COUNTED = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT", "ROLLBACK")


def counted(statements: list[dict]) -> list[str]:
    """The SQL of the statements that read or write rows (transaction control left out)."""
    return [q["sql"] for q in statements if not q["sql"].lstrip().upper().startswith(NOT_COUNTED)]


def load(client, url: str, *, data: Mapping | None = None, headers: Mapping | None = None):
    """GET `url` and return the response and the SQL it ran (counted statements only)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, data or {}, headers=dict(headers or {}))
    return response, counted(captured.captured_queries)


def _rows(response) -> int | None:
    """How many rows the list holds, where the response says so: the API's `count`, or the
    paginator of a page. None where neither is there (a page that lists without paging)."""
    if response.get("Content-Type", "").startswith("application/json"):
        body = response.json()
        if isinstance(body, dict) and "count" in body:
            return body["count"]
        if isinstance(body, list):
            return len(body)
        return None
    for context in response.context or []:
        page = context.get("page_obj") or context.get("page")
        if page is not None and hasattr(page, "paginator"):
            return page.paginator.count
    return None


def _warm_up(client, urls, *, data, headers) -> None:
    """Load each list once (see the module's docstring); each must answer 200."""
    answers = {url: client.get(url, data or {}, headers=dict(headers or {})).status_code for url in urls}
    refused = [f"{url} answered {status}" for url, status in answers.items() if status != 200]
    assert not refused, "\n".join(refused)


def _report(url: str, expected: int, size: str, sql: list[str]) -> str:
    listing = "\n".join(f"  {number}. {statement}" for number, statement in enumerate(sql, 1))
    where = f"{url} {size}".strip()
    return f"{where} took {len(sql)} queries, expected exactly {expected}:\n{listing}"


def assert_queries_do_not_grow(
    client,
    add_rows: Callable[[int], object],
    lists: Mapping[str, int],
    *,
    small: int = 2,
    large: int = 7,
    data: Mapping | None = None,
    headers: Mapping | None = None,
    grows: bool = True,
) -> dict[str, tuple]:
    """Assert that each list in `lists` (url → exact number of queries) takes exactly that many
    queries with `small` rows added by `add_rows(small)` and again after `add_rows(large - small)`.

    `add_rows(n)` adds n more rows of every kind the lists show (and whatever each row shows
    beside it), visible to the client's user. Where the list reports its length (API `count`,
    a page's paginator), the helper also checks that it grew, so a list the rows never reached
    cannot pass unnoticed; pass `grows=False` for a list whose length is not the rows added.

    Returns {url: (small response, large response)} for the caller's own assertions.
    """
    assert 0 < small < large, "the large size must add rows to the small one"
    add_rows(small)
    _warm_up(client, lists, data=data, headers=headers)
    first = {url: load(client, url, data=data, headers=headers) for url in lists}
    add_rows(large - small)
    second = {url: load(client, url, data=data, headers=headers) for url in lists}

    failures = []
    for url, expected in lists.items():
        (few, few_sql), (many, many_sql) = first[url], second[url]
        assert few.status_code == many.status_code == 200, f"{url} answered {many.status_code}"
        if len(few_sql) != expected:
            failures.append(_report(url, expected, f"with {small} rows added", few_sql))
        if len(many_sql) != expected:
            failures.append(_report(url, expected, f"with {large} rows added", many_sql))
        if grows:
            few_rows, many_rows = _rows(few), _rows(many)
            if few_rows is not None and many_rows is not None and not many_rows > few_rows:
                failures.append(f"{url} did not grow: {few_rows} rows, then {many_rows}")
    assert not failures, "\n\n".join(failures)
    return {url: (first[url][0], second[url][0]) for url in lists}


def assert_same_exact_queries(
    client, urls: list[str], expected: int, *, data: Mapping | None = None, headers: Mapping | None = None
) -> list:
    """Assert that each of `urls` takes exactly `expected` queries: the same list at different
    sizes where the size is fixed by the record it belongs to (the rows of a 3-row import and of a
    30-row one), so `assert_queries_do_not_grow` cannot add rows to it. Returns the responses."""
    _warm_up(client, urls, data=data, headers=headers)
    loaded = [load(client, url, data=data, headers=headers) for url in urls]
    failures = [
        _report(url, expected, "", sql)
        for url, (_, sql) in zip(urls, loaded, strict=True)
        if len(sql) != expected
    ]
    assert not failures, "\n\n".join(failures)
    return [response for response, _ in loaded]
