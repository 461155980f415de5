"""The permits lists as spreadsheets (core/exports.py): applications, permits, renewals due (B6),
FSEs without a permit (B1) and remodel notices (G1)."""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.exports import Column
from fogcontrol.permits.models import PermitStatus

APPLICATION_COLUMNS = (
    Column("Reference", lambda a: a.reference),
    Column("Establishment", lambda a: a.establishment.business_name),
    Column("Kind", lambda a: a.get_kind_display()),
    Column("Route", lambda a: a.get_route_display()),
    Column("Status", lambda a: a.get_status_display()),
    Column("Submitted", lambda a: a.submitted_at),
    Column("Fixtures", lambda a: a.fixture_count),
    Column("Permit", lambda a: a.permit.number if a.permit_id else ""),
)


def permit_status(permit, today: dt.date) -> str:
    """As the list shows it: an issued permit past its term is "Expired"."""
    if permit.status == PermitStatus.ISSUED and permit.valid_until < today:
        return "Expired"
    return permit.get_status_display()


def permit_columns(today: dt.date):
    return (
        Column("Number", lambda p: p.number),
        Column("Establishment", lambda p: p.establishment.business_name),
        Column("Device kind", lambda p: p.get_device_kind_display()),
        Column("Device", lambda p: p.device.identifier if p.device_id else ""),
        Column("Device size", lambda p: p.device_size),
        Column("Service frequency (days)", lambda p: p.service_frequency_days),
        Column("Valid until", lambda p: p.valid_until),
        Column("Status", lambda p: permit_status(p, today)),
    )


RENEWAL_COLUMNS = (
    Column("Permit", lambda p: p.number),
    Column("Establishment", lambda p: p.establishment.business_name),
    Column("Business licence", lambda p: p.establishment.licence_number),
    Column("Licence expires", lambda p: p.establishment.licence_expires_on or "no expiry on record"),
    Column("Renew by (B6)", lambda p: p.renew_by),
    Column("Permit valid until", lambda p: p.valid_until),
    Column("Renewal", lambda p: "In progress" if p.renewal_open else "Not started"),
)

WITHOUT_PERMIT_COLUMNS = (
    Column("Establishment", lambda f: f.business_name),
    Column("Business licence", lambda f: f.licence_number),
    Column("Site", lambda f: f.site_address),
    Column("Last permit", lambda f: f.last_permit_number or "never held one"),
    Column(
        "Last permit status",
        lambda f: PermitStatus(f.last_permit_status).label if f.last_permit_status else "",
    ),
    Column("Last permit valid until", lambda f: f.last_valid_until),
    Column("Open application", lambda f: f.open_application),
)

REMODEL_COLUMNS = (
    Column("Reference", lambda n: n.reference),
    Column("Establishment", lambda n: n.establishment.business_name),
    Column("Kind", lambda n: n.get_kind_display()),
    Column("Filed", lambda n: n.filed_on),
    Column("Work starts", lambda n: n.planned_start),
    Column("Notice", lambda n: "Late (G1)" if n.late else "In time"),
    Column("Plan review", lambda n: n.get_plan_review_display()),
)
