"""Modifying a permit in force (B7): the notice, then the reissue on the effective date.

The B7 notice period comes from fogcontrol.rules.deadlines, read with the ruleset in force and the
Town's calendar. A modification writes a new `PermitVersion` when it takes effect.

The service frequency belongs to the device (E1, A2), not to any one permit: it is changed only by
`fogcontrol.servicing.services.frequency.frequency_change`, which keeps one pending change per
device, tells the responsible party and the permittees, and revises every permit that states the
device's frequency through the `permit_frequency_modifications_*` functions below. A permit's own
modification changes its conditions.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, is_job, person
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import Permit, PermitModification, PermitNotice, PermitStatus, PermitVersion
from fogcontrol.permits.services.common import audited_save, record_event, require_fog_manager
from fogcontrol.permits.services.notices import notice_day, notice_send
from fogcontrol.permits.services.permit_versions import (
    MODIFIABLE_TERMS,
    current_conditions,
    withdraw_modification,
    write_version,
)
from fogcontrol.permits.states import MODIFIABLE, TransitionNotAllowed, check_permit_transition
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import frequency_change_effective
from fogcontrol.rules.explain import fmt_date

FREQUENCY = "service_frequency_days"

# --- The B7 notice date -------------------------------------------------------------------


def b7_notice_date(
    *,
    notice_date: dt.date | None,
    today: dt.date,
    acting_user,
    backdating_reason: str = "",
    mailing_record: str = "",
) -> tuple[dt.date, str, str]:
    """B7: the day the permittee is told, from which the notice period runs; today unless given.

    A date before today records a notice already mailed: only the FOG Manager may enter it, with
    the reason it is entered late and the mailing record (certified mail article number, the date
    mailed). Otherwise the notice period runs from today. Returns the date, the reason and the
    mailing record (both empty when the notice is dated today).
    """
    notice_date = notice_date or today
    if notice_date > today:
        raise ValidationError(
            {
                "notice_date": [
                    f"Notice cannot be dated in the future: use today's date ({today:%Y-%m-%d}) or earlier."
                ]
            }
        )
    if notice_date == today:
        return notice_date, "", ""
    if is_job(acting_user) or not (acting_user and acting_user.has_role(Role.FOG_MANAGER)):
        raise PermissionDenied(
            f"B7: only the FOG Manager may date a notice before today ({today:%Y-%m-%d}); otherwise the "
            "notice period runs from today."
        )
    backdating_reason, mailing_record = (backdating_reason or "").strip(), (mailing_record or "").strip()
    missing = {}
    if not backdating_reason:
        missing["backdating_reason"] = [
            f"B7: a notice dated {notice_date:%Y-%m-%d}, before today, needs the reason it is recorded late; "
            "or leave the notice date empty and the notice period runs from today."
        ]
    if not mailing_record:
        missing["mailing_record"] = [
            f"B7: a notice dated {notice_date:%Y-%m-%d}, before today, needs the mailing record: the certified "
            "mail article number and the date it was mailed."
        ]
    if missing:
        raise ValidationError(missing)
    return notice_date, backdating_reason, mailing_record


def audit_backdated_notice(
    *, acting_user, instance, notice_date: dt.date, reason: str, mailing_record: str
) -> None:
    """B7: a backdated notice is its own audit entry, so that it stands out in the trail."""
    audit_record(
        acting_user=acting_user,
        action="notice.backdate",
        instance=instance,
        after={
            "notice_date": notice_date.isoformat(),
            "backdating_reason": reason,
            "mailing_record": mailing_record,
        },
        note=f"B7 notice dated {notice_date:%Y-%m-%d}: {reason} Mailing record: {mailing_record}",
    )


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
    if FREQUENCY in changes:
        device = f"device {permit.device.identifier}" if permit.device_id else "the FSE's device"
        raise ValidationError(
            {
                FREQUENCY: [
                    f"B7, A2: the service frequency belongs to {device}, not to permit {permit.number}. Propose "
                    "the change on the device's frequency form (one pending change per device; the responsible "
                    "party and every permittee are told, and the permit is reissued when it takes effect)."
                ]
            }
        )
    cleaned: dict[str, Any] = {}
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
    backdating_reason: str = "",
    mailing_record: str = "",
) -> PermitModification:
    """B7: propose a change of the permit's conditions, notify the permittee, and set the date it
    takes effect: never sooner than `frequency_change_notice_days` after `notice_date` (default:
    today; an earlier date needs the FOG Manager, a reason and the mailing record, see
    `b7_notice_date`). With no `effective_on`, the earliest date allowed. The permit is reissued as a
    new version on that date (`permit_modifications_apply_due`); if that date has already come, at once.

    A change of service frequency is refused here: it belongs to the device (E1, A2) and is proposed
    with `servicing.services.frequency.frequency_change`.
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
    notice_date, backdating_reason, mailing_record = b7_notice_date(
        notice_date=notice_date,
        today=today,
        acting_user=acting_user,
        backdating_reason=backdating_reason,
        mailing_record=mailing_record,
    )
    ruleset = ruleset_on(notice_date)
    cleaned = _clean_changes(permit, changes, ruleset)
    deadline = frequency_change_effective(notice_date, ruleset=ruleset, calendar=town_calendar())
    # Counting days: a minimum never moves earlier; the earliest usable date is the first business
    # day on or after the floor (B7).
    earliest = deadline.earliest_business_day or deadline.earliest
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
        explanation=deadline.explanation.as_record(),
        proposed_by=person(acting_user),
        proposed_by_label=actor_label_for(acting_user),
        backdating_reason=backdating_reason,
        mailing_record=mailing_record,
    )
    audited_save(modification, acting_user=acting_user, action="permit.modification.propose", creating=True)
    if backdating_reason:
        audit_backdated_notice(acting_user=acting_user, instance=modification, notice_date=notice_date,
                               reason=backdating_reason, mailing_record=mailing_record)  # fmt: skip
    summary = modification.summary[:1].upper() + modification.summary[1:]
    record_event(acting_user=acting_user, action="permit.modification.propose", permit=permit,
                 note=f"{summary}; effective {effective_on:%Y-%m-%d}")  # fmt: skip
    notice_send(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=PermitNotice.Kind.MODIFICATION,
        wording=functools.partial(
            _modification_notice,
            permit,
            modification,
            typed_schedule=compliance_schedule.strip(),
            notice_days=ruleset.frequency_change_notice_days,
        ),  # fmt: skip
        sent_on=notice_date,
        permit=permit,
        modification=modification,
        mailing_record=mailing_record,
    )
    if effective_on <= today:
        _apply(modification, acting_user=acting_user)
    return modification


