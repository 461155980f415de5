"""The one nightly sweep: every app's registered step (fogcontrol/core/sweep.py), in order, once a day.

`sweep_run(on=day, owner=worker_id)`:

- **Once per day, whoever asks.** The day's `SweepRun` row names its `owner`. A runner claims the
  day with one conditional UPDATE (`owner` still what it read), so of two runners started together
  exactly one wins; the other returns at once (`held_by`). A claim lasts while its owner beats
  (`fogcontrol.core.queue.worker_beat`): a runner that died is taken over once it has been silent
  for `stale_after()`.
- **Idempotent and resumable.** A step is marked done (`SweepStep`) only after it returned; a rerun
  skips the steps done and runs the others from their start: the one interrupted (killed, or
  failed on an error) is redone. Each step is idempotent, so redoing one changes nothing twice.
- **In order, stopping at a failure.** Later steps build on earlier ones (enforcement on the
  findings of records, spills and sampling; billing on enforcement's penalties): a step that
  raises stops the run (`SweepStepFailed`), its error is kept on the step, and the owner lets go.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging

from django.db import IntegrityError
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from fogcontrol.core.queue import live_worker_ids, worker_beat
from fogcontrol.core.sweep import steps
from fogcontrol.worker.models import SweepRun, SweepStep

logger = logging.getLogger("fogcontrol.worker")

# The task that runs `sweep_run` in the worker (queued by its path, fogcontrol/core/queue.py).
SWEEP_TASK = "fogcontrol.worker.tasks.run_nightly_sweep"


class SweepStepFailed(Exception):
    """A step raised: the run stopped there. The next run of the day starts again at that step."""


@dataclasses.dataclass
class SweepOutcome:
    day: dt.date
    ran: dict[str, object] = dataclasses.field(default_factory=dict)  # step name -> its counts
    already_done: list[str] = dataclasses.field(default_factory=list)
    held_by: str | None = None  # another runner holds the day: nothing was run

    def as_dict(self) -> dict:
        return {
            "day": self.day.isoformat(),
            "ran": self.ran,
            "already_done": self.already_done,
            "held_by": self.held_by,
        }


def sweep_run_for(day: dt.date) -> SweepRun:
    """The day's run row, made if it is not there (two callers at once get the same row)."""
    try:
        run, _ = SweepRun.objects.get_or_create(day=day)
    except IntegrityError:
        run = SweepRun.objects.get(day=day)
    return run


def _claim(run: SweepRun, owner: str, now: dt.datetime) -> str | None:
    """Claim the day for `owner`; None when claimed, else the live owner that holds it."""
    seen = run.owner
    if seen and seen != owner and seen in live_worker_ids(now=now):
        return seen
    claimed = SweepRun.objects.filter(pk=run.pk, owner=seen).update(
        owner=owner, claimed_at=now, started_at=Coalesce(F("started_at"), now)
    )
    if claimed:
        return None
    # Another runner claimed it between our read and our write.
    return SweepRun.objects.filter(pk=run.pk).values_list("owner", flat=True).first() or "another runner"


def _jsonable(value: object) -> object:
    return json.loads(json.dumps(value, default=str))


def sweep_run(*, on: dt.date, owner: str) -> SweepOutcome:
    """Run the day's sweep as `owner` (a worker id that beats). See the module docstring."""
    outcome = SweepOutcome(day=on)
    run = sweep_run_for(on)
    worker_beat(owner)
    holder = _claim(run, owner, timezone.now())
    if holder is not None:
        logger.info("The sweep of %s is being run by %s; not running it twice.", on, holder)
        outcome.held_by = holder
        return outcome
    try:
        for step in steps():
            row, _ = SweepStep.objects.get_or_create(run=run, name=step.name, defaults={"order": step.order})
            if row.status == SweepStep.Status.DONE:
                outcome.already_done.append(step.name)
                continue
            worker_beat(owner)
            SweepStep.objects.filter(pk=row.pk).update(
                status=SweepStep.Status.RUNNING,
                order=step.order,
                attempts=F("attempts") + 1,
                started_at=timezone.now(),
                finished_at=None,
                error="",
            )
            try:
                result = _jsonable(step.run(on=on, acting_user=step.acting_user))
            except Exception as error:
                SweepStep.objects.filter(pk=row.pk).update(
                    status=SweepStep.Status.FAILED,
                    finished_at=timezone.now(),
                    error=f"{type(error).__name__}: {error}"[:4000],
                )
                logger.exception("The %s step of the sweep of %s failed.", step.name, on)
                raise SweepStepFailed(f"The {step.name} step of the sweep of {on} failed: {error}") from error
            SweepStep.objects.filter(pk=row.pk).update(
                status=SweepStep.Status.DONE, finished_at=timezone.now(), result=result
            )
            outcome.ran[step.name] = result
        SweepRun.objects.filter(pk=run.pk).update(finished_at=timezone.now())
    finally:
        SweepRun.objects.filter(pk=run.pk, owner=owner).update(owner="")
    return outcome
