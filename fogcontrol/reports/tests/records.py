"""Known records for the annual report's tests: for the year under test a counted number of each
thing the report counts, and the same things just outside it (the year before and the year after,
or of a kind the report leaves out), so each figure is proved by its records and its boundaries."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import (
    AdministrativeCitation,
    Case,
    ComplianceAgreement,
    NoticeOfViolation,
    PenaltyOrder,
    Referral,
    Violation,
)
from fogcontrol.inspections.models import Inspection
from fogcontrol.permits.models import PermitOrder, PermitStatus, PermitVersion
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_zone
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.spills import services as spill_services
from fogcontrol.testing.factories import EstablishmentFactory

_serial = iter(range(1, 10**6))


def _at(day: dt.date, hour: int = 10) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), tzinfo=town_zone())


def permit(*, issued: dt.date, until: dt.date, status=PermitStatus.ISSUED, establishment=None):
    return PermitFactory(
        establishment=establishment or EstablishmentFactory(),
        first_issued_on=issued,
        term_start=issued,
        valid_until=until,
        status=status,
    )


def version(permit_, *, reason: str, on: dt.date) -> PermitVersion:
    return PermitVersion.objects.create(
        permit=permit_, number=PermitVersion.objects.filter(permit=permit_).count() + 1, reason=reason,
        effective_from=on, term_start=on, valid_until=permit_.valid_until,
        business_name=permit_.establishment.business_name, licence_number=permit_.establishment.licence_number,
        site_address=permit_.establishment.site_address, device_kind=permit_.device_kind,
        service_frequency_days=permit_.service_frequency_days, contacts={}, issued_at=timezone.now(),
        issued_by_label="test",
    )  # fmt: skip


def permit_order(permit_, *, kind: str, applied: dt.date | None) -> PermitOrder:
    return PermitOrder.objects.create(
        permit=permit_, kind=kind, facts="Two SSOs traced to the lateral.", recorded_by_label="test",
        applied_on=applied,
    )  # fmt: skip


def inspection(establishment, *, on: dt.date, kind="routine", status="completed", entry="granted"):
    return Inspection.objects.create(
        establishment=establishment, kind=kind, status=status, scheduled_on=on,
        visited_on=on if status == "completed" else None, entry=entry,
    )  # fmt: skip


def violation(establishment, *, began: dt.date, cured: dt.date | None = None) -> Violation:
    return Violation.objects.create(
        establishment=establishment, provision="C3", description="Drain screens missing",
        source=Violation.Source.MANUAL, began_on=began, cured_on=cured,
    )  # fmt: skip


def case(establishment, *, opened: dt.date) -> Case:
    return Case.objects.create(establishment=establishment, summary="Missing drain screens", opened_on=opened)


def _served(on: dt.date) -> dict:
    return {"issued_on": on, "served_on": on, "service_method": "personal"}


def notice_of_violation(case_, *, on: dt.date) -> NoticeOfViolation:
    return NoticeOfViolation.objects.create(
        case=case_, required_action="Fit the screens.", correct_by=on + dt.timedelta(days=30), **_served(on)
    )


def citation(case_, violation_, *, on: dt.date, amount: str) -> AdministrativeCitation:
    return AdministrativeCitation.objects.create(
        case=case_, violation=violation_, number=f"AC-{next(_serial)}", amount=Decimal(amount), **_served(on)
    )


def penalty(case_, *, on: dt.date, amount: str, status=PenaltyOrder.Status.FINAL) -> PenaltyOrder:
    return PenaltyOrder.objects.create(
        case=case_, violation_kind=PenaltyOrder.Kind.MAINTENANCE, amount=Decimal(amount), cap=Decimal("100000"),
        harm="Blocked main", economic_benefit="Skipped pumping", nature_and_persistence="Repeated",
        duration="Three months", corrective_action="None", hearing_officer_name="A. Reyes",
        payment_due_on=on + dt.timedelta(days=30), status=status, **_served(on),
    )  # fmt: skip


def agreement(case_, *, on: dt.date) -> ComplianceAgreement:
    return ComplianceAgreement.objects.create(
        case=case_, agreed_on=on, terms="Install screens by June.", signed_by="Pat Owner"
    )


def referral(case_, *, on: dt.date) -> Referral:
    return Referral.objects.create(
        case=case_, kind=Referral.Kind.JUDICIAL, referred_on=on, referred_to="The Town Attorney"
    )


def spill(town, *, on: dt.date, kind="sso", cause="grease", gallons="100", link=None):
    record = spill_services.spill_record(
        acting_user=town.users[Role.INSPECTOR], links=[(link, "Upstream")] if link else [], kind=kind,
        address="100 Main Street", started_at=_at(on), volume_spilled=Decimal(gallons),
        volume_recovered=Decimal("0"), volume_reached_surface_water=Decimal("0"), destination="street",
        cause=cause, latitude=Decimal("37.5"), longitude=Decimal("-122.3"),
    )  # fmt: skip
    return record


def manifest(user, device, *, on: dt.date, gallons: str, full=True):
    return submit(user, device, serviced_at=_at(on), gallons_removed=Decimal(gallons), full_pumpout=full)
