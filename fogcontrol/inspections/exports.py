"""The inspections lists as spreadsheets (core/exports.py): inspections and D6 charges."""

from __future__ import annotations

from fogcontrol.core.exports import Column

INSPECTION_COLUMNS = (
    Column("Day", lambda i: i.visited_on or i.scheduled_on),
    Column("Establishment", lambda i: i.establishment.business_name),
    Column("Site address", lambda i: i.establishment.site_address),
    Column("Kind", lambda i: i.get_kind_display()),
    Column("Inspector", lambda i: str(i.inspector) if i.inspector_id else ""),
    Column("Status", lambda i: i.get_status_display()),
    Column("Outside business hours (D1)", lambda i: i.outside_hours),
)

CHARGE_COLUMNS = (
    Column("Incurred", lambda c: c.incurred_on),
    Column("Establishment", lambda c: c.establishment.business_name),
    Column("What (D6)", lambda c: c.get_kind_display()),
    Column("Inspection", lambda c: c.inspection_id),
    Column("Sample", lambda c: c.sample_id),
    Column("Quantity", lambda c: c.quantity),
    Column("Unit", lambda c: c.unit),
    Column("Rate", lambda c: c.rate),
    Column("Fee schedule", lambda c: c.fee_schedule.label),
    Column("Amount", lambda c: c.amount),
    Column("Case", lambda c: c.reason),
    Column("Status", lambda c: c.get_status_display()),
)

DUE_COLUMNS = (
    Column("Establishment", lambda i: i.business_name),
    Column("Site address", lambda i: i.site_address),
    Column("Priority", lambda i: i.priority),
    Column("Reasons", lambda i: "; ".join(f"{r.text}: {r.points} ({r.provision})" for r in i.risk.reasons)),
    Column("Due (D8)", lambda i: i.due_on),
    Column("Overdue", lambda i: i.overdue),
    Column("Last inspected", lambda i: i.last_inspected_on or "never"),
    Column("Scheduled on", lambda i: i.scheduled_on),
    Column("Scheduled for", lambda i: str(i.scheduled_inspector) if i.scheduled_inspector else ""),
)
