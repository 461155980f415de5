"""What every change to a permit shares: its state moves, its frequency check (E1), its versions
(B2: each issue, renewal and modification writes a new `PermitVersion`; old versions are kept), the
frequency a permit states on issue (the device's, E1, A2), and the withdrawal of a pending
modification (B7).
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.permits.models import Permit, PermitApplication, PermitModification, PermitVersion
from fogcontrol.permits.services.common import audited_save, record_event, town_contacts
from fogcontrol.permits.services.device_conditions import DeviceCondition
from fogcontrol.permits.states import check_permit_transition
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.registry.services import device_update
from fogcontrol.rules.devices import default_frequency

# B7: what a modification may change. Anything else (ownership, food types, operations) is B8.
MODIFIABLE_TERMS = ("service_frequency_days", "conditions")


def move_permit(permit: Permit, target: str, *, acting_user, action: str, note: str = "") -> None:
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


def check_frequency(days, ruleset, field="service_frequency_days") -> int:
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


def issue_frequency(
    *,
    device: GreaseControlDevice | None,
    requested,
    previous: Permit | None,
    kind: str,
    renewal: bool,
    establishment,
    ruleset,
    acting_user,
) -> int:
    """The service frequency a permit states when it is issued or renewed (B2, E1).

    The frequency belongs to the device (E1, A2): the permit states the device's frequency, and
    issuing or renewing a permit never changes it (a shared interceptor must not follow one
    tenant's renewal). The one exception is the device's first frequency: a device on its E2
    default that serves only this FSE may be given its frequency by the first permit issued for
    it (E4); the issue notice tells the permittee. Any later change is a B7 change of the device
    (servicing's `frequency_change`). A permit that names no device keeps its own frequency.
    """
    if device is None:
        days = (
            requested
            or (previous.service_frequency_days if previous else None)
            or default_frequency(kind, ruleset)
        )
        return check_frequency(days, ruleset)
    current = device.assigned_frequency_days or default_frequency(device.kind, ruleset)
    days = current if requested in (None, "") else check_frequency(requested, ruleset)
    served = list(device.establishments.all())
    first_assignment = (
        not renewal
        and device.assigned_frequency_days is None
        and all(fse.pk == establishment.pk for fse in served)
    )
    if first_assignment:
        device_update(device=device, acting_user=acting_user, assigned_frequency_days=days)
        return days
    if days != current:
        raise ValidationError(
            {
                "service_frequency_days": [
                    f"A2, E1: the service frequency belongs to device {device.identifier}, serviced every "
                    f"{current} days; issuing or renewing a permit does not change it. Issue the permit with "
                    f"every {current} days, and propose a change on the device's frequency form (B7: the "
                    "responsible party and the permittees are told)."
                ]
            }
        )
    return current


def write_version(
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
    device_terms: DeviceCondition | None = None,
) -> PermitVersion:
    """The permit's terms as issued today, as a new version. The device's A4 / A5 condition is the one
    given, else carried from the version before (a B7 change or a licence's new expiry keeps it)."""
    fse = permit.establishment
    if device_terms is None:
        device_terms = carried_device_condition(permit)
    version = PermitVersion(
        permit=permit,
        number=permit.version_number,
        reason=reason,
        effective_from=effective_from,
        term_start=permit.term_start,
        valid_until=permit.valid_until,
        business_name=fse.business_name,
        licence_number=fse.licence_number,
        licence_expires_on=fse.licence_expires_on,
        site_address=fse.site_address,
        device_identifier=permit.device.identifier if permit.device_id else "",
        device_kind=permit.device_kind,
        device_capacity_gallons=permit.device_capacity_gallons,
        device_rated_flow_gpm=permit.device_rated_flow_gpm,
        service_frequency_days=permit.service_frequency_days,
        conditions=conditions,
        compliance_schedule=compliance_schedule,
        device_findings=list(device_terms.findings),
        device_condition=device_terms.condition,
        device_compliance_date=device_terms.compliance_date,
        contacts=contacts if contacts is not None else town_contacts(),
        application=application,
        modification=modification,
        issued_at=timezone.now(),
        issued_by=person(acting_user),
        issued_by_label=actor_label_for(acting_user),
    )
    return audited_save(version, acting_user=acting_user, action="permit.version", creating=True)


def carried_device_condition(permit: Permit) -> DeviceCondition:
    """A4, A5: the device condition of the permit's latest version (none for a new permit)."""
    latest = permit.versions.order_by("-number").first() if permit.pk else None
    if latest is None:
        return DeviceCondition()
    return DeviceCondition(
        tuple(latest.device_findings), latest.device_condition, latest.device_compliance_date
    )


def current_conditions(permit: Permit) -> str:
    latest = permit.versions.order_by("-number").first()
    return latest.conditions if latest else ""


def withdraw_modification(
    modification: PermitModification, *, acting_user, reason: str
) -> PermitModification:
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
