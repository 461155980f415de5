"""The records lists as spreadsheets (core/exports.py): the review queue and waste-oil pickups (C2)."""

from __future__ import annotations

from fogcontrol.core.exports import Column

REVIEW_QUEUE_COLUMNS = (
    Column("Received", lambda s: s.received_at),
    Column("Establishment", lambda s: s.requirement.establishment.business_name),
    Column("What", lambda s: s.requirement.get_kind_display()),
    Column("Period", lambda s: s.period_number),
    Column("Correction", lambda s: s.corrects_id is not None),
    Column("Due", lambda s: s.period_due_on),
    Column("File", lambda s: s.original_name),
)

PICKUP_COLUMNS = (
    Column("Date", lambda p: p.picked_up_on),
    Column("Establishment", lambda p: p.establishment.business_name),
    Column("Gallons", lambda p: p.gallons),
    Column("Taken by", lambda p: p.collector),
    Column("Receipt kept", lambda p: bool(p.receipt)),
)
