"""What each source of violations says, with its stable ``source_key`` (one violation per source:
"once, not once a night"). Used by the nightly sweep and by the hook that opens a violation the
moment a manifest flag is referred.

A finding and a referred flag give an unsaved ``Violation`` (a few a night). An overdue service
and a missing or expired permit give a row of values (``overdue_service_row``,
``missing_permit_row``, ``expired_permit_row``): the sweep builds thousands of them from plain
rows read in bulk, without a model instance for each device, FSE, parcel and violation (issue
16); ``owner_answering`` is ``_owner_id`` (A2) from those plain values. Rows hold plain values (a
choice's ``.value``): the set-based write prepares each distinct value once."""

from __future__ import annotations

import datetime as dt

from fogcontrol.enforcement.models import Violation
from fogcontrol.findings.models import Finding
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.registry.selectors import responsibility_for
from fogcontrol.rules.enforcement import violation_kind
from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.responsibility import PROPERTY_OWNER, device_responsible
from fogcontrol.servicing.models import ManifestFlag

# The choices the rows hold, as plain values (``.value`` a row would look the enum up each time).
_MAINTENANCE, _NO_PERMIT = Violation.Kind.MAINTENANCE.value, Violation.Kind.NO_PERMIT.value
_OVERDUE_SERVICE, _PERMIT = Violation.Source.OVERDUE_SERVICE.value, Violation.Source.PERMIT.value

FINDING_SOURCES = {
    Finding.Source.INSPECTION: Violation.Source.FINDING,
    Finding.Source.RECORDS: Violation.Source.LATE_RECORD,
    Finding.Source.SPILL: Violation.Source.SPILL,
}


def _owner_id(device: GreaseControlDevice | None, establishment: FoodServiceEstablishment) -> int | None:
    """A2: the parcel owner answers for a device serving several FSEs on its parcel (devices with
    their establishments and parcels prefetched)."""
    if device is None or responsibility_for(device).responsible != PROPERTY_OWNER:
        return None
    parcel = device.parcel if device.parcel_id else establishment.parcel
    return parcel.owner_id if parcel is not None else None


def owner_answering(
    establishment_parcels: list[str | None],
    *,
    device_parcel_id: int | None,
    device_parcel_owner_id: int | None,
    establishment_parcel_owner_id: int | None,
) -> int | None:
    """A2 from plain values: the owner of the device's parcel (else the FSE's) when the property
    owner answers for the device (``establishment_parcels``: the parcel numbers of the FSEs it
    serves), else None. ``_owner_id`` from model instances, for rows read in bulk."""
    if device_responsible(establishment_parcels=establishment_parcels) != PROPERTY_OWNER:
        return None
    return device_parcel_owner_id if device_parcel_id is not None else establishment_parcel_owner_id


def finding_key(finding_id: int) -> str:
    return f"finding:{finding_id}"


def from_finding(finding: Finding) -> Violation:
    """An open finding (an inspection's, a late record's, a spill's) is a violation from the day it
    began (D4, F3, F4, P3)."""
    return Violation(
        establishment_id=finding.establishment_id,
        device_id=finding.device_id,
        property_owner_id=_owner_id(finding.device, finding.establishment),
        provision=finding.provision,
        kind=violation_kind(finding.provision),
        description=finding.description,
        source=FINDING_SOURCES.get(finding.source, Violation.Source.FINDING),
        source_key=finding_key(finding.pk),
        source_id=finding.pk,
        evidence=f"Finding {finding.pk} ({finding.get_source_display()}, item {finding.item})"
        + (f": {finding.reading}" if finding.reading else "."),
        began_on=finding.began_on,
    )


def service_key(device_id: int, establishment_id: int, next_due: dt.date) -> str:
    return f"overdue_service:{device_id}:{establishment_id}:{next_due.isoformat()}"


def overdue_service_row(
    *,
    device_id: int,
    identifier: str,
    establishment_id: int,
    property_owner_id: int | None,
    next_due: dt.date,
    grace_days: int,
) -> dict:
    """E1: a device not serviced by its due date (plus the ruleset's grace) is overdue from the next
    day; one violation per FSE it serves (A2: naming the parcel owner for a shared device)."""
    return {
        "establishment_id": establishment_id,
        "device_id": device_id,
        "property_owner_id": property_owner_id,
        "provision": "E1",
        "kind": _MAINTENANCE,
        "description": f"Device {identifier} was due for service on {fmt_date(next_due)} and has not been serviced (E1).",
        "source": _OVERDUE_SERVICE,
        "source_key": service_key(device_id, establishment_id, next_due),
        "source_id": device_id,
        "evidence": f"Service records of device {identifier}: next service due {fmt_date(next_due)}.",
        "began_on": next_due + dt.timedelta(days=grace_days + 1),
    }


def permit_missing_key(establishment_id: int) -> str:
    return f"permit_missing:{establishment_id}"


def permit_expired_key(permit_id: int, valid_until: dt.date) -> str:
    return f"permit_expired:{permit_id}:{valid_until.isoformat()}"


def missing_permit_row(*, establishment_id: int, today: dt.date) -> dict:
    """B1: an active FSE that never held a permit; counted from the day the Town found it."""
    return {
        "establishment_id": establishment_id,
        "provision": "B1",
        "kind": _NO_PERMIT,
        "description": "The establishment holds no FOG permit (B1).",
        "source": _PERMIT,
        "source_key": permit_missing_key(establishment_id),
        "source_id": None,
        "evidence": f"The Town's permit records on {fmt_date(today)}: no permit was ever issued.",
        "began_on": today,
    }


def expired_permit_row(*, establishment_id: int, permit_id: int, number: str, valid_until: dt.date) -> dict:
    """B1, B6: a permit not renewed is expired from the day after its last day."""
    return {
        "establishment_id": establishment_id,
        "provision": "B1",
        "kind": _NO_PERMIT,
        "description": f"FOG permit {number} expired after {fmt_date(valid_until)} and was not renewed (B1, B6).",
        "source": _PERMIT,
        "source_key": permit_expired_key(permit_id, valid_until),
        "source_id": permit_id,
        "evidence": f"Permit {number}: last day of its term {fmt_date(valid_until)}.",
        "began_on": valid_until + dt.timedelta(days=1),
    }


def flag_key(flag_id: int) -> str:
    return f"manifest_flag:{flag_id}"


def from_referred_flag(flag: ManifestFlag) -> Violation | None:
    """A manifest flag staff referred for enforcement (F4, F7) is a violation from the service date.
    A manifest with no establishment on record opens none (nobody to answer for it)."""
    manifest = flag.manifest
    if manifest.establishment_id is None:
        return None
    return Violation(
        establishment_id=manifest.establishment_id,
        device_id=manifest.device_id,
        provision=flag.provision,
        kind=violation_kind(flag.provision),
        description=flag.message,
        source=Violation.Source.MANIFEST_FLAG,
        source_key=flag_key(flag.pk),
        source_id=flag.pk,
        evidence=f"Manifest {manifest.pk}, flag {flag.code}, referred for enforcement: {flag.review_note}",
        began_on=manifest.service_date,
    )
