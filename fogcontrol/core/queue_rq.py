"""The jobs a dead RQ worker left, put back in the queue (`FOGCONTROL_TASKS=rq`): the Redis half of
`fogcontrol.core.queue.requeue_stuck`, which the housekeeping of every worker calls every few seconds.

A job whose worker is killed (kill -9, the OOM killer, a machine lost) stays in RQ's started
registry; RQ itself fails it as abandoned (`AbandonedJobError`, into the failed registry) once
its heartbeat expires, and never runs it again. Here:

1. **Abandoned sooner.** A started job whose worker beat here (`core.WorkerHeartbeat`, as the
   housekeeping worker does) and has stopped beating for `stale_after()` is handed to RQ's own
   clean-up at once (its entry expired), rather than after RQ's heartbeat time-out and the next
   ten-minute maintenance. A worker that never beat here (a plain `rqworker`) is left to RQ.
2. **Run again, a bounded number of times.** A failed job whose last failure is
   `AbandonedJobError` is requeued (RQ's own `FailedJobRegistry.requeue`), until it has been tried
   `FOGCONTROL_WORKER_MAX_ATTEMPTS` times in all (its count is kept in the job's meta; only jobs
   failed in the last day are read, so a beat does not read a year of failures). After
   that it stays failed, and `rq requeue --queue default -u $REDIS_URL JOB_ID` (or `--all`) puts it
   back by hand, for one more run.

Every task is written to be run again (docs/architecture.md, "A dead worker is visible"). Both steps
run under a lock of the queue held for at most `stale_after()` (and never more than a minute), so of
several workers one does them at a time. Not RQ's own maintenance lock: that one lives 15 minutes,
and a worker killed while holding it (its housekeeping beats every few seconds, so it often is) would
keep every other worker from requeueing its job for those 15 minutes.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

from django.conf import settings

logger = logging.getLogger("fogcontrol.worker")

ATTEMPTS = "fogcontrol_attempts"  # the job's meta: how many times it was started (1 before a requeue)
GAVE_UP = "fogcontrol_gave_up"
ABANDONED = "rq.exceptions.AbandonedJobError"
RECENT_FAILURES_SECONDS = 24 * 3600
LOCK_KEY = "fogcontrol:requeue-lock:{queue}"
LONGEST_LOCK_MS = 60_000


def max_attempts() -> int:
    return max(1, int(settings.FOGCONTROL_WORKER_MAX_ATTEMPTS))


def abandoned(job) -> bool:
    """The job's last failure is RQ's `AbandonedJobError`: its worker died while running it."""
    exceptions = job.meta.get("_django_tasks_rq_exceptions") or []  # django-tasks-rq's failure callback
    if exceptions:
        return exceptions[-1] == ABANDONED
    latest = job.latest_result()
    return latest is not None and "AbandonedJobError" in (latest.exc_string or "")


def requeue_abandoned(backend, *, dead: set[str], now: dt.datetime) -> int:
    """Steps 1 and 2 above on each queue of the RQ `backend`; `dead` are the workers that beat here
    once and are silent now. Returns how many jobs were put back in a queue."""
    requeued = 0
    for queue in backend._get_queues():
        lock = LOCK_KEY.format(queue=queue.name)
        if not queue.connection.set(lock, 1, nx=True, px=_lock_ms()):
            continue  # a worker is cleaning this queue now: the next beat will do it
        try:
            _expire_dead_workers_jobs(queue, dead=dead, before=now - _stale())
            queue.started_job_registry.cleanup()
            requeued += _requeue_failed(queue)
        finally:
            queue.connection.delete(lock)
    return requeued


def _lock_ms() -> int:
    """How long the lock outlives a worker killed while holding it: no longer than a worker may stay
    silent, so its own jobs are requeued by the next beat after it is taken for dead."""
    return max(1000, min(LONGEST_LOCK_MS, int(_stale().total_seconds() * 1000)))


def _stale() -> dt.timedelta:
    return dt.timedelta(minutes=settings.FOGCONTROL_WORKER_STALE_MINUTES)


def _expire_dead_workers_jobs(queue, *, dead: set[str], before: dt.datetime) -> None:
    """Mark as expired the started registry's entries of jobs run by a dead worker and started
    before `before`, so RQ's clean-up fails them as abandoned now."""
    if not dead:
        return
    registry = queue.started_job_registry
    for entry in registry.connection.zrange(registry.key, 0, -1):
        job = queue.fetch_job(registry.parse_job_id(entry))
        if job is None or job.worker_name not in dead:
            continue
        started = job.started_at
        if started is not None and started.tzinfo is None:
            started = started.replace(tzinfo=dt.UTC)
        if started is None or started < before:
            registry.connection.zadd(registry.key, {entry: 0}, xx=True)


def _requeue_failed(queue) -> int:
    from rq.defaults import DEFAULT_FAILURE_TTL
    from rq.exceptions import InvalidJobOperation

    registry = queue.failed_job_registry
    # Only the jobs failed in the last day (a failed job's score is when it fails + its failure
    # TTL, a year): each beat reads those, not a year of failures.
    since = time.time() + DEFAULT_FAILURE_TTL - RECENT_FAILURES_SECONDS
    requeued = 0
    for entry in registry.connection.zrangebyscore(registry.key, since, "+inf"):
        job_id = registry.parse_job_id(entry)
        job = queue.fetch_job(job_id)
        if job is None or job.meta.get(GAVE_UP) or not abandoned(job):
            continue
        attempts = int(job.meta.get(ATTEMPTS, 1))
        if attempts >= max_attempts():
            job.meta[GAVE_UP] = True
            job.save_meta()
            logger.error(
                "Job %s (%s) was abandoned by a dead worker %d time(s); left failed (requeue it by hand).",
                job.id, job.func_name, attempts,
            )  # fmt: skip
            continue
        job.meta[ATTEMPTS] = attempts + 1
        job.save_meta()
        try:
            registry.requeue(job)
        except InvalidJobOperation:
            continue  # requeued by hand meanwhile
        requeued += 1
        logger.warning(
            "Requeued job %s (%s), abandoned by a dead worker: attempt %d of %d.",
            job.id, job.func_name, attempts + 1, max_attempts(),
        )  # fmt: skip
    return requeued
