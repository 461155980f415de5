"""The Town settings' lists as spreadsheets (core/exports.py): the holiday calendar of a year and the
ruleset versions."""

from __future__ import annotations

from fogcontrol.core.exports import Column


def _ruleset_status(version) -> str:
    if getattr(version, "is_current", False):
        return "In force"
    return "Past (read-only)" if version.locked else "Future"


HOLIDAY_COLUMNS = (
    Column("Date", lambda h: h.date),
    Column("Day", lambda h: f"{h.date:%A}"),
    Column("Name", lambda h: h.name),
    Column("Kind", lambda h: h.get_kind_display()),
)

RULESET_COLUMNS = (
    Column("In force from", lambda v: v.effective_from),
    Column("Version", lambda v: v.label),
    Column("Adopted by", lambda v: v.adoption_reference),
    Column("Adopted on", lambda v: v.adopted_on),
    Column("Changes from Chapter 10.02", lambda v: v.change_count),
    Column("Status", _ruleset_status),
    Column("Created by", lambda v: v.created_by or ""),
)
