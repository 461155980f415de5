"""Issue 20, "Tasks on RQ": with `FOGCONTROL_TASKS=rq` the background work runs on a real RQ worker
against Redis, not at once: a licence import's dry run, a print batch of the certified mail run, the
e-mails, and the nightly sweep, which the worker queues by itself at the Town's time. With two
workers, one day gives one sweep and one set of reminders.

The workers are `fogcontrol rqworker --job-class django_tasks_rq.Job --worker-class
fogcontrol.worker.rq_worker.HousekeepingWorker` processes (fogcontrol/testing/servers.py) on a copy
of the test database; Redis is the local one, on a database number of its own
(`redis_for_tests`). PostgreSQL only: CI's PostgreSQL pass runs it, with Redis (without Redis
the test fails in CI and is skipped elsewhere).
"""

from __future__ import annotations

import pytest

from fogcontrol.messaging.tests.helpers import service_due
from fogcontrol.testing.servers import RQWorker, installed_copy, needs_postgresql, running, wait_until
from fogcontrol.testing.town import build_small_town

pytestmark = [needs_postgresql(), pytest.mark.django_db(transaction=True, serialized_rollback=True)]

WAIT_SECONDS = 40

QUEUE_IMPORT = """
from django.core.files.uploadedfile import SimpleUploadedFile
from fogcontrol.accounts.models import User
from fogcontrol.registry.imports import services
from fogcontrol.registry.imports.testing import HEADER, csv_bytes
rows = [HEADER, ["CL-1", "Blue Plate Diner", "120 Main St", "6/30/2027", "", ""], ["", "Nameless", "", "", "", ""]]
upload = SimpleUploadedFile("licences.csv", csv_bytes(rows), content_type="text/csv")
done = services.licence_import_upload_and_start(
    acting_user=User.objects.get(username="fog_manager"), uploaded_file=upload, mapping=None, apply=False
)
print("import", done.pk)
"""

QUEUE_PRINT_BATCH = """
from fogcontrol.accounts.models import User
from fogcontrol.notices.services import document_issue
from fogcontrol.notices.services.batches import print_batch_start
from fogcontrol.registry.models import FoodServiceEstablishment
manager = User.objects.get(username="fog_manager")
letters = [
    document_issue(
        acting_user=manager, key="general_letter", establishment=establishment,
        addressee=establishment.business_name, context={"business_name": establishment.business_name,
        "body_text": "Your hearing is set."}, service_method="certified_mail",
        article_number=f"9407 1000 0000 000{n}", served_on=None,
    )
    for n, establishment in enumerate(FoodServiceEstablishment.objects.order_by("pk")[:2])
]
print("batch", print_batch_start(acting_user=manager, documents=letters).pk)
"""

QUEUE_SWEEP_TWICE = """
from fogcontrol.program.selectors import town_today
from fogcontrol.worker.tasks import run_nightly_sweep
from fogcontrol.worker.scheduler import sweep_due_day
from django.utils import timezone
day = sweep_due_day(timezone.now()).isoformat()
print([run_nightly_sweep.enqueue(day=day).id for _ in range(2)])
"""


@pytest.fixture
def rq_copy(tmp_path):
    town = build_small_town()
    service_due(town.own_device, 5)  # reminders are due: the sweep e-mails them
    with installed_copy(tmp_path, rq=True) as copy:
        yield copy


def _queue(copy):
    """RQ's view of the jobs: (finished job ids, failed job ids, queued or running count)."""
    import redis
    from rq import Queue

    connection = redis.Redis.from_url(copy.env["REDIS_URL"])
    queue = Queue("default", connection=connection)
    return (
        queue.finished_job_registry.get_job_ids(),
        queue.failed_job_registry.get_job_ids(),
        queue.count + queue.started_job_registry.count,
        connection,
    )


def _wait_until(check, workers, what: str) -> None:
    wait_until(check, seconds=WAIT_SECONDS, what=what, processes=workers)


def _sweep_finished(copy) -> bool:
    return bool(copy.query("SELECT 1 FROM worker_sweeprun WHERE finished_at IS NOT NULL"))


def _all_done(copy) -> bool:
    """The sweep finished, and every job RQ holds has finished or failed (a job just taken from
    the queue is in neither the queue nor the started registry for a moment: its status says)."""
    *_, connection = _queue(copy)
    statuses = [
        connection.hget(key, "status") for key in connection.scan_iter("rq:job:*") if b":" not in key[7:]
    ]
    return _sweep_finished(copy) and bool(statuses) and all(s in (b"finished", b"failed") for s in statuses)


