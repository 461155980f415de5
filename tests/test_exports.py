"""Every list exports (issue 17): the same URL with ?format=csv or ?format=xlsx answers every row the
page's filters select, no more (the user's scope) and no fewer (not only the page shown), with the
page's columns in words (core/exports.py).

The demo town (a small one) gives every list rows; each list is checked as staff and as the outside
users who may open it, unfiltered, with each of its choice filters, and with a search that matches
nothing."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from openpyxl import load_workbook

from fogcontrol.demo.run import seed_demo
from fogcontrol.testing.access import media_fixture

_media = media_fixture()

# Every list page of the program, and who opens it: staff, and the outside users whose portal it is.
LISTS = {
    "/registry/establishments/": ("manager", "fse", "owner", "hauler"),
    "/registry/devices/": ("manager", "fse", "owner", "hauler"),
    "/registry/parcels/": ("manager", "owner"),
    "/registry/contacts/": ("manager",),
    "/registry/haulers/": ("manager", "hauler"),
    "/permits/applications/": ("manager", "fse"),
    "/permits/list/": ("manager", "fse", "owner"),
    "/permits/renewals/": ("manager",),
    "/permits/without-permit/": ("manager",),
    "/permits/remodel/": ("manager", "fse"),
    "/servicing/": ("manager", "fse", "hauler"),
    "/servicing/manifests/": ("manager", "fse", "hauler"),
    "/servicing/flags/": ("manager",),
    "/servicing/requirements/": ("manager", "fse"),
    "/servicing/frequency-requests/": ("manager", "fse"),
    "/servicing/imports/": ("manager", "hauler"),
    "/inspections/": ("manager", "fse"),
    "/inspections/due/": ("manager",),
    "/inspections/charges/": ("manager", "fse"),
    "/findings/": ("manager", "fse"),
    "/records/review/": ("manager",),
    "/records/pickups/": ("manager", "fse", "hauler"),
    "/enforcement/": ("manager", "fse"),
    "/enforcement/violations/": ("manager", "fse"),
    "/notices/documents/": ("manager", "fse"),
    "/sampling/": ("manager", "fse"),
    "/sampling/limits/": ("manager", "fse"),
    "/sampling/facilities/": ("manager", "fse"),
    "/spills/": ("manager",),
    "/spills/reports/": ("manager", "fse"),
    "/spills/imports/": ("manager",),
    "/billing/accounts/": ("manager", "fse"),
    "/billing/invoices/": ("manager", "fse"),
    "/billing/payments/": ("manager", "fse"),
    "/billing/liens/": ("manager",),
    "/billing/licence-holds/": ("manager",),
    "/enforcement/hearings/": ("manager",),
    "/messaging/outbox/": ("manager",),
    "/messaging/invitations/": ("manager",),
    "/messaging/reminders/": ("manager",),
    "/dashboard/queues/flags/": ("manager",),
    "/dashboard/queues/renewals/": ("manager",),
    "/notices/templates/": ("manager",),
    "/program/holidays/": ("manager",),
    "/program/rulesets/": ("manager",),
    "/notices/mail-run/": ("manager",),
}
# Lists that are not paged: the context variable holding their rows.
UNPAGED = {
    "/billing/licence-holds/": "rows",
    "/notices/templates/": "rows",
    "/program/holidays/": "holidays",
    "/program/rulesets/": "versions",
    "/notices/mail-run/": "rows",
}
NOTHING = "zz-no-such-thing-zz"
# Lists the small demo town leaves empty (nothing due for renewal yet, no remodel notice, no
# frequency request, no file imported): they are still checked, with no rows.
EMPTY_IN_DEMO = {
    "/permits/renewals/",
    "/permits/remodel/",
    "/servicing/frequency-requests/",
    "/servicing/imports/",
    "/spills/imports/",
    "/billing/licence-holds/",
    "/enforcement/hearings/",
    "/messaging/outbox/",
    "/messaging/invitations/",
    "/messaging/reminders/",
    "/dashboard/queues/renewals/",
    "/notices/mail-run/",
}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, _media_in_tmp):
    """The demo town with 8 establishments, built once for the module and rolled back after it."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            seed_demo(establishments=8, seed=1)
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    yield
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


def _client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _count(response) -> int:
    """How many rows the page says it lists: its paginator's count, or the length of an unpaged list."""
    if response.context.get("page") is not None:
        return response.context["page"].paginator.count
    path = response.wsgi_request.path
    return len(response.context[UNPAGED.get(path, "items")])


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def xlsx_rows(response) -> list[tuple]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)), read_only=True)
    return list(book.worksheets[0].values)


def _check(client, url: str, params: dict) -> int:
    """The page's count under `params`, and both exports holding exactly that many rows."""
    page = client.get(url, params)
    assert page.status_code == 200, f"{url} {params}: {page.status_code}"
    expected = _count(page)
    for fmt, read in (("csv", csv_rows), ("xlsx", xlsx_rows)):
        rows = read(client.get(url, {**params, "format": fmt}))
        header, body = rows[0], rows[1:]
        assert all(isinstance(label, str) and label for label in header), header
        assert len(body) == expected, f"{url} {params} as {fmt}: {len(body)} rows, the page counts {expected}"
    return expected


