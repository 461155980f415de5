"""Samples and their chain of custody (D5): keyword-only arguments, an acting user (or a job
label), one transaction, an audit entry."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.inspections.models import Inspection
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules.sampling import custody_refusal
from fogcontrol.sampling.models import CustodyTransfer, Sample
from fogcontrol.sampling.roles import SAMPLERS

# A clock a little ahead of the server's is not refused.
CLOCK_SKEW = dt.timedelta(minutes=10)


def aware(value: dt.datetime | None, field: str) -> dt.datetime:
    """A time with its time zone, not in the future (a naive time is refused, never guessed)."""
    if value is None:
        raise ValidationError({field: "Give the date and time."})
    if timezone.is_naive(value):
        raise ValidationError({field: "Give the time with its time zone (e.g. 2026-11-30T10:15:00-08:00)."})
    if value > timezone.now() + CLOCK_SKEW:
        raise ValidationError({field: "This time is in the future: give when it happened."})
    return value


@transaction.atomic
def sample_record(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    sampled_at: dt.datetime,
    sampled_by: str,
    sample_point: str,
    container: str,
    laboratory: str,
    acting_user,
    preservation: str = "",
    lab_sample_id: str = "",
    notes: str = "",
    device: GreaseControlDevice | None = None,
    inspection: Inspection | None = None,
) -> Sample:
    """D5: record a grab or composite sample of the FSE's discharge: who took it and when, where,
    the container, its preservation and the laboratory."""
    require_role(acting_user, SAMPLERS, "Only the FOG Manager and inspectors record samples.")
    sampled_at = aware(sampled_at, "sampled_at")
    if device is not None and not device.establishments.filter(pk=establishment.pk).exists():
        raise ValidationError(
            {"device": "This device does not serve the establishment: choose one of its devices."}
        )
    if inspection is not None and inspection.establishment_id != establishment.pk:
        raise ValidationError({"inspection": "This inspection is of another establishment."})
    if inspection is not None and inspection.status == Inspection.Status.CANCELLED:
        raise StateConflict("The inspection was cancelled: record the sample without it.")
    sample = Sample(
        establishment=establishment,
        device=device,
        inspection=inspection,
        kind=kind,
        sampled_at=sampled_at,
        sampled_by=(sampled_by or "").strip(),
        sample_point=(sample_point or "").strip(),
        container=(container or "").strip(),
        preservation=(preservation or "").strip(),
        laboratory=(laboratory or "").strip(),
        lab_sample_id=(lab_sample_id or "").strip(),
        notes=notes or "",
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    sample.full_clean()
    sample.save()
    audit_record(acting_user=acting_user, action="sample.record", instance=sample, after=snapshot(sample))
    return sample


@transaction.atomic
def custody_add(
    *,
    sample: Sample,
    released_by: str,
    received_by: str,
    at: dt.datetime,
    acting_user,
    seal_intact: bool = True,
    condition: str = "",
) -> CustodyTransfer:
    """D5 chain of custody: one hand-off, after the sampling and after the hand-off before it, from
    the person who last received the sample."""
    require_role(acting_user, SAMPLERS, "Only the FOG Manager and inspectors record a sample's hand-offs.")
    sample = Sample.objects.select_for_update(of=("self",)).get(pk=sample.pk)
    at = aware(at, "at")
    previous = CustodyTransfer.objects.filter(sample=sample).order_by("-sequence").first()
    refusal = custody_refusal(
        sampled_at=sample.sampled_at, previous_at=previous.at if previous else None, at=at
    )
    if refusal:
        raise ValidationError({"at": refusal})
    released_by, received_by = (released_by or "").strip(), (received_by or "").strip()
    holder = previous.received_by if previous else sample.sampled_by
    if released_by.casefold() != holder.casefold():
        raise ValidationError(
            {
                "released_by": f"The sample is held by {holder}: the hand-off is from {holder} (D5 chain of custody)."
            }
        )
    if received_by and received_by.casefold() == released_by.casefold():
        raise ValidationError({"received_by": "A hand-off is to another person than the one releasing it."})
    transfer = CustodyTransfer(
        sample=sample,
        sequence=(previous.sequence + 1) if previous else 1,
        released_by=released_by,
        received_by=received_by,
        at=at,
        seal_intact=seal_intact,
        condition=(condition or "").strip(),
        recorded_by_label=actor_label_for(acting_user),
    )
    transfer.full_clean()
    transfer.save()
    audit_record(
        acting_user=acting_user, action="sample.custody", instance=transfer, after=snapshot(transfer)
    )
    return transfer
