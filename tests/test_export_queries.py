"""An export's queries do not grow with its rows (issue 17): the rows are read in chunks with their
related records joined or prefetched per chunk, never one query per row. Counted exactly, at two
sizes, for lists that join (establishments, permits), annotate (parcels, haulers) and prefetch
(devices, the service status list); both the XLSX (built in the view) and the streamed CSV (its
queries run as the file is sent, so the whole body is read inside the count)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from fogcontrol.core.roles import Role
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_profile, town_today
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow, counted

pytestmark = pytest.mark.django_db

# The session and user, the list's own reads (its count for the page's links, the servicing
# page's status counts), then the rows: one query per list, one more per prefetch.
# One fewer each since 2026-12-01: an export builds no page count (core.views.paginate), so it
# is the same for an empty list as for a long one. The permit list reads the Town once since it
# reads the program once (`program_read_once`; 5 before).
LISTS = {
    "/registry/establishments/": 4,
    "/registry/devices/": 5,
    "/registry/parcels/": 4,
    "/registry/haulers/": 4,
    "/permits/list/": 4,
    "/servicing/": 9,
}


def _add_rows(town):
    def add(n):
        for _ in range(n):
            fse = factories.EstablishmentFactory()
            device = factories.DeviceFactory(establishments=[fse], parcel=fse.parcel)
            DeviceServiceState.objects.create(
                device=device, status="compliant", status_on=town_today(), frequency_days=90,
                next_due=town_today() + dt.timedelta(days=30),
            )  # fmt: skip
            factories.HaulerCompanyFactory()
            PermitFactory(establishment=fse, device=device)

    return add


def test_an_xlsx_exports_queries_do_not_grow(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    lists = {f"{url}?format=xlsx": n for url, n in LISTS.items()}
    assert_queries_do_not_grow(client, _add_rows(town), lists, grows=False)


def _csv_queries(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, {"format": "csv"})
        body = b"".join(response.streaming_content)
    assert response.status_code == 200 and body
    return counted(captured.captured_queries)


@pytest.mark.parametrize("url", list(LISTS))
def test_a_streamed_csvs_queries_do_not_grow(town, client, url):
    client.force_login(town.users[Role.FOG_MANAGER])
    _csv_queries(client, url)  # fills per-process caches, as assert_queries_do_not_grow does
    small = _csv_queries(client, url)
    _add_rows(town)(5)
    large = _csv_queries(client, url)
    assert len(small) == len(large), "\n".join(large)
    assert len(small) == LISTS[url], "\n".join(small)


def test_a_cell_that_starts_like_a_formula_is_text_in_both_formats(town, client):
    """The one formula-safe writer (core/csv_export.py) guards the CSV and the XLSX alike."""
    town.own_fse.business_name = '=HYPERLINK("http://evil.example","Click")'
    town.own_fse.save()
    client.force_login(town.users[Role.FOG_MANAGER])
    body = b"".join(client.get("/registry/establishments/", {"format": "csv"}).streaming_content).decode()
    names = [row[0] for row in csv.reader(io.StringIO(body))]
    assert '\'=HYPERLINK("http://evil.example","Click")' in names
    response = client.get("/registry/establishments/", {"format": "xlsx"})
    sheet = load_workbook(io.BytesIO(b"".join(response.streaming_content))).worksheets[0]
    cells = [row[0] for row in sheet.iter_rows(values_only=True)]
    assert '\'=HYPERLINK("http://evil.example","Click")' in cells
    assert not any(isinstance(cell, str) and cell.startswith("=") for cell in cells)


def test_a_streamed_csv_gives_times_in_the_towns_zone(town, client):
    """The CSV is written after the view returns, when the Town's zone is no longer active: the
    export keeps the zone it was asked in (a Town in New York, a server in Los Angeles)."""
    profile = town_profile()
    profile.time_zone = "America/New_York"
    profile.save()
    manifest = submit(town.users[Role.HAULER], town.own_device)
    client.force_login(town.users[Role.FOG_MANAGER])
    body = b"".join(client.get("/servicing/manifests/", {"format": "csv"}).streaming_content).decode()
    rows = {row[0]: row for row in csv.reader(io.StringIO(body))}
    expected = manifest.serviced_at.astimezone(ZoneInfo("America/New_York")).strftime("%Y-%m-%d %H:%M")
    assert rows[manifest.manifest_number][1] == expected
