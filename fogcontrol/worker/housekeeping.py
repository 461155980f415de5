"""What a worker does beside running jobs, in a thread of its own, every few seconds:

1. it beats (`worker_beat`), so staff see it is alive and no one takes its jobs for abandoned;
2. it requeues the jobs a dead worker left "running" (`requeue_stuck`);
3. it queues the day's nightly sweep at the Town's time (`schedule_due_sweep`).

The thread has its own database connections. A database error is logged and tried again at the
next beat: housekeeping never stops the worker. `beating(worker_id)` beats alone, for a process
that is not a worker (`fogcontrol sweep` run by hand or by cron).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections

from fogcontrol.core.queue import requeue_stuck, worker_beat, worker_stopped
from fogcontrol.worker.scheduler import schedule_due_sweep

logger = logging.getLogger("fogcontrol.worker")


def housekeeping_tick(worker_id: str) -> None:
    """One round: beat, requeue what dead workers left, queue the sweep if it is due."""
    worker_beat(worker_id)
    requeued = requeue_stuck()
    if requeued:
        logger.warning("Requeued %d job(s) left running by a worker that stopped beating.", requeued)
    day = schedule_due_sweep()
    if day is not None:
        logger.info("Queued the nightly sweep of %s.", day)


class Housekeeper(threading.Thread):
    """Calls `tick(worker_id)` now and every `interval` seconds until `stop()`."""

    def __init__(self, worker_id: str, *, tick: Callable[[str], None] = housekeeping_tick, interval=None):
        super().__init__(name=f"housekeeping-{worker_id}", daemon=True)
        self.worker_id = worker_id
        self.tick = tick
        self.interval = settings.FOGCONTROL_WORKER_BEAT_SECONDS if interval is None else interval
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.is_set():
            try:
                close_old_connections()
                self.tick(self.worker_id)
            except DatabaseError as error:
                logger.warning(
                    "Worker housekeeping met a database error (%s); trying at the next beat.", error
                )
                connections.close_all()
            except Exception:
                logger.exception("Worker housekeeping failed; trying at the next beat.")
            self._stopping.wait(self.interval)
        connections.close_all()

    def stop(self) -> None:
        self._stopping.set()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout=10)


@contextlib.contextmanager
def beating(worker_id: str) -> Iterator[None]:
    """Beat as `worker_id` while the block runs (in a thread), and say it stopped afterwards."""
    keeper = Housekeeper(worker_id, tick=worker_beat)
    if keeper.interval > 0:  # 0: no thread (tests); the sweep still beats before each step
        keeper.start()
    try:
        yield
    finally:
        keeper.stop()
        try:
            worker_stopped(worker_id)
        except DatabaseError:
            logger.warning("Could not record that %s stopped.", worker_id, exc_info=True)
