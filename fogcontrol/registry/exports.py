"""The registry lists' export columns (core/exports.py): what each list page shows, as a spreadsheet."""

from __future__ import annotations

from fogcontrol.core.exports import Column


def _names(records) -> str:
    return ", ".join(str(record) for record in records)


ESTABLISHMENT_COLUMNS = (
    Column("Business name", lambda fse: fse.business_name),
    Column("Business licence", lambda fse: fse.licence_number),
    Column("Site address", lambda fse: fse.site_address),
    Column("Parcel (APN)", lambda fse: fse.parcel.apn if fse.parcel_id else ""),
    Column("Category", lambda fse: fse.get_category_display()),
    Column("Devices", lambda fse: fse.device_count),
    Column("Status", lambda fse: fse.get_status_display()),
)

DEVICE_COLUMNS = (
    Column("Device", lambda d: d.identifier),
    Column("Kind", lambda d: d.get_kind_display()),
    Column("Capacity (gallons)", lambda d: d.capacity_gallons),
    Column("Rated flow (gpm)", lambda d: d.rated_flow_gpm),
    Column("Parcel (APN)", lambda d: d.parcel.apn if d.parcel_id else ""),
    Column("FSEs served", lambda d: _names(d.establishments.all())),
    Column("A4 flags", lambda d: "; ".join(d.a4_flags or [])),
    Column("Design depth missing (E3)", lambda d: d.total_design_depth_in is None),
    Column("Status", lambda d: d.get_status_display()),
)

PARCEL_COLUMNS = (
    Column("Parcel number (APN)", lambda p: p.apn),
    Column("Address", lambda p: p.situs_address),
    Column("City", lambda p: p.city),
    Column("Owner", lambda p: p.owner.name if p.owner_id else ""),
    Column("FSEs", lambda p: p.fse_count),
)

PARTY_COLUMNS = (
    Column("Name", lambda p: p.name),
    Column("Kind", lambda p: p.get_kind_display()),
    Column("Contact person", lambda p: p.contact_name),
    Column("Phone", lambda p: p.phone),
    Column("Email", lambda p: p.email),
)

HAULER_COLUMNS = (
    Column("Company", lambda h: h.name),
    Column("State registration", lambda h: h.state_registration_number),
    Column("Phone", lambda h: h.phone),
    Column("Vehicles", lambda h: h.vehicle_count),
    Column("Status", lambda h: "Active" if h.active else "Inactive"),
)
# The page shows staff how many customers each hauler serves; an outside user does not see it.
HAULER_STAFF_COLUMNS = (
    *HAULER_COLUMNS[:4],
    Column("Customers", lambda h: h.customer_count),
    HAULER_COLUMNS[4],
)

# The rows of one licence import's report (registry/imports), as the report page lists them.
IMPORT_ROW_COLUMNS = (
    Column("Row", lambda r: r.row_number),
    Column("Outcome", lambda r: r.get_outcome_display()),
    Column("Effect", lambda r: r.get_effect_display() if r.outcome == "doubtful" else ""),
    Column("Licence", lambda r: r.licence_number),
    Column("Business name", lambda r: r.business_name),
    Column("Changed", lambda r: ", ".join(r.changed_fields or [])),
    Column("Reason", lambda r: r.reason_text),
)
