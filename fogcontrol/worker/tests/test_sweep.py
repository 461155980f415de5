"""The one nightly sweep (issue #17): every app's step in order, idempotent, resumable, once a day."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core import sweep as registry
from fogcontrol.core.models import WorkerHeartbeat
from fogcontrol.core.queue import worker_beat
from fogcontrol.enforcement.models import Violation
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.worker.models import SweepRun, SweepStep
from fogcontrol.worker.sweep import SweepStepFailed, sweep_run

pytestmark = pytest.mark.django_db

APP_ORDER = [
    "servicing",
    "permits",
    "records",
    "spills",
    "sampling",
    "enforcement",
    "billing",
    "reminders",
    "figures",
]


@pytest.fixture(autouse=True)
def _no_heartbeat_thread(settings):
    """The command beats from a thread in production; here the sweep's own beats are enough."""
    settings.FOGCONTROL_WORKER_BEAT_SECONDS = 0


@pytest.fixture
def counting(monkeypatch):
    """Replace the app steps by steps that record their calls (the real ones are tested below)."""
    calls: list[tuple[str, dt.date, str]] = []

    def make(name):
        def run(*, on, acting_user):
            calls.append((name, on, acting_user))
            return {"touched": 1}

        return run

    fake = {name: registry.SweepStep(name, order, make(name)) for order, name in enumerate(APP_ORDER)}
    monkeypatch.setattr(registry, "_steps", fake)
    return calls


def test_every_app_registers_its_step_in_the_documented_order():
    assert [step.name for step in registry.steps()] == APP_ORDER
    assert registry.steps()[0].acting_user == "servicing.nightly"


def test_registering_a_step_is_one_line_and_a_second_ready_is_harmless(monkeypatch):
    monkeypatch.setattr(registry, "_steps", dict(registry._steps))

    def archive_old_exports(*, on, acting_user):
        return 0

    registry.register_step("archive", order=90, run=archive_old_exports)
    registry.register_step("archive", order=90, run=archive_old_exports)
    assert registry.steps()[-1].name == "archive"
    with pytest.raises(ValueError, match="already registered"):
        registry.register_step("archive", order=91, run=archive_old_exports)


def test_the_sweep_runs_every_step_in_order_for_its_day_under_each_app_label(counting):
    day = dt.date(2026, 3, 31)
    outcome = sweep_run(on=day, owner="worker-a")
    assert [name for name, _, _ in counting] == APP_ORDER
    assert {on for _, on, _ in counting} == {day}
    assert counting[1][2] == "permits.nightly"
    assert list(outcome.ran) == APP_ORDER
    run = SweepRun.objects.get(day=day)
    assert run.finished_at is not None and run.owner == ""
    assert list(run.steps.values_list("name", "status", "attempts")) == [
        (name, "done", 1) for name in APP_ORDER
    ]


def test_running_the_day_again_runs_nothing_twice(counting):
    day = dt.date(2026, 3, 31)
    sweep_run(on=day, owner="worker-a")
    again = sweep_run(on=day, owner="worker-b")
    assert len(counting) == len(APP_ORDER)
    assert again.ran == {} and again.already_done == APP_ORDER


def test_a_step_that_fails_stops_the_run_and_the_rerun_goes_on_from_it(counting, monkeypatch):
    day = dt.date(2026, 3, 31)
    steps = dict(registry._steps)

    def broken(*, on, acting_user):
        raise RuntimeError("the spills table is being restored")

    steps["spills"] = registry.SweepStep("spills", 3, broken)
    monkeypatch.setattr(registry, "_steps", steps)
    with pytest.raises(SweepStepFailed, match="spills step"):
        sweep_run(on=day, owner="worker-a")
    assert [name for name, _, _ in counting] == ["servicing", "permits", "records"]
    failed = SweepStep.objects.get(run__day=day, name="spills")
    assert failed.status == "failed" and "being restored" in failed.error
    assert SweepRun.objects.get(day=day).owner == ""  # the failed runner let go

    steps["spills"] = registry.SweepStep("spills", 3, lambda *, on, acting_user: {"findings_opened": 0})
    counting.clear()
    outcome = sweep_run(on=day, owner="worker-a")
    assert outcome.already_done == ["servicing", "permits", "records"]
    assert list(outcome.ran) == ["spills", "sampling", "enforcement", "billing", "reminders", "figures"]
    assert SweepStep.objects.get(run__day=day, name="spills").attempts == 2
    assert SweepRun.objects.get(day=day).finished_at is not None


