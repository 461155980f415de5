"""Modifying a permit in force (B7): the notice, then the reissue on the effective date.

The B7 notice period comes from fogcontrol.rules.deadlines, read with the ruleset in force and the
Town's calendar. A modification writes a new `PermitVersion` when it takes effect.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.permits.models import Permit, PermitModification, PermitNotice, PermitStatus, PermitVersion
from fogcontrol.permits.services.common import audited_save, person, record_event, require_fog_manager
from fogcontrol.permits.services.notices import notice_send
from fogcontrol.permits.services.permit_versions import (
    MODIFIABLE_TERMS,
    check_frequency,
    current_conditions,
    sync_device_frequency,
    withdraw_modification,
    write_version,
)
from fogcontrol.permits.states import MODIFIABLE, TransitionNotAllowed, check_permit_transition
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import frequency_change_effective
from fogcontrol.rules.explain import fmt_date

# --- Modification (B7) ---------------------------------------------------------------------


def _clean_changes(permit: Permit, changes: dict, ruleset) -> dict[str, Any]:
    if not isinstance(changes, dict) or not changes:
        raise ValidationError({"changes": ["Say what changes: service_frequency_days and/or conditions."]})
    b8 = sorted(set(changes) - set(MODIFIABLE_TERMS))
    if b8:
        raise ValidationError(
            {
                "changes": [
                    f"{', '.join(b8)} cannot be changed by modification. A change of ownership, food types or "
                    "operations needs a new application, fee and permit (B8); only the service frequency and "
                    "conditions are modified (B7)."
                ]
            }
        )
    cleaned: dict[str, Any] = {}
    if "service_frequency_days" in changes:
        days = check_frequency(changes["service_frequency_days"], ruleset)
        if days == permit.service_frequency_days:
            raise ValidationError(
                {
                    "service_frequency_days": [
                        f"The permit already says every {days} days: nothing would change."
                    ]
                }
            )
        cleaned["service_frequency_days"] = days
    if "conditions" in changes:
        text = (changes["conditions"] or "").strip()
        if text == current_conditions(permit).strip():
            raise ValidationError({"conditions": ["The conditions are unchanged."]})
        cleaned["conditions"] = text
    return cleaned


@transaction.atomic
def permit_modification_propose(
    *,
    permit: Permit,
    acting_user,
    changes: dict,
    reason: str,
    notice_date: dt.date | None = None,
    effective_on: dt.date | None = None,
    compliance_schedule: str = "",
) -> PermitModification:
    """B7: propose a change of service frequency or conditions, notify the permittee, and set the date
    it takes effect: never sooner than `frequency_change_notice_days` after `notice_date` (default:
    today). With no `effective_on`, the earliest date allowed. The permit is reissued as a new version
    on that date (`permit_modifications_apply_due`); if that date has already come, at once.

    A frequency change approved by the FOG Manager needs no new application (B8). The caller does
    not change the device's assigned frequency itself: it follows the permit on the effective date.
    """
    require_fog_manager(acting_user, "change the terms of a permit")
    permit = (
        Permit.objects.select_for_update(of=("self",))
        .select_related("establishment", "device")
        .get(pk=permit.pk)
    )
    if permit.status not in MODIFIABLE:
        check_permit_transition(permit.status, PermitStatus.ISSUED)
        raise TransitionNotAllowed(
            f"Permit {permit.number} is {permit.get_status_display().lower()}: only a permit in force can be modified."
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for the change: the permittee is told it."]})
    today = town_today()
    notice_date = notice_date or today
    if notice_date > today:
        raise ValidationError(
            {"notice_date": ["Notice cannot be dated in the future: use today's date or earlier."]}
        )
    ruleset = ruleset_on(notice_date)
    cleaned = _clean_changes(permit, changes, ruleset)
    deadline = frequency_change_effective(notice_date, ruleset=ruleset, calendar=town_calendar())
    earliest = deadline.earliest
    assert earliest is not None
    if effective_on is None:
        effective_on = earliest
    elif effective_on < earliest:
        raise ValidationError(
            {
                "effective_on": [
                    f"B7: with notice on {notice_date:%Y-%m-%d}, the change cannot take effect before "
                    f"{earliest:%Y-%m-%d} ({ruleset.frequency_change_notice_days} days' notice)."
                ]
            }
        )
    if effective_on > permit.valid_until:
        raise ValidationError(
            {
                "effective_on": [
                    f"The permit's term ends {permit.valid_until:%Y-%m-%d}: make the change at renewal."
                ]
            }
        )
    previous = {
        "service_frequency_days": permit.service_frequency_days,
        "conditions": current_conditions(permit),
    }
    schedule = compliance_schedule.strip() or f"Comply from {fmt_date(effective_on)}."
    modification = PermitModification(
        permit=permit,
        changes=cleaned,
        previous_values={name: previous[name] for name in cleaned},
        reason=reason.strip(),
        compliance_schedule=schedule,
        notice_date=notice_date,
        earliest_effective_on=earliest,
        effective_on=effective_on,
        explanation=deadline.explanation.as_dict(),
        proposed_by=person(acting_user),
        proposed_by_label=actor_label_for(acting_user),
    )
    audited_save(modification, acting_user=acting_user, action="permit.modification.propose", creating=True)
    summary = modification.summary[:1].upper() + modification.summary[1:]
    record_event(acting_user=acting_user, action="permit.modification.propose", permit=permit,
                 note=f"{summary}; effective {effective_on:%Y-%m-%d}")  # fmt: skip
    notice_send(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=PermitNotice.Kind.MODIFICATION,
        subject=f"FOG permit {permit.number}: proposed change of terms",
        body=(
            f"The Town proposes to change FOG permit {permit.number} of {permit.establishment.business_name}:\n\n"
            f"{summary}.\n\nReason: {reason.strip()}\n\n"
            f"The change takes effect on {fmt_date(effective_on)}, no sooner than "
            f"{ruleset.frequency_change_notice_days} days after this notice (Chapter 10.02, B7). "
            f"Compliance schedule: {schedule}\n\nThe permit will be reissued with the new terms on that date."
        ),
        sent_on=notice_date,
        permit=permit,
        modification=modification,
    )
    if effective_on <= today:
        _apply(modification, acting_user=acting_user)
    return modification


def _apply(modification: PermitModification, *, acting_user) -> PermitVersion:
    """Reissue the permit with the modification's terms: a new version, the old one kept (B7)."""
    permit = (
        Permit.objects.select_for_update(of=("self",))
        .select_related("establishment", "device")
        .get(pk=modification.permit_id)
    )
    before = snapshot(permit)
    conditions = modification.changes.get("conditions", current_conditions(permit))
    if "service_frequency_days" in modification.changes:
        permit.service_frequency_days = modification.changes["service_frequency_days"]
    permit.version_number += 1
    audited_save(permit, acting_user=acting_user, action="permit.modify", before=before)
    version = write_version(
        permit,
        acting_user=acting_user,
        reason=PermitVersion.Reason.MODIFIED,
        effective_from=modification.effective_on,
        conditions=conditions,
        compliance_schedule=modification.compliance_schedule,
        modification=modification,
    )
    mod_before = snapshot(modification)
    modification.status = PermitModification.Status.EFFECTIVE
    modification.version = version
    audited_save(
        modification, acting_user=acting_user, action="permit.modification.effective", before=mod_before
    )
    record_event(acting_user=acting_user, action="permit.modify", permit=permit,
                 from_status=permit.status, to_status=permit.status, note=f"Reissued as version {version.number}")  # fmt: skip
    sync_device_frequency(permit.device, permit.service_frequency_days, acting_user=acting_user)
    return version


@transaction.atomic
def permit_modification_withdraw(
    *, modification: PermitModification, acting_user, reason: str
) -> PermitModification:
    """The FOG Manager withdraws a proposed change before it takes effect."""
    require_fog_manager(acting_user, "withdraw a change of permit terms")
    modification = PermitModification.objects.select_for_update().get(pk=modification.pk)
    if modification.status != PermitModification.Status.NOTIFIED:
        raise TransitionNotAllowed(
            f"This change is {modification.get_status_display().lower()}: it cannot be withdrawn."
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Say why the change is withdrawn."]})
    return withdraw_modification(modification, acting_user=acting_user, reason=reason.strip())


@transaction.atomic
def permit_modifications_apply_due(*, on: dt.date, acting_user="permits_daily") -> list[PermitVersion]:
    """B7: reissue every permit whose notified change takes effect on or before `on`."""
    due = PermitModification.objects.filter(
        status=PermitModification.Status.NOTIFIED, effective_on__lte=on, permit__status=PermitStatus.ISSUED
    ).order_by("effective_on", "pk")
    return [_apply(modification, acting_user=acting_user) for modification in due.select_for_update()]
