"""The nightly sweep (D4, E1, B7): the statuses that change only with the date, set-based.

It runs after the day's writes (cron: `fogcontrol servicing_nightly`, or the nightly task) and
builds on both the device state (state.py) and the frequency changes (frequency.py).

A device's state is derived data: a manifest or reading that changes it is audited, not the
state. A status the sweep moves has no such cause (the date moved it), so the sweep audits each
change itself, under its job label, set-based like the change: per batch of devices, one SELECT
of their ids, one INSERT … SELECT of audit entries with each device's before and after built by the
database, and one UPDATE per new status.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q

from fogcontrol.audit.set_sql import audit_insert_select
from fogcontrol.rules.servicing_rules import status_window
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.servicing.services.frequency import frequency_changes_apply_due
from fogcontrol.servicing.services.state_bulk import device_states_create_missing

# Devices whose status one batch of the sweep moves (and audits) together.
SWEEP_BATCH = 500


def _dated_status(next_due: dt.date, window) -> str:
    """The status a dated device has on the window's day (the same bounds as rules.status_window)."""
    if next_due < window.overdue_if_due_before:
        return "overdue"
    if next_due <= window.due_soon_if_due_by:
        return "due_soon"
    return "compliant"


def _status_case(window) -> tuple[str, list]:
    """The SQL of ``_dated_status`` over the row ``t`` (a JSON text value for the audit's after)."""
    return (
        "CAST(CASE WHEN t.next_due < %s THEN 'overdue' WHEN t.next_due <= %s THEN 'due_soon' "
        "ELSE 'compliant' END AS TEXT)",
        [window.overdue_if_due_before, window.due_soon_if_due_by],
    )


def _move_statuses(*, window, today: dt.date, acting_user) -> dict[str, int]:
    """Move every dated status the date has changed, a batch at a time: per batch one SELECT of the
    devices (locked), one INSERT … SELECT of audit entries with each device's before and after
    built by the database (audit.set_sql), one UPDATE per new status."""
    overdue_before, soon_by = window.overdue_if_due_before, window.due_soon_if_due_by
    stale = (
        DeviceServiceState.objects.exclude(status__in=["over_limit", "never_serviced"])
        .filter(next_due__isnull=False)
        .filter(
            (Q(next_due__lt=overdue_before) & ~Q(status="overdue"))
            | (Q(next_due__gte=overdue_before, next_due__lte=soon_by) & ~Q(status="due_soon"))
            | (Q(next_due__gt=soon_by) & ~Q(status="compliant"))
        )
        .order_by("pk")
    )
    moved = {"overdue": 0, "due_soon": 0, "compliant": 0}
    status_sql, status_params = _status_case(window)
    text = "CAST(%s AS TEXT)"
    # One transaction: a status moves together with its audit entry, or not at all.
    with transaction.atomic():
        while True:
            batch = list(stale.select_for_update().values_list("pk", "next_due")[:SWEEP_BATCH])
            by_status: dict[str, list[int]] = {}
            for pk, next_due in batch:  # moved rows leave `stale`
                by_status.setdefault(_dated_status(next_due, window), []).append(pk)
            audit_insert_select(
                acting_user=acting_user,
                action="device_state.sweep",
                model=DeviceServiceState,
                ids=[pk for pk, _ in batch],
                after={"status": (status_sql, status_params), "status_on": (text, [today.isoformat()])},
                object_repr=(f"CAST(t.device_id AS TEXT) || ': ' || {status_sql}", status_params),
                note="The status changed with the date (D4, E1).",
            )
            for status, pks in by_status.items():
                DeviceServiceState.objects.filter(pk__in=pks).update(status=status, status_on=today)
                moved[status] += len(pks)
            if len(batch) < SWEEP_BATCH:
                return moved


def status_sweep(*, today: dt.date | None = None, acting_user="servicing.nightly") -> dict[str, int]:
    """Move the statuses that change with the date (due soon -> overdue ...), set-based (D4, E1).

    Creates the state of devices that have none, applies frequency changes whose B7 date has come,
    then moves the statuses in batches, auditing every move. Over the limit and never serviced do
    not change with the date.
    """
    ctx = ProgramContext(today=today)
    today = ctx.today()
    created = device_states_create_missing(ctx=ctx)  # each batch one INSERT: no transaction needed
    applied = frequency_changes_apply_due(today=today, acting_user=acting_user, ctx=ctx)
    window = status_window(today, ctx.ruleset(today))
    moved = _move_statuses(window=window, today=today, acting_user=acting_user)
    # Statuses that do not change with the date are only judged again: the date moves, nothing
    # a reader would see, so it is not audited.
    DeviceServiceState.objects.exclude(status_on=today).filter(
        Q(status__in=["over_limit", "never_serviced"]) | Q(next_due__isnull=True)
    ).update(status_on=today)
    return {"created": created, "frequency_changes_applied": applied, **moved}
