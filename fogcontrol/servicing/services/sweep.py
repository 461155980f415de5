"""The nightly sweep (D4, E1, B7): the statuses that change only with the date, set-based.

It runs after the day's writes (cron: `fogcontrol servicing_nightly`, or the nightly task) and
builds on both the device state (state.py) and the frequency changes (frequency.py).
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q

from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.servicing_rules import status_window
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.servicing.services.frequency import frequency_changes_apply_due
from fogcontrol.servicing.services.state import device_state_refresh

# --- the nightly sweep -------------------------------------------------------------------------


def status_sweep(*, today: dt.date | None = None, acting_user="servicing.nightly") -> dict[str, int]:
    """Move the statuses that change with the date (due soon -> overdue ...), set-based (D4, E1).

    Creates the state of devices that have none, applies frequency changes whose B7 date has come,
    then three UPDATE statements. Over the limit and never serviced do not change with the date.
    """
    ctx = ProgramContext(today=today)
    today = ctx.today()
    created = 0
    missing = GreaseControlDevice.objects.filter(service_state__isnull=True).only(
        "pk", "kind", "assigned_frequency_days"
    )
    for device in missing.iterator(chunk_size=500):
        device_state_refresh(device=device, ctx=ctx)
        created += 1
    applied = frequency_changes_apply_due(today=today, acting_user=acting_user, ctx=ctx)
    window = status_window(today, ctx.ruleset(today))
    dated = DeviceServiceState.objects.exclude(status__in=["over_limit", "never_serviced"]).filter(
        next_due__isnull=False
    )
    overdue = dated.filter(next_due__lt=window.overdue_if_due_before).exclude(status="overdue")
    due_soon = dated.filter(
        next_due__gte=window.overdue_if_due_before, next_due__lte=window.due_soon_if_due_by
    ).exclude(status="due_soon")
    compliant = dated.filter(next_due__gt=window.due_soon_if_due_by).exclude(status="compliant")
    counts = {
        "created": created,
        "frequency_changes_applied": applied,
        "overdue": overdue.update(status="overdue", status_on=today),
        "due_soon": due_soon.update(status="due_soon", status_on=today),
        "compliant": compliant.update(status="compliant", status_on=today),
    }
    DeviceServiceState.objects.exclude(status_on=today).filter(
        Q(status__in=["over_limit", "never_serviced"]) | Q(next_due__isnull=True)
    ).update(status_on=today)
    return counts
