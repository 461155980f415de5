"""The worker survives database errors with a back-off, or gives up with a non-zero status."""

from __future__ import annotations

import pytest
from django.core.management import get_commands
from django.db import OperationalError
from django_tasks_db.management.commands.db_worker import Worker

from fogcontrol.worker import supervision
from fogcontrol.worker.supervision import SupervisedWorker, WorkerGaveUp, backoff_seconds


@pytest.fixture(autouse=True)
def _no_housekeeping(settings, monkeypatch):
    """These tests are about the loop; its housekeeping thread is tested in test_housekeeping.py,
    and the requeue of its own tasks left running at a restart in tests/test_kill_durability.py."""
    settings.FOGCONTROL_WORKER_BEAT_SECONDS = 0
    monkeypatch.setattr(SupervisedWorker, "requeue_own_orphans", lambda self: 0)


def _worker(max_db_retries: int = 3) -> SupervisedWorker:
    return SupervisedWorker(
        queue_names=["default"],
        interval=0,
        batch=False,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
        max_db_retries=max_db_retries,
    )


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(supervision.time, "sleep", slept.append)
    return slept


def _loop_failing(monkeypatch, times: int) -> list[str]:
    """The package's loop raises `times` database errors, then ends normally."""
    calls: list[str] = []

    def run(self):
        calls.append("run")
        if len(calls) <= times:
            raise OperationalError("database is locked")

    monkeypatch.setattr(Worker, "run", run)
    return calls


def test_a_database_error_restarts_the_loop_after_a_growing_back_off(monkeypatch, sleeps):
    calls = _loop_failing(monkeypatch, times=3)
    _worker(max_db_retries=5).run()
    assert len(calls) == 4
    assert sleeps == [0.5, 1.0, 2.0]


def test_the_back_off_doubles_up_to_thirty_seconds():
    assert [backoff_seconds(n) for n in (1, 2, 3, 7, 8, 20)] == [0.5, 1.0, 2.0, 30.0, 30.0, 30.0]


def test_after_too_many_errors_in_a_row_the_worker_exits_non_zero(monkeypatch, sleeps):
    _loop_failing(monkeypatch, times=100)
    with pytest.raises(WorkerGaveUp) as gave_up:
        _worker(max_db_retries=3).run()
    assert gave_up.value.returncode == 1
    assert "3 database errors in a row" in str(gave_up.value)
    assert len(sleeps) == 3


def test_under_the_autoreloader_the_process_ends_when_the_loop_ends(monkeypatch):
    """A loop that dies in the reloader's thread must take the process with it, non-zero."""
    exits: list[int] = []
    monkeypatch.setattr(supervision.os, "_exit", exits.append)
    monkeypatch.setattr(supervision.logging, "shutdown", lambda: None)

    def broken(self):
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(SupervisedWorker, "run", broken)
    supervision.run_then_end_process(_worker())

    def gives_up(self):
        raise WorkerGaveUp("gave up", returncode=1)

    monkeypatch.setattr(SupervisedWorker, "run", gives_up)
    supervision.run_then_end_process(_worker())

    monkeypatch.setattr(SupervisedWorker, "run", lambda self: None)  # --max-tasks reached
    supervision.run_then_end_process(_worker())
    assert exits == [1, 1, 0]


def test_fogcontrol_db_worker_is_the_supervised_one():
    assert get_commands()["db_worker"] == "fogcontrol.worker"
