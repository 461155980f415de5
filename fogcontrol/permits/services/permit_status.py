"""A permit's life after issue: suspension, reinstatement, revocation (L3, L5, M1) and expiry (B6),
and the daily run that applies due B7 changes and expires lapsed permits.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import snapshot
from fogcontrol.permits.models import Permit, PermitModification, PermitStatus
from fogcontrol.permits.services.common import audited_save, require_fog_manager
from fogcontrol.permits.services.permit_modifications import permit_modifications_apply_due
from fogcontrol.permits.services.permit_versions import move_permit, withdraw_modification
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import town_today

# --- Suspension, revocation, expiry --------------------------------------------------------


def _status_change(permit, target, *, acting_user, action, reason) -> Permit:
    require_fog_manager(acting_user, "suspend, reinstate or revoke permits")
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason: it is kept with the permit."]})
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    before = snapshot(permit)
    move_permit(permit, target, acting_user=acting_user, action=action, note=reason.strip())
    permit.status_reason = reason.strip()
    return audited_save(permit, acting_user=acting_user, action=action, before=before)


@transaction.atomic
def permit_suspend(*, permit: Permit, acting_user, reason: str) -> Permit:
    """L3 / L5 / M1: the permit is suspended by order (the order itself is enforcement's record)."""
    return _status_change(
        permit, PermitStatus.SUSPENDED, acting_user=acting_user, action="permit.suspend", reason=reason
    )


@transaction.atomic
def permit_reinstate(*, permit: Permit, acting_user, reason: str) -> Permit:
    """The suspension ends: the permit is in force again (if its term has not ended)."""
    if permit.status != PermitStatus.SUSPENDED:
        raise TransitionNotAllowed("Only a suspended permit can be reinstated.")
    target = PermitStatus.ISSUED if permit.valid_until >= town_today() else PermitStatus.EXPIRED
    return _status_change(permit, target, acting_user=acting_user, action="permit.reinstate", reason=reason)


@transaction.atomic
def permit_revoke(*, permit: Permit, acting_user, reason: str) -> Permit:
    """L5: revoked by final order; discharge stops until a new permit is applied for and issued."""
    permit = _status_change(
        permit, PermitStatus.REVOKED, acting_user=acting_user, action="permit.revoke", reason=reason
    )
    for pending in permit.modifications.filter(status=PermitModification.Status.NOTIFIED):
        withdraw_modification(pending, acting_user=acting_user, reason="The permit was revoked.")
    return permit


@transaction.atomic
def permits_expire_lapsed(*, on: dt.date, acting_user="permits_daily") -> list[Permit]:
    """B6: a permit not renewed by the last day of its term has expired from the day after."""
    lapsed = Permit.objects.filter(status=PermitStatus.ISSUED, valid_until__lt=on).select_for_update()
    expired = []
    for permit in lapsed:
        before = snapshot(permit)
        move_permit(permit, PermitStatus.EXPIRED, acting_user=acting_user, action="permit.expire",
              note=f"Not renewed by {permit.valid_until:%Y-%m-%d} (B6)")  # fmt: skip
        expired.append(audited_save(permit, acting_user=acting_user, action="permit.expire", before=before))
    return expired


def permits_daily(*, on: dt.date | None = None, acting_user="permits_daily") -> dict[str, int]:
    """The daily run: changes that take effect today are applied first, then lapsed permits expire."""
    on = on or town_today()
    applied = permit_modifications_apply_due(on=on, acting_user=acting_user)
    expired = permits_expire_lapsed(on=on, acting_user=acting_user)
    return {"modifications_applied": len(applied), "permits_expired": len(expired)}
