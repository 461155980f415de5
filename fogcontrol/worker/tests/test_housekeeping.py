"""The worker's housekeeping (issue #17): the sweep queued at the Town's time without cron, once a
day and after the machine was off; a dead worker seen; the jobs it left running requeued."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from fogcontrol.core import sweep as registry
from fogcontrol.core.models import WorkerHeartbeat
from fogcontrol.core.queue import QueueHealth, queue_health, requeue_stuck, worker_beat, worker_stopped
from fogcontrol.program.selectors import town_profile
from fogcontrol.worker.housekeeping import housekeeping_tick
from fogcontrol.worker.models import SweepRun
from fogcontrol.worker.scheduler import schedule_due_sweep, sweep_due_day

pytestmark = pytest.mark.django_db

LA = ZoneInfo("America/Los_Angeles")
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def town_time(day: int, hour: int, minute: int = 0) -> dt.datetime:
    """A moment in the Town's time zone, March 2026."""
    return dt.datetime(2026, 3, day, hour, minute, tzinfo=LA)


@pytest.fixture
def swept(monkeypatch) -> list[dt.date]:
    """The days the sweep ran (its steps replaced by one that records the day)."""
    days: list[dt.date] = []

    def record(*, on, acting_user):
        days.append(on)

    monkeypatch.setattr(registry, "_steps", {"record": registry.SweepStep("record", 1, record)})
    return days


def tick(now, django_capture_on_commit_callbacks):
    """One scheduler tick at `now`; queued tasks run at once (the tests' task backend)."""
    with django_capture_on_commit_callbacks(execute=True):
        return schedule_due_sweep(now=now)


def test_the_sweep_runs_at_the_towns_time_once_a_day(swept, django_capture_on_commit_callbacks):
    SweepRun.objects.create(day=dt.date(2026, 3, 9), finished_at=timezone.now())  # yesterday's ran
    assert tick(town_time(10, 1, 59), django_capture_on_commit_callbacks) is None
    assert tick(town_time(10, 2, 0), django_capture_on_commit_callbacks) == dt.date(2026, 3, 10)
    assert tick(town_time(10, 2, 1), django_capture_on_commit_callbacks) is None
    assert tick(town_time(10, 23, 0), django_capture_on_commit_callbacks) is None
    assert tick(town_time(11, 2, 30), django_capture_on_commit_callbacks) == dt.date(2026, 3, 11)
    assert swept == [dt.date(2026, 3, 10), dt.date(2026, 3, 11)]
    assert SweepRun.objects.get(day=dt.date(2026, 3, 11)).finished_at is not None


def test_a_machine_off_at_sweep_time_catches_up_when_it_starts(swept, django_capture_on_commit_callbacks):
    SweepRun.objects.create(day=dt.date(2026, 3, 9), finished_at=timezone.now())
    # Off from the 9th in the evening until the 13th at 01:00: the 12th's sweep is the one due.
    assert tick(town_time(13, 1, 0), django_capture_on_commit_callbacks) == dt.date(2026, 3, 12)
    assert tick(town_time(13, 2, 0), django_capture_on_commit_callbacks) == dt.date(2026, 3, 13)
    assert swept == [dt.date(2026, 3, 12), dt.date(2026, 3, 13)]


def test_the_time_is_the_towns_setting_in_its_time_zone(swept, django_capture_on_commit_callbacks):
    profile = town_profile()
    profile.nightly_sweep_at = dt.time(23, 30)
    profile.save()
    # 23:30 in Los Angeles is 06:30 or 07:30 UTC the next day: the Town's date counts.
    assert sweep_due_day(town_time(10, 23, 29)) == dt.date(2026, 3, 9)
    assert sweep_due_day(town_time(10, 23, 30)) == dt.date(2026, 3, 10)
    assert sweep_due_day(town_time(10, 23, 30).astimezone(dt.UTC)) == dt.date(2026, 3, 10)


def test_a_day_swept_by_hand_is_not_queued_again(swept, django_capture_on_commit_callbacks):
    SweepRun.objects.create(day=dt.date(2026, 3, 10), finished_at=timezone.now())
    assert tick(town_time(10, 3, 0), django_capture_on_commit_callbacks) is None
    assert swept == []


