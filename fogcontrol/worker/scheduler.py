"""The scheduler without cron: each worker queues the day's sweep at the Town's time, once.

The Town profile says when (`nightly_sweep_at`, Town time, 02:00 unless changed). Every few seconds
each worker asks `schedule_due_sweep()`: the day due is today once that time has passed, else
yesterday. If that day's sweep was neither queued nor finished, it is queued now, so a machine that
was off at 02:00 runs the sweep when it starts. Only the most recent day due is queued: each step
works on everything due up to its day, so one run catches up on the days missed. Of two workers
asking at once, one queues it (a conditional UPDATE of the day's row, which is unique).

On a queue that does not put back a dead worker's job (RQ on Redis), a sweep whose runner died
holding the day (its owner stopped beating) is queued again, and the next run goes on from the step
interrupted (fogcontrol/worker/sweep.py). The database queue puts the job itself back.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from fogcontrol.core.queue import enqueue_on_commit, live_worker_ids, queue_puts_back_stuck_jobs, stale_after
from fogcontrol.program.selectors import town_profile, town_zone
from fogcontrol.worker.models import SweepRun
from fogcontrol.worker.sweep import SWEEP_TASK, sweep_run_for


def sweep_due_day(now: dt.datetime) -> dt.date:
    """The Town day whose sweep is due at `now`: today once the sweep time has passed, else yesterday."""
    local = timezone.localtime(now, town_zone())
    if local.time() >= town_profile().nightly_sweep_at:
        return local.date()
    return local.date() - dt.timedelta(days=1)


def schedule_due_sweep(*, now: dt.datetime | None = None) -> dt.date | None:
    """Queue the sweep of the day due, unless it was queued or finished (or, on RQ, queue it again
    when its runner died holding it). Returns the day queued."""
    now = now or timezone.now()
    day = sweep_due_day(now)
    run = sweep_run_for(day)
    if run.finished_at is not None:
        return None
    if run.scheduled_at is not None and not _abandoned(run, now):
        return None
    with transaction.atomic():
        queued = SweepRun.objects.filter(
            pk=run.pk, scheduled_at=run.scheduled_at, owner=run.owner, finished_at__isnull=True
        ).update(scheduled_at=now)
        if not queued:
            return None
        enqueue_on_commit(SWEEP_TASK, day=day.isoformat())
    return day


def _abandoned(run: SweepRun, now: dt.datetime) -> bool:
    """The run's owner died in the middle of it and no one will put its job back (RQ): it holds
    the day, has not beaten for `stale_after()`, and claimed it (and was queued) longer ago than
    that: a run queued again waits that long to be picked up before it is queued once more."""
    if queue_puts_back_stuck_jobs() or not run.owner:
        return False
    since = now - stale_after()
    quiet = all(moment is None or moment < since for moment in (run.claimed_at, run.scheduled_at))
    return quiet and run.owner not in live_worker_ids(now=now)