def _choice_filters(page) -> list[tuple[str, str]]:
    """One value of each choice filter the page offers (its first real option)."""
    if page.context.get("filter") is None:
        return []
    form = page.context["filter"].form
    picked = []
    for name, field in form.fields.items():
        choices = [value for value, _ in getattr(field, "choices", []) if value not in ("", None, "unknown")]
        if choices and not hasattr(field, "queryset"):
            picked.append((name, str(choices[0])))
    return picked


@pytest.mark.parametrize("url", list(LISTS))
def test_each_list_exports_the_rows_its_filters_select(demo, db, url):
    for username in LISTS[url]:
        client = _client(username)
        page = client.get(url)
        assert page.status_code == 200, f"{url} as {username}"
        assert b"format=csv" in page.content and b"format=xlsx" in page.content, (
            "the page links to both exports"
        )
        everything = _check(client, url, {})
        if username == "manager" and url not in EMPTY_IN_DEMO:
            assert everything, f"{url}: the demo town should give staff rows to export"
        for name, value in _choice_filters(page):
            assert _check(client, url, {name: value}) <= everything
        filterset = page.context.get("filter")
        if filterset is not None and "q" in filterset.form.fields:
            assert _check(client, url, {"q": NOTHING}) == 0


def test_an_outside_users_export_holds_only_its_own_records(demo, db):
    """Scoped as the page: the FSE's export of establishments is its own, never the whole registry."""
    staff = csv_rows(_client("manager").get("/registry/establishments/", {"format": "csv"}))
    own = csv_rows(_client("fse").get("/registry/establishments/", {"format": "csv"}))
    assert 1 <= len(own) - 1 < len(staff) - 1
    fse = get_user_model().objects.get(username="fse")
    names = {row[0] for row in own[1:]}
    assert names == set(fse.establishments.values_list("business_name", flat=True))


def test_the_export_holds_every_row_not_only_the_page_shown(demo, db):
    client = _client("manager")
    page = client.get("/registry/devices/", {"page": "1"})
    shown = len(page.context["page"].object_list)
    assert len(csv_rows(client.get("/registry/devices/", {"format": "csv", "page": "1"}))) - 1 == _count(page)
    assert shown <= _count(page)


def test_export_columns_are_words_not_codes(demo, db):
    rows = csv_rows(_client("manager").get("/registry/devices/", {"format": "csv"}))
    header, first = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert header[:2] == ["Device", "Kind"]
    assert first["Kind"] in {
        "Gravity grease interceptor",
        "Hydromechanical interceptor / grease trap",
        "Other approved device",
    }
    assert first["Status"] in {"In service", "Removed"}


def test_a_list_page_link_keeps_its_filters(demo, db):
    page = _client("manager").get("/registry/devices/", {"kind": "gravity_interceptor", "page": "1"})
    html = page.content.decode()
    assert "?kind=gravity_interceptor&amp;format=csv" in html
    assert "page=1&amp;format" not in html


# Staff pages that hold a table but are not a list of records to export, each with why. A new page
# with a table must either offer its export (render_list(..., export=...)) or be named here.
NOT_LISTS = {
    "/": "the staff home: figures, each linking to the list it counts (which exports)",
    "/billing/": "the Billing Clerk's work list: the first rows of several lists, each of which exports",
    "/billing/reports/": "billing's reports: totals for a period, not a list of records",
    "/enforcement/hearings/work-list/": "the Hearing Officer's work list: hearings, decisions and appeals "
    "due, each from the hearing and case lists, which export",
    "/reports/annual/": "the annual report: its own PDF and XLSX",
    "/reports/map/": "the map: its points export as GeoJSON",
    "/rules/": "the rules calculator: a worked answer, not a list",
    "/records/bmp/": "the BMP materials (C4, C7): printable sheets and signs, not a list of records",
}
# Where the crawl does not go: the API, the admin, signing in and out, the files themselves.
NOT_CRAWLED = ("api/", "admin/", "login/", "logout/", "password/")


def _routes(patterns, prefix=""):
    from django.urls import URLResolver

    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def staff_pages_without_arguments() -> list[str]:
    """Every page URL of the program that takes no argument (a list, a home, a form)."""
    from django.urls import get_resolver

    found = set()
    for route in _routes(get_resolver().url_patterns):
        if any(mark in route for mark in "<^($\\[") or route.startswith(NOT_CRAWLED):
            continue
        if not route.endswith("/") and route:
            continue
        found.add("/" + route)
    return sorted(found)


def test_every_staff_page_with_a_table_offers_its_export(demo, db):
    """So a new list cannot forget its export: every page a staff user opens (the FOG Manager, who
    sees every list) that shows a table links to its CSV and XLSX, or is named in NOT_LISTS."""
    client = _client("manager")
    missing, crawled = [], 0
    for url in staff_pages_without_arguments():
        response = client.get(url)
        if response.status_code != 200 or not response.get("Content-Type", "").startswith("text/html"):
            continue
        crawled += 1
        html = response.content.decode()
        if "<table" in html and url not in NOT_LISTS and "format=csv" not in html:
            missing.append(url)
    assert crawled > 40
    assert not missing, (
        f"pages with a table and no export (add export=, or name them in NOT_LISTS): {missing}"
    )
    assert set(LISTS) <= set(staff_pages_without_arguments())
