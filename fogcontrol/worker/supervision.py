"""Keeping the database worker alive through database errors, or ending it so it is restarted.

django-tasks-db's worker loop stops at the first database error it does not expect. On SQLite
that includes `BEGIN EXCLUSIVE` timing out while another process holds the one write lock. Under
the autoreloader (`--reload`, the default when DEBUG is on) the loop runs in a thread: the thread
died, the process stayed up, and queued work never ran.

So: a database error restarts the loop after a back-off that doubles (0.5 s, 1 s, 2 s … at most
30 s) with fresh connections. After `max_db_retries` errors in a row the worker gives up and its
process exits with status 1, for a supervisor (systemd, a container runtime) to restart it. A
loop that then ran for a minute without error counts as recovered. Whatever ends the loop, the
process ends with it: never a live process that runs nothing.

Beside the loop, a housekeeping thread beats, requeues jobs a dead worker left running and queues
the nightly sweep at the Town's time (fogcontrol/worker/housekeeping.py).
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import time

from django.core.management.base import CommandError
from django.db import DatabaseError, connections
from django_tasks.base import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from fogcontrol.core.queue import worker_stopped
from fogcontrol.worker.housekeeping import Housekeeper

logger = logging.getLogger("fogcontrol.worker")

FIRST_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 30.0
# A loop that ran this long before its error had recovered: the count of errors starts again.
RECOVERED_AFTER_SECONDS = 60.0


class WorkerGaveUp(CommandError):
    """The database kept failing: the process exits with status 1 for its supervisor to restart."""


def backoff_seconds(failures: int) -> float:
    """The wait after the n-th database error in a row: 0.5 s, doubling, at most 30 s."""
    return min(MAX_BACKOFF_SECONDS, FIRST_BACKOFF_SECONDS * 2 ** (failures - 1))


def _fresh_connections() -> None:
    """Close every connection, so that the next attempt opens new ones (a broken one stays broken)."""
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except DatabaseError:
            logger.warning("Could not close the %s database connection", connection.alias, exc_info=True)


class SupervisedWorker(Worker):
    """django-tasks-db's Worker, whose loop survives database errors (see the module docstring)."""

    def __init__(self, *, max_db_retries: int, **kwargs):
        super().__init__(**kwargs)
        self.max_db_retries = max_db_retries

    def requeue_own_orphans(self) -> int:
        """Put back in the queue the tasks this worker id was running when its process died (kill -9,
        the OOM killer, a power cut): they would stay "running" for ever. Only with a fixed
        `--worker-id` (the supervisor's name for this worker, unique in the pool): the default id
        is random, and another live worker's tasks are never touched. The task runs again from
        the start, so a task must be safe to re-run (the imports check their own status first)."""
        running = DBTaskResult.objects.running().filter(backend_name=self.backend_name)
        orphans = [
            pk
            for pk, worker_ids in running.values_list("pk", "worker_ids")
            if worker_ids[-1:] == [self.worker_id]
        ]
        if not orphans:
            return 0
        requeued = DBTaskResult.objects.filter(pk__in=orphans, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.READY, started_at=None
        )
        logger.warning(
            "Worker %s put back %d task(s) it was running when it last stopped.", self.worker_id, requeued
        )
        return requeued

    def run(self) -> None:
        keeper = Housekeeper(self.worker_id)
        if keeper.interval <= 0:  # housekeeping turned off (FOGCONTROL_WORKER_BEAT_SECONDS=0)
            self._run_loop()
            return
        keeper.start()
        # Under the autoreloader the loop runs in a thread, and Ctrl-C ends the process from the
        # main thread: the stop is then recorded at exit.
        atexit.register(self._record_stopped)
        try:
            self._run_loop()
        finally:
            keeper.stop()
            atexit.unregister(self._record_stopped)
            self._record_stopped()

    def _record_stopped(self) -> None:
        try:
            worker_stopped(self.worker_id)
        except DatabaseError:
            logger.warning("Could not record that worker %s stopped.", self.worker_id, exc_info=True)

    def _run_loop(self) -> None:
        failures = 0
        while True:
            started = time.monotonic()
            try:
                self.requeue_own_orphans()
                super().run()
                return
            except DatabaseError as error:
                if time.monotonic() - started >= RECOVERED_AFTER_SECONDS:
                    failures = 0
                failures += 1
                if failures > self.max_db_retries:
                    raise WorkerGaveUp(
                        f"The worker stops after {self.max_db_retries} database errors in a row "
                        f"(the last: {error}). Its supervisor should start it again.",
                        returncode=1,
                    ) from error
                delay = backoff_seconds(failures)
                logger.warning(
                    "Database error in worker %s (%s); trying again in %.1f s (%d of %d).",
                    self.worker_id,
                    error,
                    delay,
                    failures,
                    self.max_db_retries,
                )
                _fresh_connections()
                self.startup_delay = False
                if not self.running:
                    return
                time.sleep(delay)


def run_then_end_process(worker: Worker) -> None:
    """Run the worker in the autoreloader's thread, and end the process when the loop ends.

    A thread that ends leaves its process running; the process must end too, with status 1 unless
    the loop ended normally (--max-tasks reached), so that a supervisor sees it and restarts it."""
    status = 1
    try:
        worker.run()
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except CommandError as error:
        logger.error("%s", error)
        status = error.returncode
    except BaseException:
        logger.exception("The worker stopped on an unexpected error.")
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        logging.shutdown()
        os._exit(status)
