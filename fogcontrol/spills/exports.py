"""The spills lists as spreadsheets (core/exports.py): spills and spill notices (J1)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from fogcontrol.core.exports import Column


def _written_received(report):
    """When the written report (J2) came in, or None while it has not."""
    try:
        return report.written.received_at
    except ObjectDoesNotExist:
        return None


SPILL_COLUMNS = (
    Column("Started", lambda s: s.started_at or "unknown"),
    Column("Where", lambda s: s.address or s.location_name),
    Column("City", lambda s: s.city),
    Column("Agency", lambda s: s.agency.name if s.agency_id else ""),
    Column("Latitude", lambda s: s.latitude),
    Column("Longitude", lambda s: s.longitude),
    Column("Flagged", lambda s: bool(s.flags)),
    Column("Gallons spilled", lambda s: s.volume_spilled),
    Column("Category", lambda s: s.get_category_display()),
    Column("Cause", lambda s: s.get_cause_display()),
    Column("FSEs linked", lambda s: ", ".join(link.establishment.business_name for link in s.links.all())),
)

REPORT_COLUMNS = (
    Column("When", lambda r: r.occurred_at),
    Column("FSE", lambda r: r.establishment.business_name),
    Column("What", lambda r: r.what),
    Column("Written report due", lambda r: r.written_due_on),
    Column("Written report received", _written_received),
)

IMPORT_COLUMNS = (
    Column("File", lambda i: i.original_filename),
    Column("Kind", lambda i: i.get_kind_display()),
    Column("Status", lambda i: i.get_status_display()),
    Column("Rows", lambda i: (i.dry_run_counts or {}).get("rows")),
    Column("Uploaded", lambda i: i.created_at),
    Column("Uploaded by", lambda i: i.uploaded_by_label),
)
