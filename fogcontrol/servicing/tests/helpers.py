"""Shared test helpers: a valid manifest submission, and submitting one as a user."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from fogcontrol.servicing import certification
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.services import ManifestSubmission, manifest_submit

_numbers = iter(range(10_000, 10**9))


def days_ago(days: int, hour: int = 10) -> dt.datetime:
    now = timezone.localtime()
    return (now - dt.timedelta(days=days)).replace(hour=hour, minute=0, second=0, microsecond=0)


def submission(device, **changes) -> ManifestSubmission:
    values = dict(
        device=device,
        manifest_number=f"T-{next(_numbers)}",
        serviced_at=days_ago(3),
        full_pumpout=True,
        baffles_cleaned=True,
        certified_by_name="Dana Driver",
        certification_version=certification.CURRENT_VERSION,
        fog_depth_in=Decimal("4"),
        solids_depth_in=Decimal("3"),
        gallons_removed=Decimal("900"),
        driver_name="Dana Driver",
    )
    values.update(changes)
    return ManifestSubmission(**values)


def submit(user, device, channel=Manifest.Channel.PORTAL, **changes) -> Manifest:
    return manifest_submit(
        acting_user=user, submission=submission(device, **changes), channel=channel, raw={"test": True}
    )


def api_body(device, **changes) -> dict:
    body = {
        "device": device.identifier,
        "manifest_number": f"API-{next(_numbers)}",
        "serviced_at": days_ago(2).isoformat(),
        "full_pumpout": True,
        "baffles_cleaned": True,
        "fog_depth_in": "4.00",
        "solids_depth_in": "3.00",
        "gallons_removed": "900",
        "driver_name": "Dana Driver",
        "certified_by_name": "Dana Driver",
        "certification_version": certification.CURRENT_VERSION,
    }
    body.update(changes)
    return body


def town_approves_destruction(manager, *, older_than_days: int = 730):
    """Gov. Code §34090: the council's resolution and the city attorney's consent to destroy the
    manifests older than `older_than_days`, recorded by the FOG Manager."""
    from fogcontrol.servicing.services.retention import retention_approval_record

    today = timezone.localdate()
    return retention_approval_record(
        acting_user=manager,
        record_class="manifests",
        records_from=dt.date(2000, 1, 1),
        records_to=today - dt.timedelta(days=older_than_days),
        council_resolution_number="2026-41",
        council_resolution_date=today - dt.timedelta(days=20),
        city_attorney_name="R. Delgado",
        city_attorney_consent_date=today - dt.timedelta(days=25),
    )