def _mails(copy) -> list[str]:
    folder = copy.data_dir / "mail"
    text = "".join(path.read_text() for path in folder.glob("*.log")) if folder.exists() else ""
    return [line for line in text.splitlines() if line.startswith("To: ")]


def _job_functions(copy, ids) -> list[str]:
    from rq.job import Job

    *_, connection = _queue(copy)
    return sorted(Job.fetch(job_id, connection=connection).func_name for job_id in ids)


def test_a_licence_import_a_print_batch_e_mails_and_the_nightly_sweep_run_on_a_real_rq_worker(rq_copy):
    copy = rq_copy
    for script in (QUEUE_IMPORT, QUEUE_PRINT_BATCH):
        queued = copy.command("shell", "-c", script)
        assert queued.returncode == 0, queued.stderr
    # Queued in Redis, not run at once: nothing has run them yet.
    assert copy.query("SELECT status FROM registry_licenceimport") == [("queued",)]
    assert copy.query("SELECT status, rendered FROM notices_printbatch") == [("queued", 0)]
    assert _queue(copy)[2] == 2

    with running(RQWorker(copy, worker_name="rq-only")) as workers:
        _wait_until(lambda: _all_done(copy), workers, "the import, the sweep and its e-mails did not finish")

    assert copy.query("SELECT status, running_dry FROM registry_licenceimport") == [("checked", True)]
    assert copy.query(
        "SELECT COUNT(*) FROM registry_foodserviceestablishment WHERE licence_number = 'CL-1'"
    ) == [(0,)], "a dry run changes nothing"
    finished, failed, _, _ = _queue(copy)
    assert failed == []
    functions = _job_functions(copy, finished)
    assert functions.count("fogcontrol.registry.imports.tasks.run_licence_import") == 1
    assert functions.count("fogcontrol.notices.tasks.render_print_batch") == 1
    assert copy.query("SELECT status, rendered = total, total > 0 FROM notices_printbatch") == [
        ("done", True, True)
    ]
    assert functions.count("fogcontrol.worker.tasks.run_nightly_sweep") == 1  # queued by the worker itself
    assert "fogcontrol.messaging.tasks.send_messages" in functions
    # The sweep ran under the worker's name, and its reminders went out by e-mail, each once.
    assert copy.query("SELECT owner, started_at IS NOT NULL FROM worker_sweeprun") == [("", True)]
    sent = copy.query("SELECT to_email FROM messaging_message WHERE status = 'sent' ORDER BY to_email")
    assert len(sent) >= 3 and sorted(_mails(copy)) == sorted(f"To: {to}" for (to,) in sent)


def test_two_rq_workers_and_one_day_give_one_sweep_and_one_set_of_reminders(rq_copy):
    copy = rq_copy
    # The day's sweep queued twice more besides the workers' own scheduling (a hand, a cron).
    queued = copy.command("shell", "-c", QUEUE_SWEEP_TWICE)
    assert queued.returncode == 0, queued.stderr
    with running(RQWorker(copy, worker_name="rq-a"), RQWorker(copy, worker_name="rq-b")) as workers:
        _wait_until(lambda: _all_done(copy), workers, "the sweeps and their e-mails did not finish")

    finished, failed, _, _ = _queue(copy)
    assert failed == []
    assert _job_functions(copy, finished).count("fogcontrol.worker.tasks.run_nightly_sweep") == 3
    assert copy.query("SELECT COUNT(*) FROM worker_sweeprun") == [(1,)]
    steps = copy.query("SELECT name, status, attempts FROM worker_sweepstep ORDER BY name")
    assert steps and all(status == "done" and attempts == 1 for _, status, attempts in steps), steps
    assert "reminders" in [name for name, _, _ in steps]
    sent = copy.query("SELECT to_email, kind FROM messaging_message ORDER BY to_email")
    assert len(sent) >= 3 and len(set(sent)) == len(sent), "one set of reminders"
    assert sorted(_mails(copy)) == sorted(f"To: {to}" for to, _ in sent), "each e-mailed once"
    # Both workers were up and beating: the sweep was theirs to share, and one ran it.
    beats = copy.query("SELECT worker_id FROM core_workerheartbeat WHERE worker_id LIKE 'rq-%' ORDER BY 1")
    assert beats == [("rq-a",), ("rq-b",)]
