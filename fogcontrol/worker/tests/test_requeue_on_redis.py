"""Issue 20: on RQ, a job whose worker died is put back in the queue by the next worker's housekeeping
(`requeue_stuck`, fogcontrol/core/queue_rq.py), a bounded number of times; a live worker's job, and
a job of a worker that never beat here, are left alone. Against the local Redis
(`redis_for_tests`: skipped without one, except in CI). tests/test_rq_requeue.py does it with real
processes and kill -9."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from fogcontrol.core.queue import requeue_stuck, worker_beat
from fogcontrol.core.queue_rq import ATTEMPTS, GAVE_UP
from fogcontrol.testing.servers import redis_flush, redis_for_tests
from fogcontrol.testing.tasks import note_and_wait
from fogcontrol.worker.housekeeping import housekeeping_tick

pytestmark = pytest.mark.django_db


@pytest.fixture
def rq_queue(settings):
    url = redis_for_tests()
    settings.RQ_QUEUES = {"default": {"URL": url}}
    settings.TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    settings.FOGCONTROL_WORKER_MAX_ATTEMPTS = 3
    import django_rq
    from django_tasks_rq.backend import Job

    try:
        yield django_rq.get_queue("default", job_class=Job)
    finally:
        redis_flush(url)


def _mark_started(queue, job, worker: str, *, minutes_ago: float = 30):
    """`job` taken by `worker` as RQ takes one: STARTED, in the started registry with a heartbeat
    that has not expired (its worker's death is not yet RQ's to see)."""
    from rq.job import JobStatus

    job.worker_name = worker
    job.started_at = timezone.now() - dt.timedelta(minutes=minutes_ago)
    job.set_status(JobStatus.STARTED)
    job.save()
    registry = queue.started_job_registry
    registry.connection.zadd(registry.key, {f"{job.id}:exec-{worker}": time.time() + 3600})
    return job


def _started_by(queue, worker: str, *, minutes_ago: float = 30):
    """A queued job taken out of the queue by `worker`."""
    job = queue.fetch_job(note_and_wait.enqueue("/nonexistent/mark", 0).id)
    queue.remove(job.id)
    return _mark_started(queue, job, worker, minutes_ago=minutes_ago)


def test_a_job_of_a_dead_rq_worker_is_requeued_until_its_attempts_are_spent(rq_queue):
    queue = rq_queue
    worker_beat("rq-dead", now=timezone.now() - dt.timedelta(minutes=30))
    job = _started_by(queue, "rq-dead")

    housekeeping_tick("rq-next")
    assert queue.get_job_ids() == [job.id], "back in the queue"
    assert queue.started_job_registry.get_job_ids() == [] and queue.failed_job_registry.get_job_ids() == []
    job.refresh()
    assert job.meta[ATTEMPTS] == 2

    # Its next worker dies too, and the next: three attempts in all, then it stays failed.
    for worker, attempts in (("rq-dead-2", 3), ("rq-dead-3", 3)):
        worker_beat(worker, now=timezone.now() - dt.timedelta(minutes=30))
        queue.remove(job.id)
        job = _restarted(queue, job, worker)
        requeue_stuck()
        job.refresh()
        assert job.meta[ATTEMPTS] == attempts
    assert queue.get_job_ids() == []
    assert queue.failed_job_registry.get_job_ids() == [job.id] and job.meta[GAVE_UP] is True
    assert requeue_stuck() == 0


def _restarted(queue, job, worker):
    """The requeued job taken again by `worker`, keeping its meta."""
    job.refresh()
    return _mark_started(queue, job, worker)


def test_a_live_workers_job_and_a_job_of_a_worker_that_never_beat_here_are_left_alone(rq_queue):
    queue = rq_queue
    worker_beat("rq-alive")
    busy = _started_by(queue, "rq-alive")
    plain = _started_by(queue, "plain-rqworker")  # not the housekeeping worker: RQ's own time-out
    assert requeue_stuck() == 0
    assert sorted(queue.started_job_registry.get_job_ids()) == sorted([busy.id, plain.id])
    assert queue.failed_job_registry.get_job_ids() == [] and queue.get_job_ids() == []


def test_a_job_that_failed_on_an_error_is_not_rerun(rq_queue):
    from rq.job import JobStatus

    queue = rq_queue
    job = queue.fetch_job(note_and_wait.enqueue("/nonexistent/mark", 0).id)
    queue.remove(job.id)
    job.meta["_django_tasks_rq_exceptions"] = ["builtins.ValueError"]
    job.set_status(JobStatus.FAILED)
    job.save()
    queue.failed_job_registry.add(job, exc_string="ValueError: a bad row")
    assert requeue_stuck() == 0
    assert queue.failed_job_registry.get_job_ids() == [job.id]


def test_a_worker_killed_while_cleaning_the_queue_does_not_hold_back_the_requeue(rq_queue):
    """RQ's maintenance lock lives 15 minutes; a worker killed -9 while holding it (RQ's own clean-up,
    or our housekeeping's) must not keep its jobs from being requeued by the next worker that long."""
    queue = rq_queue
    assert queue.acquire_maintenance_lock(), "as a worker killed mid clean-up leaves it"
    worker_beat("rq-dead", now=timezone.now() - dt.timedelta(minutes=30))
    job = _started_by(queue, "rq-dead")

    assert requeue_stuck() == 1
    assert queue.get_job_ids() == [job.id], "back in the queue"
