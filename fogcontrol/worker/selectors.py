"""What the "Background work" page and API read: the queue's health, its jobs, the nightly sweeps.

Town staff only (anyone else: 404). A fixed number of queries whatever the number of jobs: the
jobs carry no relations, and each list is capped at `JOBS_SHOWN` rows, newest first."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.db.models import Prefetch
from django.http import Http404
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from fogcontrol.core.queue import QueueHealth, queue_health, stale_after
from fogcontrol.program.selectors import program_settings_visible, town_profile
from fogcontrol.worker.models import SweepRun, SweepStep

JOBS_SHOWN = 50
SWEEPS_SHOWN = 7
FAILED_SHOWN_DAYS = 7


@dataclasses.dataclass(frozen=True)
class Job:
    id: str
    name: str
    status: str
    enqueued_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    worker: str
    error: str


@dataclasses.dataclass(frozen=True)
class BackgroundWork:
    health: QueueHealth
    stale_after: dt.timedelta
    sweep_at: dt.time
    queued: list[Job]
    running: list[Job]
    failed: list[Job]
    sweeps: list[SweepRun]


def require_staff(user) -> None:
    if not program_settings_visible(user):
        raise Http404("No such page.")


def _task_name(path: str) -> str:
    """`fogcontrol.registry.imports.tasks.run_licence_import` -> "Run licence import (registry)"."""
    parts = path.split(".")
    app = parts[1] if len(parts) > 2 and parts[0] == "fogcontrol" else ""
    words = parts[-1].replace("_", " ")
    return f"{words[:1].upper()}{words[1:]}" + (f" ({app})" if app else "")


def _last_line(traceback: str) -> str:
    lines = [line for line in traceback.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def _jobs(queryset) -> list[Job]:
    fields = (
        "id",
        "task_path",
        "status",
        "enqueued_at",
        "started_at",
        "finished_at",
        "worker_ids",
        "traceback",
    )
    return [
        Job(
            id=str(row["id"]),
            name=_task_name(row["task_path"]),
            status=row["status"],
            enqueued_at=row["enqueued_at"],
            started_at=row["started_at"],
            finished_at=row["finished_at"],
            worker=(row["worker_ids"] or [""])[-1],
            error=_last_line(row["traceback"]),
        )
        for row in queryset.values(*fields)[:JOBS_SHOWN]
    ]


def background_work_for(user, *, now: dt.datetime | None = None) -> BackgroundWork:
    require_staff(user)
    now = now or timezone.now()
    health = queue_health(now=now)
    jobs = DBTaskResult.objects.all()
    since = now - dt.timedelta(days=FAILED_SHOWN_DAYS)
    steps = Prefetch("steps", queryset=SweepStep.objects.order_by("order", "name"))
    return BackgroundWork(
        health=health,
        stale_after=stale_after(),
        sweep_at=town_profile().nightly_sweep_at,
        queued=_jobs(jobs.ready().order_by("enqueued_at")) if health.reported else [],
        running=_jobs(jobs.filter(status=TaskResultStatus.RUNNING).order_by("started_at"))
        if health.reported
        else [],
        failed=_jobs(
            jobs.filter(status=TaskResultStatus.FAILED, finished_at__gte=since).order_by("-finished_at")
        )
        if health.reported
        else [],
        sweeps=list(SweepRun.objects.prefetch_related(steps)[:SWEEPS_SHOWN]),
    )


def queue_health_for(user) -> QueueHealth:
    require_staff(user)
    return queue_health()
