"""The one write of the "Background work" page: queue the nightly sweep of a day now."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record
from fogcontrol.core.permissions import require_role
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.worker.models import SweepRun
from fogcontrol.worker.sweep import SWEEP_TASK, sweep_run_for


@transaction.atomic
def sweep_queue_now(*, acting_user, on: dt.date | None = None) -> SweepRun:
    """Queue the sweep of `on` (default today, Town time) now: after a step failed, or to bring
    today's statuses up to date before the night. Steps done that day are not run again."""
    require_role(acting_user, [Role.FOG_MANAGER], "Only the FOG Manager may start the nightly sweep.")
    day = on or town_today()
    run = sweep_run_for(day)
    before = {"scheduled_at": run.scheduled_at.isoformat() if run.scheduled_at else None}
    run.scheduled_at = timezone.now()
    run.save(update_fields=["scheduled_at"])
    enqueue_on_commit(SWEEP_TASK, day=day.isoformat())
    audit_record(
        acting_user=acting_user,
        action="sweep.queue",
        instance=run,
        before=before,
        after={"scheduled_at": run.scheduled_at.isoformat()},
        note=f"The sweep of {day} queued by hand.",
    )
    return run
