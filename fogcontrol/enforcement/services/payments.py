"""Billing tells enforcement what was paid (issue #14): billing picks penalty orders (P8, P12) and
the costs of disconnection and reinstatement (O2) up, and on payment in full of their invoice
records it here, on the producer's own record (``PenaltyOrder.paid_on``, ``ServiceCost.paid_on``).
Billing sits above enforcement and calls these; a penalty paid is no longer owed under H3."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.enforcement.models import PenaltyOrder, ServiceCost


def _mark_paid(model, ids, *, acting_user, action: str, paid_on: dt.date, reference: str) -> int:
    records = list(
        model.objects.select_for_update(of=("self",))
        .filter(pk__in=list(ids), paid_on__isnull=True)
        .order_by("pk")
    )
    if not records:
        return 0
    befores = [snapshot(record) for record in records]
    model.objects.filter(pk__in=[r.pk for r in records]).update(paid_on=paid_on)
    for record in records:
        record.paid_on = paid_on
    audit_records_bulk(
        acting_user=acting_user,
        action=action,
        changes=[(r, b, snapshot(r)) for r, b in zip(records, befores, strict=True)],
        note=f"Paid through billing ({reference}).",
    )
    return len(records)


@transaction.atomic
def penalty_orders_mark_paid(*, ids, acting_user, paid_on: dt.date, reference: str) -> int:
    """P8, P12: the penalty orders ``ids`` were paid in full through billing on ``paid_on``."""
    return _mark_paid(PenaltyOrder, ids, acting_user=acting_user, action="penalty_order.paid",
                      paid_on=paid_on, reference=reference)  # fmt: skip


@transaction.atomic
def service_costs_mark_paid(*, ids, acting_user, paid_on: dt.date, reference: str) -> int:
    """O2: the disconnection or reinstatement costs ``ids`` were paid in full through billing."""
    return _mark_paid(ServiceCost, ids, acting_user=acting_user, action="service_cost.paid",
                      paid_on=paid_on, reference=reference)  # fmt: skip
