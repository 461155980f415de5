"""Queueing background work from a service, once its transaction commits.

Tasks (each app's ``tasks.py``) are entry points, like views: they import the services they run,
and services never import them (an import-linter contract keeps it so). A service that needs work
done later names the task by its dotted path, as a URL is named for ``reverse()``:

    enqueue_on_commit("fogcontrol.permits.tasks.send_notice_email", notice.pk)

The task is queued only when the transaction commits, so the worker sees the rows it is given,
and a rolled-back write queues nothing.

The queue's health (for staff, and the "Background work" page): `queue_health()`. Workers beat
(`worker_beat`) every few seconds; a job left "running" by a worker that stopped beating is put
back in the queue by the next worker (`requeue_stuck`, on the database queue and on RQ alike), so
no one has to reset it by hand.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import socket

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Min, Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks import task_backends
from django_tasks.base import Task, TaskResultStatus
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult, get_date_max

from fogcontrol.core.models import WorkerHeartbeat


def enqueue_on_commit(task_path: str, /, *args, **kwargs) -> None:
    """Queue the task at ``task_path`` with these arguments when the current transaction commits.

    The path is resolved at once, so a wrong name fails inside the service (its transaction rolls
    back) rather than after the commit.
    """
    task = import_string(task_path)
    if not isinstance(task, Task):
        raise TypeError(f"{task_path} is not a task (decorate it with django_tasks.task).")
    transaction.on_commit(lambda: task.enqueue(*args, **kwargs))


def stale_after() -> dt.timedelta:
    """How long a worker may stay silent before it is taken for dead (its jobs are requeued)."""
    return dt.timedelta(minutes=settings.FOGCONTROL_WORKER_STALE_MINUTES)


def worker_beat(worker_id: str, *, now: dt.datetime | None = None) -> None:
    """The worker `worker_id` is alive now (one small write; the first beat records its start)."""
    now = now or timezone.now()
    updated = WorkerHeartbeat.objects.filter(worker_id=worker_id).update(last_seen_at=now, stopped_at=None)
    if not updated:
        WorkerHeartbeat.objects.update_or_create(
            worker_id=worker_id,
            defaults={"last_seen_at": now, "stopped_at": None},
            create_defaults={
                "host": socket.gethostname()[:255],
                "pid": os.getpid(),
                "started_at": now,
                "last_seen_at": now,
            },
        )


def worker_stopped(worker_id: str, *, now: dt.datetime | None = None) -> None:
    """The worker `worker_id` stopped cleanly: it is no longer counted as alive."""
    WorkerHeartbeat.objects.filter(worker_id=worker_id).update(stopped_at=now or timezone.now())


def _live_workers(*, now: dt.datetime | None = None) -> Q:
    """Workers that beat within `stale_after()` and did not stop."""
    return Q(last_seen_at__gte=(now or timezone.now()) - stale_after(), stopped_at__isnull=True)


def live_worker_ids(*, now: dt.datetime | None = None) -> set[str]:
    """The ids of the live workers (`_live_workers`)."""
    return set(WorkerHeartbeat.objects.filter(_live_workers(now=now)).values_list("worker_id", flat=True))


def _database_backend() -> str | None:
    """The alias of the default task backend if it keeps its queue in the database, else None."""
    backend = task_backends["default"]
    return backend.alias if isinstance(backend, DatabaseBackend) else None


def _rq_backend():
    """The default task backend if it is RQ's (`FOGCONTROL_TASKS=rq`), else None."""
    backend = task_backends["default"]
    return backend if type(backend).__module__.startswith("django_tasks_rq") else None


