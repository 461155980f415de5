"""The "Background work" page and API (issue #17): a dead worker is visible, the jobs with their
ages, the nightly sweeps; the FOG Manager queues the sweep by hand; the Town profile sets its time."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core import sweep as registry
from fogcontrol.core.queue import worker_beat
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_profile
from fogcontrol.testing.queries import assert_queries_do_not_grow
from fogcontrol.worker.models import SweepRun, SweepStep
from fogcontrol.worker.templatetags.worker import duration_words

pytestmark = pytest.mark.django_db

DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def manager_client(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    return client


def _job(status, *, minutes_ago: int, worker: str = "", error: str = "") -> DBTaskResult:
    now = timezone.now()
    job = DBTaskResult.objects.create(
        status=status,
        args_kwargs={"args": [], "kwargs": {}},
        task_path="fogcontrol.registry.imports.tasks.run_licence_import",
        backend_name="default",
        run_after=now - dt.timedelta(minutes=minutes_ago),
        started_at=now - dt.timedelta(minutes=minutes_ago) if status != TaskResultStatus.READY else None,
        finished_at=now if status == TaskResultStatus.FAILED else None,
        worker_ids=[worker] if worker else [],
        traceback=f"Traceback (most recent call last):\n  ...\n{error}\n" if error else "",
    )
    DBTaskResult.objects.filter(pk=job.pk).update(enqueued_at=now - dt.timedelta(minutes=minutes_ago))
    return job


def test_a_dead_worker_and_its_waiting_work_are_plain_on_the_page(manager_client, settings):
    settings.TASKS = DB_TASKS
    worker_beat("gone", now=timezone.now() - dt.timedelta(hours=3))
    _job(TaskResultStatus.READY, minutes_ago=42)
    _job(TaskResultStatus.FAILED, minutes_ago=5, error="ValueError: the file has no header row")
    page = manager_client.get("/worker/").content.decode()
    assert "Not running" in page and "3 hours ago" in page.replace("\xa0", " ")
    assert "1 job, the oldest for 42 minutes" in page
    assert "Run licence import (registry)" in page
    assert "ValueError: the file has no header row" in page


def test_a_live_worker_shows_as_running(manager_client, settings):
    settings.TASKS = DB_TASKS
    worker_beat("alive")
    page = manager_client.get("/worker/").content.decode()
    assert "Running" in page and "No job is waiting." in page


def test_the_page_shows_each_sweep_with_its_steps_and_a_failed_steps_error(manager_client):
    run = SweepRun.objects.create(day=dt.date(2026, 3, 10), scheduled_at=timezone.now())
    SweepStep.objects.create(run=run, name="servicing", order=10, status="done", attempts=1)
    SweepStep.objects.create(
        run=run, name="permits", order=20, status="failed", error="OperationalError: locked"
    )
    page = manager_client.get("/worker/").content.decode()
    assert "2026-03-10" in page and "Not finished" in page and "OperationalError: locked" in page
    assert "Every night at 02:00 Town time" in page


def test_the_fog_manager_runs_todays_sweep_from_the_page(
    manager_client, monkeypatch, django_capture_on_commit_callbacks
):
    days = []
    monkeypatch.setattr(
        registry,
        "_steps",
        {"record": registry.SweepStep("record", 1, lambda *, on, acting_user: days.append(on))},
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = manager_client.post("/worker/sweep/", follow=True)
    assert "is queued" in response.content.decode()
    assert len(days) == 1 and SweepRun.objects.get(day=days[0]).finished_at is not None
    assert AuditEntry.objects.filter(action="sweep.queue").count() == 1


def test_the_page_takes_the_same_queries_whatever_the_number_of_jobs(manager_client, settings):
    settings.TASKS = DB_TASKS

    def add_rows(n):
        for index in range(n):
            _job(TaskResultStatus.READY, minutes_ago=index + 1)
            _job(TaskResultStatus.RUNNING, minutes_ago=index + 1, worker="w")
            _job(TaskResultStatus.FAILED, minutes_ago=index + 1, error="RuntimeError: x")
            run = SweepRun.objects.create(
                day=dt.date(2026, 1, 1) + dt.timedelta(days=SweepRun.objects.count())
            )
            SweepStep.objects.create(run=run, name="servicing", order=10, status="done")

    # The session, the user, the Town (twice), the queue's health (the beats, the jobs' counts: one
    # aggregate each, six queries before 2026-12-01), the three lists of jobs, the sweeps and steps.
    assert_queries_do_not_grow(manager_client, add_rows, {"/worker/": 11}, grows=False)


def test_the_api_tells_a_monitor_whether_the_queue_is_healthy(town, settings):
    settings.TASKS = DB_TASKS
    _job(TaskResultStatus.READY, minutes_ago=10)
    body = api_as(town.users[Role.STAFF_READONLY]).get("/api/v1/worker/health/").json()
    assert body["queued"] == 1 and body["worker_alive"] is False and body["healthy"] is False
    assert 590 < body["oldest_queued_seconds"] < 700
    worker_beat("alive")
    assert api_as(town.users[Role.STAFF_READONLY]).get("/api/v1/worker/health/").json()["healthy"] is True


def test_the_fog_manager_sets_the_sweep_time_on_the_town_profile(manager_client):
    page = manager_client.get("/program/profile/edit/").content.decode()
    assert 'name="nightly_sweep_at"' in page
    form = {
        "name": "Town of Los Robles",
        "time_zone": "America/Los_Angeles",
        "office_hours": "Monday to Friday",
        "nightly_sweep_at": "03:30",
        "version": town_profile().version,
    }
    assert manager_client.post("/program/profile/edit/", form).status_code == 302
    assert town_profile().nightly_sweep_at == dt.time(3, 30)
    assert "03:30 Town time" in manager_client.get("/program/profile/").content.decode()
    form.update(nightly_sweep_at="25:00", version=town_profile().version)
    response = manager_client.post("/program/profile/edit/", form)
    assert response.status_code == 200 and "Enter a valid time." in response.content.decode()


def test_the_api_sets_the_sweep_time_too(town):
    client = api_as(town.users[Role.FOG_MANAGER])
    response = client.patch("/api/v1/program/profile/", {"nightly_sweep_at": "01:15"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["nightly_sweep_at"] == "01:15:00"
    assert town_profile().nightly_sweep_at == dt.time(1, 15)


def test_durations_read_as_words():
    assert [duration_words(dt.timedelta(seconds=s)) for s in (1, 59, 60, 3660, 90000)] == [
        "1 second",
        "59 seconds",
        "1 minute",
        "1 hour 1 minute",
        "1 day 1 hour",
    ]
