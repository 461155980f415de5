"""Issue 20: a manifest CSV import whose worker died half-way goes on from its saved progress when
its job is run again: every row is submitted once, and the report still has every row
(servicing/import_resume.py). tests/test_rq_requeue.py kills a real RQ worker in one."""

import pytest

import fogcontrol.servicing.imports as imports_module
from fogcontrol.core.roles import Role
from fogcontrol.servicing.import_resume import ImportRunOverlap, chunk_committed
from fogcontrol.servicing.imports import manifest_import_create, manifest_import_run
from fogcontrol.servicing.models import Manifest, ManifestImport
from fogcontrol.servicing.tests.helpers import days_ago
from fogcontrol.servicing.tests.test_imports import csv_file, report_rows, row


class Killed(BaseException):
    """The worker's process ending mid-chunk (kill -9): no `except Exception` sees it."""


def _rows(town) -> list[dict]:
    rows = [
        row(town.own_device, f"K-{i}", serviced_at=days_ago(90 - i).strftime("%Y-%m-%d %H:%M"))
        for i in range(7)
    ]
    rows[1] = row(town.own_device, "K-1", serviced_at="yesterday")  # rejected
    rows[2]["baffles_cleaned"] = "no"  # accepted, flagged
    return rows


@pytest.fixture
def two_row_chunks(monkeypatch):
    monkeypatch.setattr(imports_module, "ROWS_PER_TRANSACTION", 2)


def _killed_on_chunk(monkeypatch, number: int) -> None:
    real, calls = imports_module.manifests_ingest, []

    def ingest(**kwargs):
        calls.append(1)
        if len(calls) == number:
            raise Killed
        return real(**kwargs)

    monkeypatch.setattr(imports_module, "manifests_ingest", ingest)


def test_an_import_killed_half_way_resumes_from_its_saved_progress_each_row_once(
    town, two_row_chunks, monkeypatch
):
    hauler = town.users[Role.HAULER]
    record = manifest_import_create(acting_user=hauler, upload=csv_file(_rows(town)), dry_run=False)
    _killed_on_chunk(monkeypatch, 3)  # rows 1-4 committed (two chunks), the third chunk rolled back
    with pytest.raises(Killed):
        manifest_import_run(import_id=record.pk)
    record.refresh_from_db()
    assert (record.status, record.rows_total, record.rows_accepted, record.rows_rejected) == (
        "running",
        4,
        3,
        1,
    )
    assert Manifest.objects.count() == 3

    monkeypatch.undo()
    monkeypatch.setattr(imports_module, "ROWS_PER_TRANSACTION", 2)
    record = manifest_import_run(import_id=record.pk)  # the job run again, by another worker
    assert (record.status, record.rows_total, record.rows_accepted, record.rows_rejected) == ("done", 7, 6, 1)
    assert record.rows_flagged >= 1
    numbers = sorted(Manifest.objects.values_list("manifest_number", flat=True))
    assert numbers == [f"K-{i}" for i in range(7) if i != 1], "every row once"
    assert [(p.row_number, p.field) for p in record.problems.all()] == [(3, "serviced_at")]
    report = report_rows(record)
    assert [r["row"] for r in report] == [str(n) for n in range(2, 9)]
    assert [r["outcome"] for r in report] == ["accepted", "rejected"] + ["accepted"] * 5
    ids = dict(Manifest.objects.values_list("manifest_number", "pk"))
    assert [r["manifest_id"] for r in report] == [str(ids.get(r["manifest_number"], "")) for r in report]
    assert "'yesterday' is not a date and time" in report[1]["problems"]
    assert "baffles_not_cleaned" in report[2]["flags"]

    assert manifest_import_run(import_id=record.pk).rows_total == 7  # done: left as it is
    assert Manifest.objects.count() == 6


def test_a_dry_run_killed_half_way_starts_again_from_the_first_row(town, two_row_chunks, monkeypatch):
    record = manifest_import_create(
        acting_user=town.users[Role.HAULER], upload=csv_file(_rows(town)), dry_run=True
    )
    real, calls = imports_module._one_row, []

    def one_row(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            raise Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(imports_module, "_one_row", one_row)
    with pytest.raises(Killed):
        manifest_import_run(import_id=record.pk)
    monkeypatch.setattr(imports_module, "_one_row", real)
    record = manifest_import_run(import_id=record.pk)
    assert (record.status, record.rows_total, record.rows_accepted, record.rows_rejected) == ("done", 7, 6, 1)
    assert record.problems.count() == 1 and Manifest.objects.count() == 0
    assert len(report_rows(record)) == 7


def test_a_second_run_of_the_same_import_cannot_commit_rows_the_first_committed(town):
    record = manifest_import_create(
        acting_user=town.users[Role.HAULER], upload=csv_file(_rows(town)), dry_run=False
    )
    ManifestImport.objects.filter(pk=record.pk).update(rows_total=4)  # the other run went on
    record.rows_total = 6
    with pytest.raises(ImportRunOverlap):
        chunk_committed(record, rows_before=2)
    assert ManifestImport.objects.get(pk=record.pk).rows_total == 4
