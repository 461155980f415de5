"""The RQ worker of a Town whose background work runs on Redis (`FOGCONTROL_TASKS=rq`).

    fogcontrol rqworker --job-class django_tasks_rq.Job \\
        --worker-class fogcontrol.worker.rq_worker.HousekeepingWorker

RQ's worker runs the jobs (each in a forked work horse, as RQ does); this class adds what the
database worker does beside them (fogcontrol/worker/housekeeping.py), in a thread of the parent
process: it beats under its RQ name (the name the nightly sweep's claim is held by), it puts back
the jobs of a worker that died (`requeue_stuck`: fogcontrol/core/queue_rq.py, a bounded number of
times), and it queues the day's nightly sweep at the Town's time. Of several workers, one queues
it (the day's `SweepRun` row) and one runs it (the sweep's claim), so no cron is needed on Redis either.

Needs the `redis` extra (django-tasks-rq, which brings RQ and django-rq).
"""

from __future__ import annotations

import logging

from django.db import DatabaseError
from rq.worker import Worker

from fogcontrol.core.queue import worker_stopped
from fogcontrol.worker.housekeeping import Housekeeper

logger = logging.getLogger("fogcontrol.worker")


class HousekeepingWorker(Worker):
    """RQ's forking worker, with the housekeeping thread running while it works."""

    def work(self, *args, **kwargs) -> bool:
        keeper = Housekeeper(self.name)
        keeper.start()
        logger.info("Housekeeping started for RQ worker %s.", self.name)
        try:
            return super().work(*args, **kwargs)
        finally:
            keeper.stop()
            try:
                worker_stopped(self.name)
            except DatabaseError:
                logger.warning("Could not record that %s stopped.", self.name, exc_info=True)
