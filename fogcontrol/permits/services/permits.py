"""Issuing permits: a new permit, a renewal, or a new permit on a change (B2, B5, B6, B8).

The B6 permit term comes from fogcontrol.rules.deadlines, read with the ruleset in force and the
Town's calendar. Modifications (B7) are in permit_modifications.py; suspension, revocation and
expiry in permit_status.py.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import snapshot
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
from fogcontrol.permits.services.common import audited_save, record_event, require_fog_manager, town_contacts
from fogcontrol.permits.services.notices import notice_send
from fogcontrol.permits.services.permit_versions import (
    check_frequency,
    current_conditions,
    move_permit,
    sync_device_frequency,
    withdraw_modification,
    write_version,
)
from fogcontrol.permits.states import TransitionNotAllowed, check_application_transition
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.calendar import add_years
from fogcontrol.rules.deadlines import permit_expiry
from fogcontrol.rules.devices import default_frequency
from fogcontrol.rules.explain import fmt_date

CONTACTS_REQUIRED = {
    "wastewater_division_phone": "the Public Works Waste Water Division's telephone number (J1)",
    "after_hours_emergency_phone": "the after-hours emergency telephone number (J1)",
    "fog_manager_address": "the FOG Manager's address for written notices (J2)",
}


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


@transaction.atomic
def default_service_frequency(application: PermitApplication, *, device_kind: str, ruleset) -> int:
    """The frequency a permit is issued with unless the FOG Manager sets another (B2, E1, E2): that
    of the permit it follows, else the device's assigned frequency, else the E2 default for the kind
    of device in the ruleset (an "other" device has its own default, not the trap's)."""
    previous, device = application.previous_permit, application.device
    return (
        (previous.service_frequency_days if previous else None)
        or (device.assigned_frequency_days if device else None)
        or default_frequency(device_kind, ruleset)
    )


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
        service_frequency_days = default_service_frequency(application, device_kind=kind, ruleset=ruleset)
    frequency = check_frequency(service_frequency_days, ruleset)
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
    version = write_version(
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
    sync_device_frequency(device, frequency, acting_user=acting_user)
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
        move_permit(old, PermitStatus.SUPERSEDED, acting_user=acting_user, action="permit.supersede",
              note=f"Replaced by {permit.number} ({application.get_kind_display()})")  # fmt: skip
        old.superseded_by = permit
        audited_save(old, acting_user=acting_user, action="permit.supersede", before=before)
        for pending in old.modifications.filter(status=PermitModification.Status.NOTIFIED):
            withdraw_modification(
                pending, acting_user=acting_user, reason=f"The permit was replaced by {permit.number}."
            )
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
    move_permit(permit, PermitStatus.ISSUED, acting_user=acting_user, action="permit.renew",
          note=f"Application {application.reference}; term from {start:%Y-%m-%d}")  # fmt: skip
    permit.term_start = start
    permit.valid_until = _term(start, on)
    permit.version_number += 1
    for name, value in terms.items():
        setattr(permit, name, value)
    return audited_save(permit, acting_user=acting_user, action="permit.renew", before=before)
