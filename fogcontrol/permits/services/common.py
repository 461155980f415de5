"""What every permits service shares: who may act, the timeline, the audit trail, the Town's contacts."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.permits.actions import may_file_for
from fogcontrol.permits.models import PermitEvent
from fogcontrol.permits.roles import DECIDERS, REVIEWERS
from fogcontrol.program.selectors import town_profile


def require_fog_manager(acting_user, what: str) -> None:
    require_role(acting_user, DECIDERS, f"Only the FOG Manager may {what}.")


def require_reviewer(acting_user, what: str) -> None:
    require_role(acting_user, REVIEWERS, f"Only the FOG Manager and inspectors may {what}.")


def require_applicant_or_reviewer(acting_user, establishment, what: str) -> None:
    """An FSE user of this establishment, or staff who file on its behalf (a job passes, as it
    passes every role check)."""
    if has_role(acting_user, REVIEWERS):
        return
    if acting_user is None or not acting_user.is_authenticated:
        raise PermissionDenied(f"Sign in to {what}.")
    if may_file_for(acting_user, establishment):
        return
    raise PermissionDenied(f"Only the establishment's own users and the FOG Manager's staff may {what}.")


def record_event(
    *, acting_user, action: str, application=None, permit=None, from_status="", to_status="", note=""
) -> PermitEvent:
    return PermitEvent.objects.create(
        actor=person(acting_user),
        actor_label=actor_label_for(acting_user),
        application=application,
        permit=permit,
        action=action,
        from_status=from_status or "",
        to_status=to_status or "",
        note=note,
    )


def audited_save(instance, *, acting_user, action: str, before=None, note: str = "", creating: bool = False):
    """Validate, save and audit one record; `before` is its snapshot before the change."""
    instance.full_clean()
    instance.save()
    after = snapshot(instance)
    if creating or before != after:
        audit_record(
            acting_user=acting_user,
            action=action,
            instance=instance,
            before=None if creating else before,
            after=after,
            note=note,
        )
    return instance


def town_contacts() -> dict[str, str]:
    """B2, J1, J2: what every permit prints, as the Town profile has it today."""
    profile = town_profile()
    return {
        "town_name": profile.name,
        "wastewater_division_phone": profile.wastewater_division_phone,
        "after_hours_emergency_phone": profile.after_hours_emergency_phone,
        "code_enforcement_phone": profile.code_enforcement_phone,
        "fog_manager_name": profile.fog_manager_name,
        "fog_manager_address": profile.fog_manager_address,
        "fog_manager_email": profile.fog_manager_email,
        "fog_manager_phone": profile.fog_manager_phone,
        "office_hours": profile.office_hours,
    }
