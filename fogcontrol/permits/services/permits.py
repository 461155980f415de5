"""Issuing permits: a new permit, a renewal, or a new permit on a change (B2, B3, B5, B6, B8, A4, A5).

The B6 term runs with the business licence: fogcontrol.rules.permit_term checks the licence (no
permit on an expired or missing one) and aligns the expiry to it, never more than the ruleset's term
from the term's start (read with the ruleset in force and the Town's calendar). The application fee
must be paid or waived (B3), and a device the sizing check finds wanting is approved only on a
condition with a compliance date (A4, A5). Modifications (B7) are in permit_modifications.py;
suspension, revocation and expiry in permit_status.py; a licence's new expiry in licence.py.
"""

from __future__ import annotations

import datetime as dt
import functools

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import snapshot
from fogcontrol.core.owed import delinquent_amounts
from fogcontrol.core.owed import total as owed_total
from fogcontrol.permits.actions import fees_outstanding, fees_paid_verdict
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
from fogcontrol.permits.services.device_conditions import device_findings, require_device_condition
from fogcontrol.permits.services.notice_wordings import permit_issued_wording
from fogcontrol.permits.services.notices import notice_send
from fogcontrol.permits.services.permit_versions import (
    current_conditions,
    issue_frequency,
    move_permit,
    withdraw_modification,
    write_version,
)
from fogcontrol.permits.states import TransitionNotAllowed, check_application_transition
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.devices import default_frequency
from fogcontrol.rules.permit_term import PermitTerm, licence_check, permit_term, renewal_term_start

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


def licence_term(establishment, start: dt.date, *, on: dt.date) -> PermitTerm:
    """B6: refuse on an expired or missing business licence (naming it and its expiry), else the term
    that starts on `start`, aligned to the licence's expiry and never longer than the B6 term."""
    check = licence_check(
        licence_number=establishment.licence_number,
        licence_expires_on=establishment.licence_expires_on,
        on=on,
        term_start=start,
    )
    if not check.allowed:
        raise TransitionNotAllowed(check.reason)
    return permit_term(
        start,
        licence_number=establishment.licence_number,
        licence_expires_on=establishment.licence_expires_on,
        ruleset=ruleset_on(on),
        calendar=town_calendar(),
    )


def _check_fees_paid(application: PermitApplication) -> None:
    """B3: the fee accompanies the application. A permit is not issued while it is owed (the page
    offers no issue form then: the same verdict)."""
    if not (verdict := fees_paid_verdict(fees_outstanding(application))):
        raise TransitionNotAllowed(verdict.reason)


