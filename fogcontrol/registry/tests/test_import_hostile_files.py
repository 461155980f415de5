"""Hostile and broken uploads to the licence import (issue 15, findings 1, 2 and 10).

Every file here is refused with a 4xx and a message saying what is wrong, quickly; none leaves an
import or a file behind; and reading a file never holds the database's write lock.
"""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, connection

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.registry.imports import services
from fogcontrol.registry.imports.testing import HEADER, XLSX_TYPE, csv_upload, xlsx_upload
from fogcontrol.registry.models import LicenceImport
from fogcontrol.testing import hostile_files

pytestmark = pytest.mark.django_db
URL = "/api/v1/imports/licences/"
# The bound for each hostile file; the default reading deadline is below it.
QUICKLY_SECONDS = 10


def _kept_files() -> set[Path]:
    root = Path(settings.MEDIA_ROOT) / "imports"
    return {path for path in root.rglob("*") if path.is_file()} if root.exists() else set()


@pytest.fixture(scope="module")
def corpus() -> dict[str, SimpleUploadedFile]:
    """The hostile workbooks, built once (a few seconds): small on disk, huge when opened."""
    xlsx = {
        "shared strings bomb (400 MB)": hostile_files.shared_strings_bomb(400),
        "five million rows": hostile_files.endless_sheet(5_000_000),
        "compressed 400 times": hostile_files.compressed_too_well(40),
        "declares five million rows": hostile_files.sheet_declaring("A1:C5000000"),
        "declares 16,384 columns": hostile_files.sheet_declaring("A1:XFD2"),
        "rows jump to 1,048,576": hostile_files.sheet_with_a_row_gap(),
        "zip, not a workbook": hostile_files.zip_not_a_workbook(),
    }
    files = {name: ("hostile.xlsx", data, XLSX_TYPE) for name, data in xlsx.items()}
    files.update(
        {
            "random bytes named .csv": ("licences.csv", hostile_files.garbage(), "text/csv"),
            "a 2 MB first line": ("licences.csv", hostile_files.csv_with_a_huge_first_line(), "text/csv"),
            "1,002 columns": ("licences.csv", hostile_files.csv_with_columns(1000), "text/csv"),
        }
    )
    return files


