"""The sampling lists as spreadsheets (core/exports.py): samples, discharge limits (D4, D5) and
monitoring facilities (D7)."""

from __future__ import annotations

from fogcontrol.core.exports import Column

SAMPLE_COLUMNS = (
    Column("Taken", lambda s: s.sampled_at),
    Column("Establishment", lambda s: s.establishment.business_name),
    Column("Device", lambda s: s.device.identifier if s.device_id else ""),
    Column("Kind", lambda s: s.get_kind_display()),
    Column("Sample point", lambda s: s.sample_point),
    Column("Laboratory", lambda s: s.laboratory),
    Column("Results", lambda s: s.result_count),
    Column("Results outside the limit (D5)", lambda s: s.outside_count),
)

LIMIT_COLUMNS = (
    Column("Establishment", lambda lim: lim.establishment.business_name),
    Column("Permit", lambda lim: (lim.permit.number or lim.permit.pk) if lim.permit_id else ""),
    Column("Analyte", lambda lim: lim.get_analyte_display()),
    Column("Limit", lambda lim: lim.wording),
    Column("In force from", lambda lim: lim.effective_from),
    Column("Provision", lambda lim: lim.provision),
    Column("Condition", lambda lim: lim.condition),
)

FACILITY_COLUMNS = (
    Column("Establishment", lambda f: f.establishment.business_name),
    Column("What", lambda f: f.get_kind_display()),
    Column("Description", lambda f: f.description),
    Column("Location", lambda f: f.location),
    Column("Required", lambda f: f.required_on),
    Column("Due (D7)", lambda f: f.due_on),
    Column("Installed", lambda f: f.installed_on),
)
