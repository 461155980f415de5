"""The scheduler without cron: each worker queues the day's sweep at the Town's time, once.

The Town profile says when (`nightly_sweep_at`, Town time, 02:00 unless changed). Every few seconds
each worker asks `schedule_due_sweep()`: the day due is today once that time has passed, else
yesterday. If that day's sweep was neither queued nor finished, it is queued now, so a machine that
was off at 02:00 runs the sweep when it starts. Only the most recent day due is queued: each step
works on everything due up to its day, so one run catches up on the days missed. Of two workers
asking at once, one queues it (a conditional UPDATE of the day's row, which is unique).

A sweep whose runner died holding the day is not queued again here: the queue puts its job back
(`requeue_stuck`, on the database queue and on RQ alike), and the next run takes the day over from
the silent owner and goes on from the step interrupted (fogcontrol/worker/sweep.py).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from fogcontrol.core.queue import enqueue_on_commit
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
    """Queue the sweep of the day due, unless it was queued or finished. Returns the day queued."""
    now = now or timezone.now()
    day = sweep_due_day(now)
    run = sweep_run_for(day)
    if run.finished_at is not None:
        return None
    if run.scheduled_at is not None:
        return None
    with transaction.atomic():
        queued = SweepRun.objects.filter(
            pk=run.pk, scheduled_at=run.scheduled_at, owner=run.owner, finished_at__isnull=True
        ).update(scheduled_at=now)
        if not queued:
            return None
        enqueue_on_commit(SWEEP_TASK, day=day.isoformat())
    return day