def default_service_frequency(application: PermitApplication, *, device_kind: str, ruleset) -> int:
    """The frequency a permit is issued with unless the FOG Manager sets another (B2, E1, E2): the
    device's own (its assigned frequency, else the E2 default for its kind: the frequency belongs to
    the device, A2), else that of the permit it follows, else the E2 default for the kind of device
    applied for (an "other" device has its own default, not the trap's)."""
    previous, device = application.previous_permit, application.device
    if device is not None:
        return device.assigned_frequency_days or default_frequency(device.kind, ruleset)
    return (previous.service_frequency_days if previous else None) or default_frequency(device_kind, ruleset)


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
    device_condition: str | None = None,
    device_compliance_date: dt.date | None = None,
) -> Permit:
    """B5: the FOG Manager issues the permit from an accepted application (B2 terms, B6 term).

    A new application makes a new permit; a renewal (B6) makes a new version of the permit it
    renews, with the next term; a B8 change makes a new permit that supersedes the old.
    The permit is issued to the business name of the licence records (A1) and prints the Town's
    spill contacts and the FOG Manager's address (B2, J1, J2), which must be on file.

    Refused (409) while the application fee is owed (B3) or on an expired or missing business
    licence (B6); the term ends with the licence, never later than the B6 term. A device the sizing
    check finds wanting (A4, A5) needs `device_condition` and `device_compliance_date` (400 otherwise).
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
    renewal = application.kind == ApplicationKind.RENEWAL
    _check_fees_paid(application)
    if renewal:
        _check_renewable(previous)
        start, _reason = renewal_term_start(
            term_start=previous.term_start, valid_until=previous.valid_until, renewed_on=on, ruleset=ruleset
        )
    else:
        start = on
    term = licence_term(application.establishment, start, on=on)
    frequency = issue_frequency(
        device=device, requested=service_frequency_days, previous=previous, kind=kind,
        renewal=renewal, establishment=application.establishment,
        ruleset=ruleset, acting_user=acting_user,
    )  # fmt: skip
    if conditions is None:
        conditions = current_conditions(previous) if previous else ""
    device_terms = require_device_condition(
        device_findings(application, kind=kind, gallons=gallons, gpm=gpm, ruleset=ruleset),
        condition=device_condition,
        compliance_date=device_compliance_date,
        issued_on=on,
    )
    terms = dict(
        device=device,
        device_kind=kind,
        device_capacity_gallons=gallons,
        device_rated_flow_gpm=gpm,
        service_frequency_days=frequency,
    )

    if renewal:
        permit = _renew(previous, application=application, acting_user=acting_user, term=term, terms=terms)
        reason = PermitVersion.Reason.RENEWED
    else:
        permit = _new_permit(application, acting_user=acting_user, on=on, term=term, terms=terms)
        reason = PermitVersion.Reason.ISSUED
    version = write_version(
        permit,
        acting_user=acting_user,
        reason=reason,
        effective_from=on,
        conditions=conditions,
        application=application,
        contacts=contacts,
        device_terms=device_terms,
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
    notice_send(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=PermitNotice.Kind.PERMIT_ISSUED,
        wording=functools.partial(
            permit_issued_wording,
            number=permit.number,
            business=permit.establishment.business_name,
            licence=permit.establishment.licence_number,
            valid_until=permit.valid_until,
            frequency=frequency,
            renewed=reason == PermitVersion.Reason.RENEWED,
            condition=device_terms.condition if device_terms.findings else "",
            compliance_date=device_terms.compliance_date,
        ),
        sent_on=on,
        permit=permit,
        application=application,
    )
    return permit


def _new_permit(
    application: PermitApplication, *, acting_user, on: dt.date, term: PermitTerm, terms: dict
) -> Permit:
    """A new permit (B5), or the permit that replaces one on a B8 change."""
    fse = application.establishment
    permit = Permit(
        establishment=fse,
        status=PermitStatus.ISSUED,
        first_issued_on=on,
        version_number=1,
        term_start=term.start,
        valid_until=term.valid_until,
        **terms,
    )
    permit.full_clean()
    permit.save()
    permit.number = f"FOG-{on:%Y}-{permit.pk:05d}"
    audited_save(permit, acting_user=acting_user, action="permit.issue", creating=True)
    record_event(acting_user=acting_user, action="permit.issue", permit=permit, to_status=PermitStatus.ISSUED,
                 note=f"From application {application.reference}; valid until {term.valid_until:%Y-%m-%d} "
                      f"(B6, with licence {term.licence_number})")  # fmt: skip
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


def _check_renewable(permit: Permit) -> None:
    if permit.status not in (PermitStatus.ISSUED, PermitStatus.EXPIRED):
        raise TransitionNotAllowed(
            f"Permit {permit.number} is {permit.get_status_display().lower()}: only a permit in force or "
            "expired can be renewed."
        )
    _check_licence_not_held(permit)


def _check_licence_not_held(permit: Permit) -> None:
    """B6 with Q2: the permit is renewed with the business licence, and no licence is renewed while
    an amount owed to the Town is delinquent. Billing answers through ``core.owed``."""
    held = delinquent_amounts(permit.establishment_id, town_today())
    if held:
        raise TransitionNotAllowed(
            f"The business licence is held (Q2): ${owed_total(held)} owed to the Town is delinquent "
            f"({'; '.join(f'{item.label}: ${item.amount}' for item in held)}). Permit "
            f"{permit.number} cannot be renewed (B6) until it is paid."
        )


def _renew(permit: Permit, *, application, acting_user, term: PermitTerm, terms: dict) -> Permit:
    """B6: the next term, from `term` (renewed on time it follows on from the last; renewed after it
    expired it starts on the day of renewal), ending with the business licence."""
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    _check_renewable(permit)
    before = snapshot(permit)
    move_permit(permit, PermitStatus.ISSUED, acting_user=acting_user, action="permit.renew",
          note=f"Application {application.reference}; term from {term.start:%Y-%m-%d} to "
               f"{term.valid_until:%Y-%m-%d} (B6, with licence {term.licence_number})")  # fmt: skip
    permit.term_start = term.start
    permit.valid_until = term.valid_until
    permit.version_number += 1
    for name, value in terms.items():
        setattr(permit, name, value)
    return audited_save(permit, acting_user=acting_user, action="permit.renew", before=before)