def requeue_stuck(*, now: dt.datetime | None = None) -> int:
    """Put back in the queue every job left running by a worker that is gone (no beat for
    `stale_after()`, or stopped): the next worker runs it again. The one path for both queues,
    called by every worker's housekeeping. Tasks are written to be run again (an import goes on
    from its saved progress or rewrites its report; a sweep skips the steps it finished; an e-mail
    is claimed once). Returns how many.

    - database queue: the job's row goes back to READY, however many times its worker died;
    - RQ: the job, failed by RQ as abandoned, is requeued until it has been tried
      `FOGCONTROL_WORKER_MAX_ATTEMPTS` times in all (fogcontrol/core/queue_rq.py).
    """
    now = now or timezone.now()
    rq_backend = _rq_backend()
    if rq_backend is not None:
        from fogcontrol.core.queue_rq import requeue_abandoned

        beaten = set(WorkerHeartbeat.objects.values_list("worker_id", flat=True))
        return requeue_abandoned(rq_backend, dead=beaten - live_worker_ids(now=now), now=now)
    backend = _database_backend()
    if backend is None:
        return 0
    alive = live_worker_ids(now=now)
    running = DBTaskResult.objects.filter(backend_name=backend, status=TaskResultStatus.RUNNING)
    stuck = [
        pk
        for pk, worker_ids, started_at in running.values_list("pk", "worker_ids", "started_at")
        if (worker_ids[-1] if worker_ids else None) not in alive
        and (started_at is None or started_at < now - stale_after())
    ]
    if not stuck:
        return 0
    # Only rows still running: a worker that finished the job meanwhile keeps its result.
    return running.filter(pk__in=stuck).update(status=TaskResultStatus.READY, started_at=None)


@dataclasses.dataclass(frozen=True)
class QueueHealth:
    """The background queue at a glance (`queue_health()`): for the staff dashboard and the
    "Background work" page.

    - `queued`: jobs waiting to run now; `oldest_queued_age`: how long the oldest has waited
      (None when none waits);
    - `running`: jobs a worker is running;
    - `failed_last_day`: jobs that failed in the last 24 hours;
    - `last_heartbeat`: the most recent beat of any worker (None: no worker ever ran);
    - `worker_alive`: a worker beat within `stale_after()` and did not stop;
    - `reported`: False when the task backend is not the database one (Redis): the counts are then 0.
    """

    queued: int
    oldest_queued_age: dt.timedelta | None
    running: int
    failed_last_day: int
    last_heartbeat: dt.datetime | None
    worker_alive: bool
    reported: bool = True

    @property
    def healthy(self) -> bool:
        """A worker is alive, or nothing waits for one."""
        return self.worker_alive or (self.queued == 0 and self.running == 0)


def queue_health(*, now: dt.datetime | None = None) -> QueueHealth:
    """How the background queue is doing now (see `QueueHealth`): two queries, the workers' beats
    and the jobs, each one aggregate (the staff home asks on every request)."""
    now = now or timezone.now()
    beats = WorkerHeartbeat.objects.aggregate(
        last=Max("last_seen_at"),
        alive=Count("pk", filter=_live_workers(now=now)),
    )
    backend = _database_backend()
    if backend is None:
        return QueueHealth(0, None, 0, 0, beats["last"], bool(beats["alive"]), reported=False)
    # What django_tasks_db's `ready()` selects: waiting, and due (no run_after, or it has passed).
    ready = Q(status=TaskResultStatus.READY) & (
        Q(run_after=get_date_max()) | Q(run_after__lte=timezone.now())
    )
    jobs = DBTaskResult.objects.filter(backend_name=backend).aggregate(
        queued=Count("pk", filter=ready),
        oldest=Min("enqueued_at", filter=ready),
        running=Count("pk", filter=Q(status=TaskResultStatus.RUNNING)),
        failed=Count(
            "pk", filter=Q(status=TaskResultStatus.FAILED, finished_at__gte=now - dt.timedelta(days=1))
        ),
    )
    return QueueHealth(
        queued=jobs["queued"],
        oldest_queued_age=(now - jobs["oldest"]) if jobs["oldest"] else None,
        running=jobs["running"],
        failed_last_day=jobs["failed"],
        last_heartbeat=beats["last"],
        worker_alive=bool(beats["alive"]),
    )