EXPECTED = {
    "shared strings bomb (400 MB)": "xl/sharedStrings.xml expands to 399.1 MB; the most accepted is 64.0 MB",
    "five million rows": "xl/worksheets/sheet1.xml expands to",
    "compressed 400 times": "no spreadsheet compresses more than 200 times",
    "declares five million rows": "at most 250,000 rows below the header; this sheet declares 4,999,999",
    "declares 16,384 columns": "The file has 16,384 columns; at most 256",
    "rows jump to 1,048,576": "at most 250,000 rows below the header",
    "zip, not a workbook": "zip archive but not an Excel workbook",
    "random bytes named .csv": "The file is not text",
    "a 2 MB first line": "The first line is longer than 1,048,576 characters",
    "1,002 columns": "The file has 1,002 columns; at most 256",
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_hostile_file_is_refused_quickly_with_a_clear_message(town, corpus, name):
    filename, data, content_type = corpus[name]
    before = _kept_files()
    client = api_as(town.users[Role.FOG_MANAGER])
    assert client.get(URL).status_code == 200  # the first request's start-up is not the file's cost
    started = time.monotonic()
    response = client.post(
        URL, {"file": SimpleUploadedFile(filename, data, content_type)}, format="multipart"
    )
    elapsed = time.monotonic() - started
    assert response.status_code == 400, response.content[:500]
    assert EXPECTED[name] in response.json()["file"][0]
    assert "Choose the column" not in json.dumps(response.json())
    assert elapsed < QUICKLY_SECONDS
    assert not LicenceImport.objects.exists()
    assert _kept_files() == before


def test_the_bomb_is_refused_without_inflating_it(town, corpus):
    """The audit's 410 KB bomb took the server from 225 MB to 4.57 GB: now it is never opened."""
    filename, data, content_type = corpus["shared strings bomb (400 MB)"]
    client = api_as(town.users[Role.FOG_MANAGER])
    tracemalloc.start()
    try:
        response = client.post(
            URL, {"file": SimpleUploadedFile(filename, data, content_type)}, format="multipart"
        )
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert response.status_code == 400
    assert peak < 10 * len(data) + 20 * 1024 * 1024  # a few copies of the upload, never its 400 MB


def test_a_hostile_workbook_gets_its_message_beside_the_field_on_the_page(town, client, corpus):
    client.force_login(town.users[Role.FOG_MANAGER])
    filename, data, content_type = corpus["shared strings bomb (400 MB)"]
    response = client.post(
        "/registry/imports/new/", {"file": SimpleUploadedFile(filename, data, content_type)}
    )
    assert response.status_code == 400
    assert "expands to 399.1 MB" in response.content.decode()


def test_garbage_is_called_garbage_not_a_missing_column(town, client):
    """Random bytes after a plausible first word read as a CSV whose mapping lacked a column."""
    upload = SimpleUploadedFile("licences.csv", hostile_files.garbage(), "text/csv")
    response = api_as(town.users[Role.FOG_MANAGER]).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert list(response.json()) == ["file"]
    assert "The file is not text" in response.json()["file"][0]

    client.force_login(town.users[Role.FOG_MANAGER])
    upload = SimpleUploadedFile("licences.csv", hostile_files.garbage(), "text/csv")
    page = client.post("/registry/imports/new/", {"file": upload})
    assert page.status_code == 400 and "The file is not text" in page.content.decode()
    assert not LicenceImport.objects.exists()


def test_a_text_file_that_is_not_the_export_says_so_not_choose_the_column(town):
    upload = csv_upload([["device", "manifest_number", "serviced_at"], ["GI-1", "T-1", "2025-03-14 09:30"]])
    response = api_as(town.users[Role.FOG_MANAGER]).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 400
    message = response.json()["file"][0]
    assert "None of the columns of the file's first row looks like a licence number" in message
    assert '"device", "manifest_number", "serviced_at"' in message


def test_reading_a_workbook_stops_at_the_deadline(town, settings):
    settings.FOGCONTROL_UPLOAD_READ_SECONDS = 0.000001
    upload = xlsx_upload([HEADER, ["BL-1", "Diner", "1 Main St", "", "", ""]])
    response = api_as(town.users[Role.FOG_MANAGER]).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "Reading the file took longer than 1e-06 seconds" in response.json()["file"][0]


def test_a_sheet_that_does_not_declare_its_size_is_counted_at_upload(town, settings):
    settings.FOGCONTROL_XLSX_MAX_ROWS = 50
    upload = SimpleUploadedFile("licences.xlsx", hostile_files.rows_without_dimension(60), XLSX_TYPE)
    response = api_as(town.users[Role.FOG_MANAGER]).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "at most 50 rows below the header" in response.json()["file"][0]
    settings.FOGCONTROL_XLSX_MAX_ROWS = 60
    upload = SimpleUploadedFile("licences.xlsx", hostile_files.rows_without_dimension(60), XLSX_TYPE)
    response = api_as(town.users[Role.FOG_MANAGER]).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 201, response.json()


# --- no lock held while reading; nothing left behind ------------------------------------------


@pytest.fixture
def transactions_open_while(monkeypatch):
    """How many transactions (beyond the test's own) were open at each read of the workbook and
    each write of a file to storage."""
    baseline = len(connection.savepoint_ids)
    seen: dict[str, list[int]] = {"reading": [], "storing": []}
    import openpyxl

    real_load, real_save = openpyxl.load_workbook, FileSystemStorage._save

    def load(*args, **kwargs):
        seen["reading"].append(len(connection.savepoint_ids) - baseline)
        return real_load(*args, **kwargs)

    def save(self, name, content):
        seen["storing"].append(len(connection.savepoint_ids) - baseline)
        return real_save(self, name, content)

    monkeypatch.setattr(openpyxl, "load_workbook", load)
    monkeypatch.setattr(FileSystemStorage, "_save", save)
    return seen


def test_the_upload_reads_and_stores_the_workbook_outside_any_transaction(
    town, client, transactions_open_while, django_capture_on_commit_callbacks
):
    """SQLite's one write lock is taken when a transaction begins: a 58 s read under it made
    every other writer fail with "database is locked" (finding 1)."""
    table = [HEADER, ["BL-1", "Diner", "1 Main St", "", "", ""]]
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as(town.users[Role.FOG_MANAGER]).post(
            URL, {"file": xlsx_upload(table)}, format="multipart"
        )
    assert response.status_code == 201
    client.force_login(town.users[Role.INSPECTOR])
    assert client.post("/registry/imports/new/", {"file": xlsx_upload(table)}).status_code == 302
    # Two uploads (API, page) and the API's dry run read the workbook; two uploads stored it.
    assert transactions_open_while["reading"] == [0, 0, 0]
    assert transactions_open_while["storing"] == [0, 0]


@pytest.mark.parametrize(
    "data, status",
    [
        ({"mapping": json.dumps({"licence_number": "Licence No", "business_name": "Nope"})}, 400),
        ({"mapping": json.dumps({"business_name": "Business Name"})}, 400),
        ({"dry_run": "false"}, 403),  # an inspector may not apply
    ],
)
def test_a_refused_upload_leaves_no_file_on_disk(town, data, status):
    before = _kept_files()
    upload = csv_upload([HEADER, ["BL-1", "Diner", "1 Main St", "", "", ""]])
    response = api_as(town.users[Role.INSPECTOR]).post(URL, {"file": upload, **data}, format="multipart")
    assert response.status_code == status
    assert not LicenceImport.objects.exists()
    assert _kept_files() == before


def test_a_failed_insert_deletes_the_stored_file(town, monkeypatch):
    before = _kept_files()

    def locked(self, *args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(LicenceImport, "save", locked)
    with pytest.raises(OperationalError):
        services.licence_import_upload(
            acting_user=town.users[Role.FOG_MANAGER],
            uploaded_file=csv_upload([HEADER, ["BL-1", "Diner", "1 Main St", "", "", ""]]),
        )
    assert _kept_files() == before
