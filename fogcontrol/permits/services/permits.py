"""Issuing permits and their life: renewal, modification, suspension, revocation, expiry (B2, B5-B8).

Deadlines come from fogcontrol.rules.deadlines (B6 permit term, B7 notice), read with the ruleset in
force and the Town's calendar. Each issue, renewal and modification writes a new `PermitVersion`;
old versions are kept.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.permits.models import (
    ApplicationKind,
    ApplicationStatus,
    Permit,
    PermitApplication,
    PermitModification,
    PermitNotice,
    PermitStatus,
    PermitVersion,
)
from fogcontrol.permits.services.common import (
    audited_save,
    person,
    record_event,
    require_fog_manager,
    town_contacts,
)
from fogcontrol.permits.services.notices import notice_send
from fogcontrol.permits.states import (
    TransitionNotAllowed,
    check_application_transition,
    check_permit_transition,
)
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.registry.services import device_update
from fogcontrol.rules.calendar import add_years
from fogcontrol.rules.deadlines import frequency_change_effective, permit_expiry
from fogcontrol.rules.devices import default_frequency
from fogcontrol.rules.explain import fmt_date

# B7: what a modification may change. Anything else (ownership, food types, operations) is B8.
MODIFIABLE_TERMS = ("service_frequency_days", "conditions")
CONTACTS_REQUIRED = {
    "wastewater_division_phone": "the Public Works Waste Water Division's telephone number (J1)",
    "after_hours_emergency_phone": "the after-hours emergency telephone number (J1)",
    "fog_manager_address": "the FOG Manager's address for written notices (J2)",
}


def _move(permit: Permit, target: str, *, acting_user, action: str, note: str = "") -> None:
    check_permit_transition(permit.status, target)
    record_event(
        acting_user=acting_user,
        action=action,
        permit=permit,
        from_status=permit.status,
        to_status=target,
        note=note,
    )
    permit.status = target


def _check_frequency(days, ruleset, field="service_frequency_days") -> int:
    allowed = ruleset.allowed_frequencies_days
    if days is None or days == "":
        raise ValidationError({field: ["Give the service frequency in days (E1)."]})
    try:
        days = int(days)
    except (TypeError, ValueError):
        raise ValidationError({field: [f"{days!r} is not a number of days."]}) from None
    if days not in allowed:
        raise ValidationError(
            {field: [f"E1: the frequency must be one of {', '.join(map(str, allowed))} days; {days} is not."]}
        )
    return days


def _check_contacts(contacts: dict) -> None:
    missing = [words for key, words in CONTACTS_REQUIRED.items() if not contacts.get(key)]
    if missing:
        raise ValidationError(
            {
                "town_profile": [
                    "A permit must print "
                    + "; ".join(missing)
                    + " (B2). Enter them in the Town profile (Program settings), then issue again."
                ]
            }
        )


def _term(start: dt.date, on: dt.date) -> dt.date:
    """B6: the last day of a term that starts on `start` (the anniversary, moved under CCP §12a)."""
    deadline = permit_expiry(start, ruleset=ruleset_on(on), calendar=town_calendar())
    assert deadline.due is not None
    return deadline.due


def _sync_device_frequency(device: GreaseControlDevice | None, days: int, *, acting_user) -> None:
    """The registry's assigned frequency (E1) follows the permit's, so servicing schedules by it."""
    if device is None or device.assigned_frequency_days == days:
        return
    device_update(device=device, acting_user=acting_user, assigned_frequency_days=days)


def _write_version(
    permit: Permit,
    *,
    acting_user,
    reason: str,
    effective_from: dt.date,
    conditions: str,
    compliance_schedule: str = "",
    application: PermitApplication | None = None,
    modification: PermitModification | None = None,
    contacts: dict | None = None,
) -> PermitVersion:
    fse = permit.establishment
    version = PermitVersion(
        permit=permit,
        number=permit.version_number,
        reason=reason,
        effective_from=effective_from,
        term_start=permit.term_start,
        valid_until=permit.valid_until,
        business_name=fse.business_name,
        licence_number=fse.licence_number,
        site_address=fse.site_address,
        device_identifier=permit.device.identifier if permit.device_id else "",
        device_kind=permit.device_kind,
        device_capacity_gallons=permit.device_capacity_gallons,
        device_rated_flow_gpm=permit.device_rated_flow_gpm,
        service_frequency_days=permit.service_frequency_days,
        conditions=conditions,
        compliance_schedule=compliance_schedule,
        contacts=contacts if contacts is not None else town_contacts(),
        application=application,
        modification=modification,
        issued_at=timezone.now(),
        issued_by=person(acting_user),
        issued_by_label=actor_label_for(acting_user),
    )
    return audited_save(version, acting_user=acting_user, action="permit.version", creating=True)


def current_conditions(permit: Permit) -> str:
    latest = permit.versions.order_by("-number").first()
    return latest.conditions if latest else ""


@transaction.atomic
def permit_issue(
    *,
    application: PermitApplication,
    acting_user,
    issued_on: dt.date | None = None,
    device_kind: str | None = None,
    device_capacity_gallons: int | None = None,
    device_rated_flow_gpm: int | None = None,
    service_frequency_days: int | None = None,
    conditions: str | None = None,
) -> Permit:
    """B5: the FOG Manager issues the permit from an accepted application (B2 terms, B6 term).

    A new application makes a new permit; a renewal (B6) makes a new version of the permit it
    renews, with the next one-year term; a B8 change makes a new permit that supersedes the old.
    The permit is issued to the business name of the licence records (A1) and prints the Town's
    spill contacts and the FOG Manager's address (B2, J1, J2), which must be on file.
    """
    require_fog_manager(acting_user, "issue permits")
    application = (
        PermitApplication.objects.select_for_update(of=("self",))
        .select_related("establishment", "device", "previous_permit")
        .get(pk=application.pk)
    )
    if application.status == ApplicationStatus.INSPECTION_SCHEDULED:
        raise TransitionNotAllowed(
            "An on-site inspection is scheduled: record its result before issuing (B5)."
        )
    check_application_transition(application.status, ApplicationStatus.ISSUED)
    on = issued_on or town_today()
    ruleset = ruleset_on(on)
    contacts = town_contacts()
    _check_contacts(contacts)
    device = application.device
    kind = device_kind or application.device_kind or (device.kind if device else "")
    if kind not in GreaseControlDevice.Kind.values:
        raise ValidationError({"device_kind": ["B2: state the approved kind of grease control device."]})
    gallons = (
        device_capacity_gallons
        if device_capacity_gallons is not None
        else (application.device_capacity_gallons or (device.capacity_gallons if device else None))
    )
    gpm = (
        device_rated_flow_gpm
        if device_rated_flow_gpm is not None
        else (application.device_rated_flow_gpm or (device.rated_flow_gpm if device else None))
    )
    if not (gallons or gpm):
        raise ValidationError(
            {"device_capacity_gallons": ["B2: state the approved size (gallons, or rated flow in gpm)."]}
        )
    previous = application.previous_permit
    if service_frequency_days is None:
        service_frequency_days = (
            (previous.service_frequency_days if previous else None)
            or (device.assigned_frequency_days if device else None)
            or default_frequency(kind, ruleset)
        )
    frequency = _check_frequency(service_frequency_days, ruleset)
    if conditions is None:
        conditions = current_conditions(previous) if previous else ""
    terms = dict(
        device=device,
        device_kind=kind,
        device_capacity_gallons=gallons,
        device_rated_flow_gpm=gpm,
        service_frequency_days=frequency,
    )

    if application.kind == ApplicationKind.RENEWAL:
        permit = _renew(previous, application=application, acting_user=acting_user, on=on, terms=terms)
        reason = PermitVersion.Reason.RENEWED
    else:
        permit = _new_permit(application, acting_user=acting_user, on=on, terms=terms)
        reason = PermitVersion.Reason.ISSUED
    version = _write_version(
        permit,
        acting_user=acting_user,
        reason=reason,
        effective_from=on,
        conditions=conditions,
        application=application,
        contacts=contacts,
    )
    before = snapshot(application)
    check_application_transition(application.status, ApplicationStatus.ISSUED)
    record_event(
        acting_user=acting_user,
        action="application.issue",
        application=application,
        from_status=application.status,
        to_status=ApplicationStatus.ISSUED,
        note=f"Permit {permit.number}, version {version.number}",
    )
    application.status = ApplicationStatus.ISSUED
    application.permit = permit
    application.decided_at = timezone.now()
    audited_save(application, acting_user=acting_user, action="application.issue", before=before)
    _sync_device_frequency(device, frequency, acting_user=acting_user)
    notice_send(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=PermitNotice.Kind.PERMIT_ISSUED,
        subject=f"FOG permit {permit.number} {'renewed' if reason == PermitVersion.Reason.RENEWED else 'issued'}",
        body=(
            f"FOG permit {permit.number} has been {'renewed' if reason == PermitVersion.Reason.RENEWED else 'issued'} "
            f"to {permit.establishment.business_name}. It is valid until {fmt_date(permit.valid_until)} (B6). "
            f"The grease control device must be serviced at least every {frequency} days (E1). "
            "Download the permit from the FOG permit portal and keep it on the premises."
        ),
        sent_on=on,
        permit=permit,
        application=application,
    )
    return permit


def _new_permit(application: PermitApplication, *, acting_user, on: dt.date, terms: dict) -> Permit:
    """A new permit (B5), or the permit that replaces one on a B8 change."""
    fse = application.establishment
    permit = Permit(
        establishment=fse,
        status=PermitStatus.ISSUED,
        first_issued_on=on,
        version_number=1,
        term_start=on,
        valid_until=_term(on, on),
        **terms,
    )
    permit.full_clean()
    permit.save()
    permit.number = f"FOG-{on:%Y}-{permit.pk:05d}"
    audited_save(permit, acting_user=acting_user, action="permit.issue", creating=True)
    record_event(acting_user=acting_user, action="permit.issue", permit=permit, to_status=PermitStatus.ISSUED,
                 note=f"From application {application.reference}")  # fmt: skip
    # Whatever permits the FSE held before (the one a B8 change replaces, an expired one) are replaced.
    older = fse.permits.exclude(pk=permit.pk).exclude(
        status__in=[PermitStatus.REVOKED, PermitStatus.SUPERSEDED]
    )
    for old in older.select_for_update():
        before = snapshot(old)
        _move(old, PermitStatus.SUPERSEDED, acting_user=acting_user, action="permit.supersede",
              note=f"Replaced by {permit.number} ({application.get_kind_display()})")  # fmt: skip
        old.superseded_by = permit
        audited_save(old, acting_user=acting_user, action="permit.supersede", before=before)
        for pending in old.modifications.filter(status=PermitModification.Status.NOTIFIED):
            _withdraw(pending, acting_user=acting_user, reason=f"The permit was replaced by {permit.number}.")
    return permit


def _renew(permit: Permit, *, application, acting_user, on: dt.date, terms: dict) -> Permit:
    """B6: the next one-year term. Renewed on time, the term follows on from the last one's anniversary;
    renewed after it expired, the new term starts on the day of renewal."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status not in (PermitStatus.ISSUED, PermitStatus.EXPIRED):
        raise TransitionNotAllowed(
            f"Permit {permit.number} is {permit.get_status_display().lower()}: only a permit in force or "
            "expired can be renewed."
        )
    before = snapshot(permit)
    next_start, _leap = add_years(permit.term_start, ruleset_on(on).permit_term_years)
    start = next_start if on <= permit.valid_until else on
    _move(permit, PermitStatus.ISSUED, acting_user=acting_user, action="permit.renew",
          note=f"Application {application.reference}; term from {start:%Y-%m-%d}")  # fmt: skip
    permit.term_start = start
    permit.valid_until = _term(start, on)
    permit.version_number += 1
    for name, value in terms.items():
        setattr(permit, name, value)
    return audited_save(permit, acting_user=acting_user, action="permit.renew", before=before)


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
        days = _check_frequency(changes["service_frequency_days"], ruleset)
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
    if permit.status not in (PermitStatus.ISSUED, PermitStatus.SUSPENDED):
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
    version = _write_version(
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
    _sync_device_frequency(permit.device, permit.service_frequency_days, acting_user=acting_user)
    return version


def _withdraw(modification: PermitModification, *, acting_user, reason: str) -> PermitModification:
    before = snapshot(modification)
    modification.status = PermitModification.Status.WITHDRAWN
    modification.withdrawn_reason = reason
    audited_save(modification, acting_user=acting_user, action="permit.modification.withdraw", before=before)
    record_event(
        acting_user=acting_user,
        action="permit.modification.withdraw",
        permit=modification.permit,
        note=reason,
    )
    return modification


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
    return _withdraw(modification, acting_user=acting_user, reason=reason.strip())


@transaction.atomic
def permit_modifications_apply_due(*, on: dt.date, acting_user="permits_daily") -> list[PermitVersion]:
    """B7: reissue every permit whose notified change takes effect on or before `on`."""
    due = PermitModification.objects.filter(
        status=PermitModification.Status.NOTIFIED, effective_on__lte=on, permit__status=PermitStatus.ISSUED
    ).order_by("effective_on", "pk")
    return [_apply(modification, acting_user=acting_user) for modification in due.select_for_update()]


# --- Suspension, revocation, expiry --------------------------------------------------------


def _status_change(permit, target, *, acting_user, action, reason) -> Permit:
    require_fog_manager(acting_user, "suspend, reinstate or revoke permits")
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason: it is kept with the permit."]})
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    before = snapshot(permit)
    _move(permit, target, acting_user=acting_user, action=action, note=reason.strip())
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
        _withdraw(pending, acting_user=acting_user, reason="The permit was revoked.")
    return permit


@transaction.atomic
def permits_expire_lapsed(*, on: dt.date, acting_user="permits_daily") -> list[Permit]:
    """B6: a permit not renewed by the last day of its term has expired from the day after."""
    lapsed = Permit.objects.filter(status=PermitStatus.ISSUED, valid_until__lt=on).select_for_update()
    expired = []
    for permit in lapsed:
        before = snapshot(permit)
        _move(permit, PermitStatus.EXPIRED, acting_user=acting_user, action="permit.expire",
              note=f"Not renewed by {permit.valid_until:%Y-%m-%d} (B6)")  # fmt: skip
        expired.append(audited_save(permit, acting_user=acting_user, action="permit.expire", before=before))
    return expired


def permits_daily(*, on: dt.date | None = None, acting_user="permits_daily") -> dict[str, int]:
    """The daily run: changes that take effect today are applied first, then lapsed permits expire."""
    on = on or town_today()
    applied = permit_modifications_apply_due(on=on, acting_user=acting_user)
    expired = permits_expire_lapsed(on=on, acting_user=acting_user)
    return {"modifications_applied": len(applied), "permits_expired": len(expired)}
