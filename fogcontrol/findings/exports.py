"""The findings list as a spreadsheet (core/exports.py)."""

from __future__ import annotations

from fogcontrol.core.exports import Column

FINDING_COLUMNS = (
    Column("Provision", lambda f: f.provision),
    Column("Description", lambda f: f.description),
    Column("Establishment", lambda f: f.establishment.business_name),
    Column("Site address", lambda f: f.establishment.site_address),
    Column("Device", lambda f: f.device.identifier if f.device_id else ""),
    Column("Began", lambda f: f.began_on),
    Column("Reading", lambda f: f.reading),
    Column("Source", lambda f: f.get_source_display()),
    Column("Status", lambda f: "Open" if f.is_open else "Closed"),
    Column("Closed how", lambda f: f.get_closed_how_display() if f.closed_how else ""),
    Column("Closing evidence", lambda f: f.closing_evidence),
)
