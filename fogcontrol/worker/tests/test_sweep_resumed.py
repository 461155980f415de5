"""Issue 20: a nightly sweep whose runner was killed half-way is not queued again by the scheduler:
its job is put back by the queue (`requeue_stuck`, on the database queue and on RQ alike:
fogcontrol/worker/tests/test_requeue_on_redis.py), and run again by another worker it takes the
day over from the silent owner and goes on from the step interrupted, once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from fogcontrol.core import sweep as registry
from fogcontrol.core.queue import worker_beat
from fogcontrol.worker.models import SweepRun, SweepStep
from fogcontrol.worker.scheduler import schedule_due_sweep, sweep_due_day
from fogcontrol.worker.sweep import sweep_run

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


def test_run_again_by_another_worker_a_killed_sweep_goes_on_from_the_step_interrupted_once(ran):
    run = _killed_half_way()
    outcome = sweep_run(on=run.day, owner="rq-next")  # its job, put back by the queue
    assert outcome.held_by is None and ran == ["second"]  # the step done is not run again
    run.refresh_from_db()
    assert run.finished_at is not None and run.owner == ""
    assert SweepStep.objects.get(run=run, name="second").attempts == 2
    assert sweep_run(on=run.day, owner="rq-other").already_done == ["first", "second"]
    assert ran == ["second"]


def test_while_its_runner_beats_a_sweep_is_not_taken_over(ran):
    run = _killed_half_way()
    worker_beat("rq-killed")
    assert sweep_run(on=run.day, owner="rq-next").held_by == "rq-killed"
    assert ran == []


@pytest.mark.parametrize("tasks", [None, DB_TASKS], ids=["immediate", "database"])
def test_the_scheduler_leaves_a_killed_sweep_to_the_queue(ran, settings, tasks):
    if tasks:
        settings.TASKS = tasks
    run = _killed_half_way()
    assert schedule_due_sweep() is None
    assert ran == []
    assert SweepRun.objects.get(pk=run.pk).scheduled_at == run.scheduled_at
