"""Issue 20, "A job interrupted on one worker is resumed by another, and runs safely again": on RQ, a
manifest CSV import whose worker is killed with SIGKILL half-way is put back in the queue by the
next worker's housekeeping (`requeue_stuck`, fogcontrol/core/queue_rq.py) and resumed from its
saved progress (servicing/import_resume.py): every row is submitted once, the report has every
row once, and the copy-of-record chain verifies.

Real processes (fogcontrol/testing/servers.py): `fogcontrol rqworker` with the housekeeping worker
class, on a copy of the test database, against the local Redis. A worker silent for 3 s is taken for
dead here (FOGCONTROL_WORKER_STALE_MINUTES=0.05), so the test is bounded (`WHOLE_TEST_SECONDS`).
PostgreSQL and Redis only (CI's PostgreSQL pass; without Redis it fails in CI, skips elsewhere).
"""

from __future__ import annotations

import csv
import io

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.servicing.imports import ROWS_PER_TRANSACTION
from fogcontrol.servicing.tests.helpers import days_ago
from fogcontrol.servicing.tests.test_imports import csv_file, row
from fogcontrol.testing.servers import RQWorker, installed_copy, needs_postgresql, running, wait_until
from fogcontrol.testing.town import build_small_town

pytestmark = [needs_postgresql(), pytest.mark.django_db(transaction=True, serialized_rollback=True)]

ROWS = 4 * ROWS_PER_TRANSACTION
WHOLE_TEST_SECONDS = 60
QUICK_DEATH = {"FOGCONTROL_WORKER_STALE_MINUTES": "0.05", "FOGCONTROL_WORKER_BEAT_SECONDS": "0.5"}

QUEUE_IMPORT = """
from pathlib import Path
from django.core.files.uploadedfile import SimpleUploadedFile
from fogcontrol.accounts.models import User
from fogcontrol.servicing.imports import manifest_import_create, manifest_import_enqueue
upload = SimpleUploadedFile("manifests.csv", Path({path!r}).read_bytes(), content_type="text/csv")
record = manifest_import_create(acting_user=User.objects.get(username={user!r}), upload=upload, dry_run=False)
manifest_import_enqueue(record)
print(record.pk)
"""


@pytest.fixture
def rq_copy(tmp_path):
    town = build_small_town()
    rows = [
        row(
            town.own_device,
            f"RQ-{i}",
            serviced_at=days_ago(900 - i // 3, hour=6 + i % 3 * 4).strftime("%Y-%m-%d %H:%M"),
        )
        for i in range(ROWS)
    ]
    upload = tmp_path / "manifests.csv"
    upload.write_bytes(csv_file(rows).read())
    with installed_copy(tmp_path, rq=True, **QUICK_DEATH) as copy:
        yield copy, upload, town.users[Role.HAULER].username


def _rq(copy):
    import redis
    from rq import Queue

    from fogcontrol.core.queue_rq import ATTEMPTS

    connection = redis.Redis.from_url(copy.env["REDIS_URL"])
    return Queue("default", connection=connection), ATTEMPTS


def _import(copy) -> tuple:
    return copy.query(
        "SELECT status, rows_total, rows_accepted, rows_rejected, report FROM servicing_manifestimport"
    )[0]


@pytest.mark.provision("F1")
def test_an_import_whose_rq_worker_is_killed_mid_job_is_resumed_by_another_worker_each_row_once(rq_copy):
    copy, upload, hauler = rq_copy
    queued = copy.command("shell", "-c", QUEUE_IMPORT.format(path=str(upload), user=hauler))
    assert queued.returncode == 0, queued.stderr

    killed, next_worker = RQWorker(copy, worker_name="rq-killed"), RQWorker(copy, worker_name="rq-next")
    with running(killed):
        # Killed once a chunk or more is committed, well before the last one.
        wait_until(
            lambda: _import(copy)[1] >= ROWS_PER_TRANSACTION,
            seconds=WHOLE_TEST_SECONDS,
            what="the import did not commit its first chunk",
            processes=[killed],
        )
        killed.kill()
    status, rows_at_kill, *_ = _import(copy)
    assert status == "running" and 0 < rows_at_kill < ROWS, (status, rows_at_kill)

    with running(next_worker):
        wait_until(
            lambda: _import(copy)[0] == "done",
            seconds=WHOLE_TEST_SECONDS,
            what="the import was not resumed and finished",
            processes=[next_worker],
        )
    log = killed.log_tail() + next_worker.log_tail()

    status, total, accepted, rejected, report = _import(copy)
    assert (status, total, accepted + rejected) == ("done", ROWS, ROWS), log
    stored = dict(copy.query("SELECT manifest_number, COUNT(*) FROM servicing_manifest GROUP BY 1"))
    assert len(stored) == accepted and set(stored.values()) == {1}, "a row submitted twice"
    (problems,) = copy.query("SELECT COUNT(DISTINCT row_number) FROM servicing_manifestimportproblem")
    assert problems[0] == rejected
    with (copy.data_dir / "media" / report).open(newline="") as handle:
        lines = list(csv.DictReader(io.StringIO(handle.read())))
    assert [line["row"] for line in lines] == [str(n) for n in range(2, ROWS + 2)], "every row once, in order"
    assert sum(line["outcome"] == "accepted" for line in lines) == accepted

    queue, attempts = _rq(copy)
    (job_id,) = [
        job_id
        for job_id in queue.finished_job_registry.get_job_ids()
        if queue.fetch_job(job_id).func_name == "fogcontrol.servicing.tasks.run_manifest_import"
    ]
    assert queue.fetch_job(job_id).meta[attempts] == 2, log  # run once more, by rq-next
    assert queue.failed_job_registry.get_job_ids() == []

    verified = copy.command("verify_records")
    assert verified.returncode == 0 and "All records verify." in verified.stdout, (
        verified.stdout + verified.stderr
    )
