"""Scheduling a visit (D8 routine, follow-up, complaint), assigning it, cancelling it."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.inspections.actions import follow_up_verdict
from fogcontrol.inspections.models import DeviceAssessment, Inspection
from fogcontrol.inspections.roles import INSPECTORS, SCHEDULERS
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice


def _check_inspector(inspector) -> None:
    if inspector is not None and not inspector.has_role(*INSPECTORS):
        raise ValidationError({"inspector": "Assign the visit to the FOG Manager or an inspector."})


def require_draft(inspection: Inspection) -> None:
    """Only a draft changes; a completed or cancelled inspection is kept as it is (409)."""
    if inspection.status != Inspection.Status.DRAFT:
        raise StateConflict(
            f"This inspection is {inspection.get_status_display().lower()}; it can no longer change."
        )


@transaction.atomic
def inspection_schedule(
    *,
    establishment: FoodServiceEstablishment,
    scheduled_on: dt.date,
    acting_user,
    kind: str = Inspection.Kind.ROUTINE,
    inspector=None,
    follow_up_of: Inspection | None = None,
    complaint: str = "",
) -> Inspection:
    """Schedule a visit as a draft, with one assessment for each active device serving the
    establishment (D8: every device is inspected)."""
    require_role(acting_user, SCHEDULERS, "Only the FOG Manager and inspectors schedule inspections.")
    _check_inspector(inspector)
    if kind not in Inspection.Kind.values:
        raise ValidationError({"kind": f"Choose one of: {', '.join(Inspection.Kind.values)}."})
    if kind == Inspection.Kind.FOLLOW_UP and follow_up_of is None:
        raise ValidationError({"follow_up_of": "Name the inspection this visit follows up."})
    if follow_up_of is not None and follow_up_of.establishment_id != establishment.pk:
        raise ValidationError(
            {"follow_up_of": "The inspection followed up must be of the same establishment."}
        )
    if follow_up_of is not None:
        # Its status as stored: the caller's copy may predate its completion.
        followed = Inspection.objects.only("status").get(pk=follow_up_of.pk)
        if not (verdict := follow_up_verdict(followed)):
            raise StateConflict(verdict.reason)
    if kind == Inspection.Kind.COMPLAINT and not complaint.strip():
        raise ValidationError({"complaint": "Say what the complaint was."})
    inspection = Inspection(
        establishment=establishment,
        kind=kind,
        scheduled_on=scheduled_on,
        inspector=inspector,
        follow_up_of=follow_up_of,
        complaint=complaint.strip(),
        created_by_label=actor_label_for(acting_user),
    )
    inspection.full_clean(exclude=["inspector_signature", "fse_signature"])
    inspection.save()
    devices = GreaseControlDevice.objects.filter(
        establishments=establishment, status=GreaseControlDevice.Status.ACTIVE
    ).order_by("identifier", "pk")
    DeviceAssessment.objects.bulk_create(
        [DeviceAssessment(inspection=inspection, device=device) for device in devices]
    )
    audit_record(
        acting_user=acting_user, action="inspection.schedule", instance=inspection, after=snapshot(inspection)
    )
    return inspection


@transaction.atomic
def inspection_assign(*, inspection: Inspection, acting_user, inspector, scheduled_on: dt.date) -> Inspection:
    """Assign a draft visit to an inspector for a day."""
    require_role(acting_user, SCHEDULERS, "Only the FOG Manager and inspectors assign inspections.")
    inspection = Inspection.objects.select_for_update().get(pk=inspection.pk)
    require_draft(inspection)
    if inspector is None:
        raise ValidationError({"inspector": "Choose the inspector."})
    _check_inspector(inspector)
    before = snapshot(inspection)
    inspection.inspector = inspector
    inspection.scheduled_on = scheduled_on
    inspection.save(update_fields=["inspector", "scheduled_on", "updated_at"])
    audit_record(
        acting_user=acting_user,
        action="inspection.assign",
        instance=inspection,
        before=before,
        after=snapshot(inspection),
    )
    return inspection


@transaction.atomic
def inspection_cancel(*, inspection: Inspection, acting_user, reason: str) -> Inspection:
    """Cancel a visit that will not happen (a draft only; a completed inspection stands)."""
    require_role(acting_user, SCHEDULERS, "Only the FOG Manager and inspectors cancel inspections.")
    inspection = Inspection.objects.select_for_update().get(pk=inspection.pk)
    require_draft(inspection)
    if not reason.strip():
        raise ValidationError({"reason": "Say why the visit is cancelled."})
    before = snapshot(inspection)
    inspection.status = Inspection.Status.CANCELLED
    inspection.cancel_reason = reason.strip()
    inspection.save(update_fields=["status", "cancel_reason", "updated_at"])
    audit_record(
        acting_user=acting_user,
        action="inspection.cancel",
        instance=inspection,
        before=before,
        after=snapshot(inspection),
    )
    return inspection
