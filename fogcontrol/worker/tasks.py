"""Background work of the worker itself: the nightly sweep, queued by the scheduler."""

from __future__ import annotations

import datetime as dt

from django.utils.crypto import get_random_string
from django_tasks import task

from fogcontrol.worker.sweep import sweep_run


@task(takes_context=True)
def run_nightly_sweep(context, day: str) -> dict:
    """Run the nightly sweep of `day` (YYYY-MM-DD) as the worker that picked it up: once per day,
    resuming where a run stopped (fogcontrol/worker/sweep.py)."""
    worker_ids = context.task_result.worker_ids
    owner = worker_ids[-1] if worker_ids else f"task-{get_random_string(16)}"
    return sweep_run(on=dt.date.fromisoformat(day), owner=owner).as_dict()