def _summary(modification: PermitModification) -> str:
    """The change in words in the active language (``PermitModification.summary`` in English)."""
    parts = []
    after = modification.changes.get("service_frequency_days")
    if "service_frequency_days" in modification.changes:
        before = modification.previous_values.get("service_frequency_days")
        parts.append(
            _("service frequency from every %(before)s days to every %(after)s days")
            % {"before": before, "after": after}
            if before
            else _("service frequency to every %(after)s days") % {"after": after}
        )
    if "conditions" in modification.changes:
        parts.append(_("permit conditions revised"))
    return "; ".join(parts)


def _modification_notice(permit, modification, *, typed_schedule: str, notice_days: int) -> tuple[str, str]:
    """B7: the notice of a proposed change of the permit's terms, in the active language (the reason
    and a compliance schedule staff typed stay as written)."""
    summary = _summary(modification)
    schedule = typed_schedule or _("Comply from %(day)s.") % {"day": notice_day(modification.effective_on)}
    values = {"number": permit.number, "business": permit.establishment.business_name,
              "summary": summary[:1].upper() + summary[1:], "reason": modification.reason,
              "day": notice_day(modification.effective_on), "days": notice_days, "schedule": schedule}  # fmt: skip
    subject = _("FOG permit %(number)s: proposed change of terms") % values
    body = (
        _(
            "The Town proposes to change FOG permit %(number)s of %(business)s:\n\n%(summary)s.\n\n"
            "Reason: %(reason)s\n\nThe change takes effect on %(day)s, no sooner than %(days)s days after "
            "this notice (Chapter 10.02, B7). Compliance schedule: %(schedule)s\n\nThe permit will be "
            "reissued with the new terms on that date."
        )
        % values
    )
    return subject, body


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
    if FREQUENCY in modification.changes:
        raise TransitionNotAllowed(
            "B7, A2: this change of service frequency belongs to the device: withdraw it on the device's "
            "frequency form, so that the device and every permit stating its frequency stay in step."
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Say why the change is withdrawn."]})
    return withdraw_modification(modification, acting_user=acting_user, reason=reason.strip())


@transaction.atomic
def permit_modifications_apply_due(*, on: dt.date, acting_user="permits_daily") -> list[PermitVersion]:
    """B7: reissue every permit whose notified change of conditions takes effect on or before `on`.

    Changes of frequency are applied with the device's change (`permit_frequency_modifications_apply`),
    so that the device and its permits change on the same day, once."""
    due = (
        PermitModification.objects.filter(
            status=PermitModification.Status.NOTIFIED,
            effective_on__lte=on,
            permit__status=PermitStatus.ISSUED,
        )
        .exclude(changes__has_key=FREQUENCY)
        .order_by("effective_on", "pk")
    )
    return [_apply(modification, acting_user=acting_user) for modification in due.select_for_update()]


# --- The device's frequency on its permits (called by servicing's frequency_change) ---------

IN_FORCE = (PermitStatus.ISSUED, PermitStatus.SUSPENDED)


def permits_stating_frequency_of(device) -> QuerySet[Permit]:
    """B2: the permits in force that state this device's service frequency: those naming the device,
    and those naming no device held by an FSE the device serves."""
    return (
        Permit.objects.filter(status__in=IN_FORCE)
        .filter(Q(device=device) | Q(device__isnull=True, establishment__in=device.establishments.all()))
        .select_related("establishment", "establishment__operator", "establishment__contact", "device")
        .order_by("pk")
    )


def _pending_frequency_modifications(device) -> QuerySet[PermitModification]:
    return PermitModification.objects.filter(
        Q(permit__device=device)
        | Q(permit__device__isnull=True, permit__establishment__in=device.establishments.all()),
        status=PermitModification.Status.NOTIFIED,
        changes__has_key=FREQUENCY,
    )


def permit_frequency_modifications_record(
    *,
    device,
    acting_user,
    to_days: int,
    reason: str,
    notice_date: dt.date,
    earliest_effective_on: dt.date,
    effective_on: dt.date,
    explanation: dict,
    backdating_reason: str = "",
    mailing_record: str = "",
) -> list[PermitModification]:
    """B7: a notified modification on every permit that states the device's frequency, to reissue it
    when the device's change takes effect. The caller (servicing's `frequency_change`, the one way a
    frequency is proposed) has withdrawn any earlier pending change and sends the notices."""
    recorded = []
    for permit in permits_stating_frequency_of(device).select_for_update(of=("self",)):
        if permit.service_frequency_days == to_days:
            continue
        modification = PermitModification(
            permit=permit,
            changes={FREQUENCY: to_days},
            previous_values={FREQUENCY: permit.service_frequency_days},
            reason=reason,
            compliance_schedule=f"Comply from {fmt_date(effective_on)}.",
            notice_date=notice_date,
            earliest_effective_on=earliest_effective_on,
            effective_on=effective_on,
            explanation=explanation,
            proposed_by=person(acting_user),
            proposed_by_label=actor_label_for(acting_user),
            backdating_reason=backdating_reason,
            mailing_record=mailing_record,
        )
        audited_save(
            modification, acting_user=acting_user, action="permit.modification.propose", creating=True
        )
        record_event(acting_user=acting_user, action="permit.modification.propose", permit=permit,
                     note=f"{modification.summary.capitalize()} (device {device.identifier}); "
                     f"effective {effective_on:%Y-%m-%d}")  # fmt: skip
        recorded.append(modification)
    return recorded


def permit_frequency_modifications_withdraw(*, device, acting_user, reason: str) -> list[PermitModification]:
    """B7: withdraw the pending frequency modifications of the device's permits (its change was
    withdrawn or replaced by a newer proposal)."""
    pending = _pending_frequency_modifications(device).select_related("permit")
    return [
        withdraw_modification(modification, acting_user=acting_user, reason=reason)
        for modification in pending.select_for_update(of=("self",))
    ]


def permit_frequency_modifications_apply(
    *,
    device,
    acting_user,
    to_days: int,
    notice_date: dt.date,
    effective_on: dt.date,
    reason: str,
    explanation: dict,
) -> list[PermitVersion]:
    """B7: the device's change took effect: reissue every permit in force that states its frequency,
    so that permits and device agree. A permit issued after the notice (it stated the frequency of
    the day) is reissued too, with a modification recorded now; pending modifications of permits no
    longer in force are withdrawn."""
    versions = []
    pending = {
        m.permit_id: m for m in _pending_frequency_modifications(device).select_for_update(of=("self",))
    }
    for permit in permits_stating_frequency_of(device):
        modification = pending.pop(permit.pk, None)
        if permit.service_frequency_days == to_days:
            if modification is not None:
                withdraw_modification(modification, acting_user=acting_user,
                                      reason=f"The permit already states every {to_days} days.")  # fmt: skip
            continue
        if modification is None or modification.changes[FREQUENCY] != to_days:
            if modification is not None:
                withdraw_modification(
                    modification, acting_user=acting_user, reason="Replaced by the device's change."
                )
            modification = PermitModification(
                permit=permit, changes={FREQUENCY: to_days}, previous_values={FREQUENCY: permit.service_frequency_days},
                reason=reason, compliance_schedule=f"Comply from {fmt_date(effective_on)}.", notice_date=notice_date,
                earliest_effective_on=effective_on, effective_on=effective_on, explanation=explanation,
                proposed_by=person(acting_user), proposed_by_label=actor_label_for(acting_user),
            )  # fmt: skip
            audited_save(
                modification, acting_user=acting_user, action="permit.modification.propose", creating=True
            )
        versions.append(_apply(modification, acting_user=acting_user))
    for modification in pending.values():
        withdraw_modification(
            modification, acting_user=acting_user, reason="The permit is no longer in force."
        )
    return versions
