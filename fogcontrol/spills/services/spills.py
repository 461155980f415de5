"""Recording sewer overflows and blockages (I1) and linking FSEs to them, each write audited."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.images import reencode_photo
from fogcontrol.core.permissions import require_role
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.spills.models import Spill, SpillLink, SpillPhoto
from fogcontrol.spills.roles import SPILL_RECORDERS
from fogcontrol.spills.services.common import derive_category, open_fog_finding

SPILL_FIELDS = (
    "kind",
    "location_name",
    "address",
    "city",
    "zip_code",
    "latitude",
    "longitude",
    "segment_id",
    "manhole_id",
    "location_description",
    "started_at",
    "ended_at",
    "notified_at",
    "arrived_at",
    "volume_spilled",
    "volume_recovered",
    "volume_reached_surface_water",
    "destination",
    "destination_text",
    "storm_drain_fully_recovered",
    "cause",
    "cause_explanation",
    "cleanup_contractor",
    "clearance_inspected_on",
    "clearance_notes",
    "response",
)


def _check(spill: Spill) -> None:
    errors = {}
    if spill.ended_at and spill.started_at and spill.ended_at < spill.started_at:
        errors["ended_at"] = "The spill cannot end before it started."
    spilled = spill.volume_spilled
    for field in ("volume_recovered", "volume_reached_surface_water"):
        value = getattr(spill, field)
        if value is not None and value < 0:
            errors[field] = "Give a volume of 0 gallons or more."
        elif value is not None and spilled is not None and value > spilled:
            errors[field] = "This cannot be more than the gallons spilled."
    if spilled is not None and spilled < 0:
        errors["volume_spilled"] = "Give a volume of 0 gallons or more."
    if spill.cause == "other" and not (spill.cause_explanation or "").strip():
        errors["cause_explanation"] = "Explain the cause when it is Other."
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def spill_record(
    *,
    acting_user,
    links: Sequence[tuple[FoodServiceEstablishment, str]] = (),
    cause_original: str = "",
    **fields,
) -> Spill:
    """Record an overflow or blockage (I1). The State's category is derived from the volumes and the
    destination (WQ 2022-0103-DWQ); a cause given only in words is normalised to the controlled
    list, the words kept. Each linked FSE is named with its reason; a FOG-caused spill opens a
    finding against each (I1)."""
    require_role(acting_user, SPILL_RECORDERS, "Only the FOG Manager and inspectors record spills.")
    unknown = set(fields) - set(SPILL_FIELDS)
    if unknown:
        raise ValidationError({sorted(unknown)[0]: "This is not a field of a spill."})
    if not fields.get("cause"):
        cause, _recognised = rules.normalise_cause(cause_original)
        fields["cause"] = cause
    spill = Spill(
        **fields,
        cause_original=(cause_original or "")[:200],
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    spill.category = derive_category(spill).category
    _check(spill)
    spill.full_clean()
    spill.save()
    audit_record(acting_user=acting_user, action="spill.record", instance=spill, after=snapshot(spill))
    for establishment, reason in links:
        spill_link(spill=spill, establishment=establishment, reason=reason, acting_user=acting_user)
    return spill


@transaction.atomic
def spill_link(
    *, spill: Spill, establishment: FoodServiceEstablishment, reason: str, acting_user
) -> SpillLink:
    """Link an FSE to a spill, with the reason (upstream of the blockage, the caller, a confirmed
    address match). A FOG-caused spill then opens a finding against the FSE (I1), once."""
    require_role(acting_user, SPILL_RECORDERS, "Only the FOG Manager and inspectors link FSEs to spills.")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why this FSE is linked to the spill."})
    if SpillLink.objects.filter(spill=spill, establishment=establishment).exists():
        raise StateConflict(f"{establishment.business_name} is already linked to this spill.")
    link = SpillLink(
        spill=spill,
        establishment=establishment,
        reason=reason,
        linked_by=person(acting_user),
        linked_by_label=actor_label_for(acting_user),
    )
    link.save()
    audit_record(acting_user=acting_user, action="spill.link", instance=link, after=snapshot(link))
    open_fog_finding(spill=spill, establishment=establishment, acting_user=acting_user)
    return link


@transaction.atomic
def spill_photo_add(*, spill: Spill, uploaded_file, acting_user, caption: str = "") -> SpillPhoto:
    """A photo of the spill or its clean-up (I1), re-encoded as a fresh JPEG before it is kept."""
    require_role(acting_user, SPILL_RECORDERS, "Only the FOG Manager and inspectors add photos of spills.")
    content, width, height = reencode_photo(uploaded_file, field="file")
    photo = SpillPhoto(
        spill=spill,
        width=width,
        height=height,
        caption=(caption or "").strip()[:200],
        uploaded_by=person(acting_user),
        uploaded_by_label=actor_label_for(acting_user),
    )
    photo.file.save("photo.jpg", content, save=False)
    photo.save()
    audit_record(acting_user=acting_user, action="spill.photo", instance=photo, after=snapshot(photo))
    return photo