def test_two_workers_ticking_queue_the_day_once(swept, django_capture_on_commit_callbacks):
    SweepRun.objects.create(day=dt.date(2026, 3, 9), finished_at=timezone.now())
    now = town_time(10, 2, 0)
    assert [tick(now, django_capture_on_commit_callbacks) for _ in range(2)] == [dt.date(2026, 3, 10), None]
    assert swept == [dt.date(2026, 3, 10)]


def _running_job(worker_id: str, started_at: dt.datetime) -> DBTaskResult:
    return DBTaskResult.objects.create(
        status=TaskResultStatus.RUNNING,
        args_kwargs={"args": [], "kwargs": {"licence_import_id": 1}},
        task_path="fogcontrol.registry.imports.tasks.run_licence_import",
        backend_name="default",
        run_after=timezone.now(),
        started_at=started_at,
        worker_ids=[worker_id],
    )


def test_a_job_left_running_by_a_dead_worker_is_requeued_by_the_next_one(settings):
    settings.TASKS = DB_TASKS
    now = timezone.now()
    worker_beat("dead-worker", now=now - dt.timedelta(minutes=30))
    worker_beat("busy-worker", now=now)
    orphan = _running_job("dead-worker", now - dt.timedelta(minutes=40))
    busy = _running_job("busy-worker", now - dt.timedelta(minutes=40))
    stopped = _running_job("stopped-worker", now - dt.timedelta(minutes=40))
    worker_beat("stopped-worker", now=now)
    worker_stopped("stopped-worker", now=now)

    housekeeping_tick("next-worker")
    statuses = dict(DBTaskResult.objects.values_list("pk", "status"))
    assert statuses[orphan.pk] == TaskResultStatus.READY  # back in the queue
    assert statuses[stopped.pk] == TaskResultStatus.READY
    assert statuses[busy.pk] == TaskResultStatus.RUNNING  # its worker is alive: left alone
    assert requeue_stuck() == 0


def test_a_job_just_started_by_a_worker_not_yet_seen_is_left_alone(settings):
    settings.TASKS = DB_TASKS
    job = _running_job("new-worker", timezone.now())
    assert requeue_stuck() == 0
    job.refresh_from_db()
    assert job.status == TaskResultStatus.RUNNING


def test_queue_health_shows_the_waiting_the_running_the_failed_and_a_dead_worker(settings):
    settings.TASKS = DB_TASKS
    now = timezone.now()
    assert queue_health(now=now) == QueueHealth(0, None, 0, 0, None, False)
    worker_beat("w1", now=now - dt.timedelta(minutes=20))
    waiting = DBTaskResult.objects.create(
        args_kwargs={"args": [], "kwargs": {}},
        task_path="fogcontrol.worker.tasks.run_nightly_sweep",
        backend_name="default",
        run_after=now - dt.timedelta(minutes=12),
    )
    DBTaskResult.objects.filter(pk=waiting.pk).update(enqueued_at=now - dt.timedelta(minutes=12))
    _running_job("w1", now - dt.timedelta(minutes=25))
    DBTaskResult.objects.create(
        status=TaskResultStatus.FAILED,
        args_kwargs={"args": [], "kwargs": {}},
        task_path="fogcontrol.worker.tasks.run_nightly_sweep",
        backend_name="default",
        run_after=now,
        finished_at=now - dt.timedelta(hours=2),
    )
    health = queue_health(now=now)
    assert (health.queued, health.running, health.failed_last_day) == (1, 1, 1)
    assert dt.timedelta(minutes=11) < health.oldest_queued_age < dt.timedelta(minutes=13)
    assert health.worker_alive is False and not health.healthy
    assert health.last_heartbeat == now - dt.timedelta(minutes=20)

    worker_beat("w1", now=now)
    assert queue_health(now=now).worker_alive is True
    assert WorkerHeartbeat.objects.count() == 1


def test_queue_health_on_another_backend_says_it_cannot_count():
    health = queue_health()
    assert health.reported is False and health.queued == 0
