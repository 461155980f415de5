"""Keeping and destroying records (F5): nothing is purged before its retention period ends, and a
litigation hold keeps a device's records as long as it lasts."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import record_purge
from fogcontrol.core.roles import Role
from fogcontrol.rules.servicing_rules import PurgeDecision, purge_allowed
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import LitigationHold, Manifest, ManifestAttachment
from fogcontrol.servicing.services.state import device_state_refresh


def _require_manager(acting_user) -> None:
    require_role(acting_user, [Role.FOG_MANAGER], "Only the FOG Manager places holds and purges records.")


@transaction.atomic
def hold_place(*, device, acting_user, reason: str) -> LitigationHold:
    """Keep every record of the device until the hold is released (F5)."""
    _require_manager(acting_user)
    if not reason.strip():
        raise ValidationError(
            {"reason": "Name the matter (claim, case or hearing) the records are held for."}
        )
    hold = LitigationHold.objects.create(
        device=device,
        reason=reason.strip(),
        placed_by=person(acting_user),
        placed_by_label=actor_label_for(acting_user),
    )
    audit_record(acting_user=acting_user, action="litigation_hold.place", instance=hold, after=snapshot(hold))
    return hold


@transaction.atomic
def hold_release(*, hold: LitigationHold, acting_user) -> LitigationHold:
    _require_manager(acting_user)
    if hold.released_at:
        raise Conflict("This hold was already released.")
    before = snapshot(hold)
    hold.released_at = timezone.now()
    hold.save(update_fields=["released_at"])
    audit_record(
        acting_user=acting_user,
        action="litigation_hold.release",
        instance=hold,
        before=before,
        after=snapshot(hold),
    )
    return hold


def manifest_purge_decision(manifest: Manifest, *, ctx: ProgramContext) -> PurgeDecision:
    today = ctx.today()
    held = LitigationHold.objects.filter(device_id=manifest.device_id, released_at__isnull=True).exists()
    return purge_allowed(
        record_date=manifest.service_date,
        today=today,
        held=held,
        ruleset=ctx.ruleset(today),
        calendar=ctx.calendar(),
    )


@transaction.atomic
def manifest_purge(
    *, manifest: Manifest, acting_user, reason: str, ctx: ProgramContext | None = None
) -> None:
    """F5: destroy a manifest (and its attachments and corrections) after its retention period.

    Refused (409, with the earliest purge date) while the record is younger than the ruleset's
    retention period or under a litigation hold. The purge log keeps each record's hash, so the
    chain of records still verifies.
    """
    _require_manager(acting_user)
    ctx = ctx or ProgramContext()
    if manifest.corrects_id:
        raise Conflict("Purge the original manifest; its corrections are purged with it.")
    family = [manifest]
    index = 0
    while index < len(family):
        family += list(Manifest.objects.filter(corrects=family[index]))
        index += 1
    for member in family:
        decision = manifest_purge_decision(member, ctx=ctx)
        if not decision.allowed:
            raise Conflict(f"Manifest {member.manifest_number} cannot be purged: {decision.reason}")
    for member in reversed(family):  # corrections first: they point to the originals
        for attachment in ManifestAttachment.objects.filter(manifest=member):
            record_purge(attachment, record_date=member.service_date, acting_user=acting_user, reason=reason)
        audit_record(
            acting_user=acting_user,
            action="manifest.purge",
            instance=member,
            before=snapshot(member),
            note=reason,
        )
        record_purge(member, record_date=member.service_date, acting_user=acting_user, reason=reason)
    device_state_refresh(device=manifest.device, ctx=ctx)
