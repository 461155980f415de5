"""Issue 20: on a queue that does not put a dead worker's job back (RQ on Redis), a nightly sweep
whose runner was killed half-way is queued again by the next worker's scheduler, once, and goes on
from the step interrupted. The database queue puts the job back itself (`requeue_stuck`), so there
the scheduler leaves it alone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from fogcontrol.core import sweep as registry
from fogcontrol.core.queue import worker_beat
from fogcontrol.worker.models import SweepRun, SweepStep
from fogcontrol.worker.scheduler import schedule_due_sweep, sweep_due_day

pytestmark = pytest.mark.django_db

DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def ran(monkeypatch, settings) -> list[str]:
    settings.FOGCONTROL_WORKER_BEAT_SECONDS = 0
    names: list[str] = []

    def make(name):
        def run(*, on, acting_user):
            names.append(name)

        return run

    steps = {
        name: registry.SweepStep(name, order, make(name)) for order, name in enumerate(["first", "second"])
    }
    monkeypatch.setattr(registry, "_steps", steps)
    return names


def _killed_half_way() -> SweepRun:
    """The day's sweep queued and claimed an hour ago by a worker killed during its second step."""
    now = timezone.now()
    long_ago = now - dt.timedelta(hours=1)
    run = SweepRun.objects.create(
        day=sweep_due_day(now),
        scheduled_at=long_ago,
        owner="rq-killed",
        claimed_at=long_ago,
        started_at=long_ago,
    )
    SweepStep.objects.create(run=run, name="first", order=0, status="done", attempts=1)
    SweepStep.objects.create(run=run, name="second", order=1, status="running", attempts=1)
    worker_beat("rq-killed", now=long_ago)
    return run


def test_on_redis_a_sweep_whose_runner_died_is_queued_again_and_resumed_once(
    ran, django_capture_on_commit_callbacks
):
    run = _killed_half_way()
    with django_capture_on_commit_callbacks(execute=True):  # the queued sweep runs at once here
        assert schedule_due_sweep() == run.day
    assert ran == ["second"]  # the step done is not run again
    run.refresh_from_db()
    assert run.finished_at is not None and run.owner == ""
    assert SweepStep.objects.get(run=run, name="second").attempts == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert schedule_due_sweep() is None
    assert ran == ["second"]


def test_a_sweep_queued_again_is_not_queued_once_more_while_it_waits_for_a_worker(ran):
    run = _killed_half_way()
    assert schedule_due_sweep() == run.day  # queued (on commit; nothing runs it in this test)
    assert schedule_due_sweep() is None
    assert schedule_due_sweep(now=timezone.now() + dt.timedelta(seconds=5)) is None


def test_while_its_runner_beats_a_sweep_is_not_queued_again(ran):
    run = _killed_half_way()
    worker_beat("rq-killed")
    assert schedule_due_sweep() is None
    assert SweepRun.objects.get(pk=run.pk).scheduled_at == run.scheduled_at


def test_on_the_database_queue_the_job_itself_is_put_back_so_the_scheduler_leaves_it(ran, settings):
    settings.TASKS = DB_TASKS
    run = _killed_half_way()
    assert schedule_due_sweep() is None
    assert ran == []
    assert SweepRun.objects.get(pk=run.pk).scheduled_at == run.scheduled_at
