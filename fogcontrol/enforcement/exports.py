"""Enforcement's lists as spreadsheets (core/exports.py): cases and violations, as their pages show them."""

from __future__ import annotations

from fogcontrol.core.exports import Column

CASE_COLUMNS = (
    Column("Case", lambda c: c.reference),
    Column("Summary", lambda c: c.summary),
    Column("Establishment", lambda c: c.establishment.business_name),
    Column("Opened", lambda c: c.opened_on),
    Column("Violations", lambda c: c.violation_count),
    Column("Open violations", lambda c: c.open_violation_count),
    Column("Status", lambda c: "Open" if c.is_open else "Closed"),
)

VIOLATION_COLUMNS = (
    Column("Provision", lambda v: v.provision),
    Column("Description", lambda v: v.description),
    Column("Kind", lambda v: v.get_kind_display()),
    Column("Establishment", lambda v: v.establishment.business_name),
    Column("Device", lambda v: v.device.identifier if v.device_id else ""),
    Column("Began", lambda v: v.began_on),
    Column("Days (P3)", lambda v: v.days),
    Column("Status", lambda v: "Open" if v.is_open else "Cured"),
    Column("Cured on", lambda v: v.cured_on),
    Column("Source", lambda v: v.get_source_display()),
)

HEARING_COLUMNS = (
    Column("Date", lambda h: h.scheduled_on),
    Column("Place", lambda h: h.place),
    Column("Kind", lambda h: h.get_kind_display()),
    Column("Case", lambda h: h.case.reference),
    Column("Establishment", lambda h: h.case.establishment.business_name),
    Column("Decided", lambda h: h.decided_on),
)