def test_a_runner_killed_half_way_is_taken_over_once_it_stops_beating(counting):
    """A process killed in the middle of a step leaves the day claimed and the step "running"."""
    day = dt.date(2026, 3, 31)
    long_ago = timezone.now() - dt.timedelta(hours=1)
    run = SweepRun.objects.create(day=day, owner="killed-worker", claimed_at=long_ago, started_at=long_ago)
    SweepStep.objects.create(run=run, name="servicing", order=0, status="done", attempts=1)
    SweepStep.objects.create(run=run, name="permits", order=1, status="running", attempts=1)
    worker_beat("killed-worker", now=long_ago)

    outcome = sweep_run(on=day, owner="worker-b")
    assert outcome.held_by is None
    assert outcome.already_done == ["servicing"]
    assert [name for name, _, _ in counting] == APP_ORDER[1:]
    assert SweepStep.objects.get(run=run, name="permits").attempts == 2


def test_while_the_owner_beats_a_second_runner_does_nothing(counting, monkeypatch):
    """Two runs of one day at once: the second finds the first alive and returns without running."""
    day = dt.date(2026, 3, 31)
    second: list = []

    def servicing_and_a_second_runner(*, on, acting_user):
        second.append(sweep_run(on=on, owner="worker-b"))
        return {"touched": 1}

    steps = dict(registry._steps)
    steps["servicing"] = registry.SweepStep("servicing", 0, servicing_and_a_second_runner)
    monkeypatch.setattr(registry, "_steps", steps)
    first = sweep_run(on=day, owner="worker-a")
    assert second[0].held_by == "worker-a" and second[0].ran == {}
    assert list(first.ran) == APP_ORDER
    assert len(counting) == len(APP_ORDER) - 1  # every counting step ran once
    assert WorkerHeartbeat.objects.filter(worker_id="worker-a").exists()


def test_the_real_sweep_changes_things_once_and_nothing_the_second_time(town):
    """Idempotent end to end: the apps' own steps on the small town, run twice for one day."""
    day = town_today()
    first = sweep_run(on=day, owner="worker-a")
    assert list(first.ran) == APP_ORDER
    states = DeviceServiceState.objects.count()
    violations = Violation.objects.count()
    entries = AuditEntry.objects.count()
    assert states == 3  # the three devices got their service state on the first run

    SweepRun.objects.all().delete()  # forget the first run: every step runs again
    second = sweep_run(on=day, owner="worker-a")
    assert list(second.ran) == APP_ORDER
    assert (DeviceServiceState.objects.count(), Violation.objects.count(), AuditEntry.objects.count()) == (
        states,
        violations,
        entries,
    )


def test_fogcontrol_sweep_runs_the_day_and_says_what_each_step_did(counting, capsys):
    call_command("sweep", "--on", "2026-03-31")
    out = capsys.readouterr().out
    assert "servicing: touched: 1" in out and "The sweep of 2026-03-31 is complete." in out
    call_command("sweep", "--on", "2026-03-31")
    assert "billing: done earlier" in capsys.readouterr().out
    assert len(counting) == len(APP_ORDER)


def test_fogcontrol_sweep_explains_a_bad_date():
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("sweep", "--on", "31/03/2026")


def test_the_old_nightly_commands_still_run_their_step(town, capsys):
    call_command("servicing_nightly")
    call_command("permits_daily")
    assert "permit(s) expired" in capsys.readouterr().out


@pytest.mark.skipif(
    "postgresql" not in __import__("django.conf").conf.settings.DATABASES["default"]["ENGINE"],
    reason="two connections at once: SQLite's in-memory test database is one connection's",
)
@pytest.mark.django_db(transaction=True)
def test_two_runners_started_together_run_each_step_once(counting, monkeypatch):
    """Two workers (two connections) start the same day's sweep at the same moment."""
    import threading
    import time

    from django.db import connection

    day = dt.date(2026, 3, 31)
    steps = dict(registry._steps)
    slow = steps["servicing"].run

    def slow_servicing(*, on, acting_user):
        time.sleep(0.5)  # the other runner arrives while this one holds the day
        return slow(on=on, acting_user=acting_user)

    steps["servicing"] = registry.SweepStep("servicing", 0, slow_servicing)
    monkeypatch.setattr(registry, "_steps", steps)
    start = threading.Barrier(2)
    outcomes = {}

    def runner(owner):
        try:
            start.wait()
            outcomes[owner] = sweep_run(on=day, owner=owner)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(owner,)) for owner in ("worker-a", "worker-b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(name for name, _, _ in counting) == sorted(APP_ORDER)  # each step once
    held = [outcome for outcome in outcomes.values() if outcome.held_by]
    assert len(held) == 1 and held[0].ran == {}
    assert SweepRun.objects.get(day=day).finished_at is not None
