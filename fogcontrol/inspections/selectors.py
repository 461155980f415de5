"""Every read of inspections, scoped to the user (outside the scope: 404). The due list is in
``due.py``."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import ComplianceCharge, DeviceAssessment, Inspection, InspectionPhoto
from fogcontrol.inspections.roles import INSPECTORS


def inspections_visible_to(user, action: str = VIEW) -> QuerySet[Inspection]:
    return Inspection.objects.visible_to(user, action)


def inspection_list(user) -> QuerySet[Inspection]:
    """Inspections with what a list shows, in one query."""
    return inspections_visible_to(user).select_related("establishment", "inspector")


def inspection_detail(user, pk) -> Inspection:
    """One inspection with its assessments (and their devices) and photos: three queries."""
    return (
        inspection_list(user)
        .prefetch_related(
            Prefetch("assessments", queryset=DeviceAssessment.objects.select_related("device")),
            Prefetch("photos", queryset=InspectionPhoto.objects.order_by("pk")),
        )
        .get(pk=pk)
    )


def photo_detail(user, pk) -> InspectionPhoto:
    return InspectionPhoto.objects.visible_to(user).get(pk=pk)


def inspector_choices():
    """The people a visit may be assigned to (D8: the FOG Manager or an inspector)."""
    return get_user_model().objects.filter(role__in=INSPECTORS, is_active=True).order_by("username")


def inspector_day(user, *, inspector, day: dt.date) -> list[Inspection]:
    """The inspector's visits for a day (not cancelled), ordered by address: one query."""
    return list(
        inspection_list(user)
        .filter(inspector=inspector, scheduled_on=day)
        .exclude(status=Inspection.Status.CANCELLED)
        .order_by("establishment__site_address", "pk")
    )


def open_findings_by_establishment(user, establishment_ids) -> dict[int, list[Finding]]:
    """The open findings of several establishments, grouped: one query (the day list's open items)."""
    grouped: dict[int, list[Finding]] = {}
    rows = (
        Finding.objects.visible_to(user)
        .open()
        .filter(establishment_id__in=list(establishment_ids))
        .select_related("device")
        .order_by("began_on", "pk")
    )
    for finding in rows:
        grouped.setdefault(finding.establishment_id, []).append(finding)
    return grouped


def open_findings_of(user, establishment_id: int) -> QuerySet[Finding]:
    """The open findings of an establishment, for the form of a follow-up and the day list."""
    return (
        Finding.objects.visible_to(user)
        .open()
        .filter(establishment_id=establishment_id)
        .select_related("device")
        .order_by("began_on", "pk")
    )


def charges_visible_to(user, action: str = VIEW) -> QuerySet[ComplianceCharge]:
    return ComplianceCharge.objects.visible_to(user, action)


def charge_list(user) -> QuerySet[ComplianceCharge]:
    """D6 charges with what a list shows (establishment, schedule), one query."""
    return charges_visible_to(user).select_related("establishment", "fee_schedule")


def charge_detail(user, pk) -> ComplianceCharge:
    return charge_list(user).get(pk=pk)


def charges_of_sample(user, sample_id: int) -> QuerySet[ComplianceCharge]:
    """The charges a sample caused (D6), oldest first."""
    return charge_list(user).filter(sample_id=sample_id).order_by("pk")
