"""Violations: opened automatically once from their sources, cured when the source is cured (P3),
opened and cured by hand, days counted per P3 with the explanation."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Violation
from fogcontrol.enforcement.selectors.violations import with_days
from fogcontrol.enforcement.services.sweep import enforcement_sweep
from fogcontrol.enforcement.services.violations import violation_cure, violation_open
from fogcontrol.enforcement.tests.helpers import a_violation
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import finding_close, finding_open
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.servicing.models import DeviceServiceState, ManifestFlag
from fogcontrol.servicing.services.manifest_flags import flag_review
from fogcontrol.servicing.tests.helpers import submit

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 6, 15)


def _state(device, *, next_due, status="overdue", last=None):
    return DeviceServiceState.objects.update_or_create(
        device=device,
        defaults=dict(
            status=status, status_on=TODAY, next_due=next_due, frequency_days=90, last_service_on=last
        ),
    )[0]


def _permit_everyone(town, **kw):
    from fogcontrol.registry.models import FoodServiceEstablishment

    for fse in FoodServiceEstablishment.objects.all():
        PermitFactory(establishment=fse, **kw)


@pytest.mark.provision("P3")
def test_p3_a_finding_opens_one_violation_and_closing_it_cures(town):
    _permit_everyone(town)
    finding = finding_open(
        establishment=town.own_fse, provision="C3", item="drain_screens", description="No drain screens",
        began_on=dt.date(2026, 6, 1), source=Finding.Source.INSPECTION, source_id=7,
        acting_user=town.users[Role.INSPECTOR],
    )  # fmt: skip
    assert enforcement_sweep(today=TODAY)["opened"] == 1
    assert enforcement_sweep(today=TODAY) == enforcement_sweep(today=TODAY)  # idempotent
    assert enforcement_sweep(today=TODAY)["opened"] == 0
    violation = Violation.objects.get(source_key=f"finding:{finding.pk}")
    assert violation.began_on == dt.date(2026, 6, 1) and violation.provision == "C3" and violation.is_open
    finding_close(finding=finding, acting_user=town.users[Role.INSPECTOR], closed_on=dt.date(2026, 6, 10),
                  how="other", evidence="Screens fitted")  # fmt: skip
    assert enforcement_sweep(today=TODAY)["cured"] == 1
    violation.refresh_from_db()
    assert violation.cured_on == dt.date(2026, 6, 10) and violation.cured_automatically
    assert enforcement_sweep(today=TODAY)["cured"] == 0
    assert AuditEntry.objects.filter(action="violation.cure", object_id=str(violation.pk)).count() == 1
    [row] = with_days([violation], TODAY)
    assert row.days == 10 and "P3" in row.days_explanation


@pytest.mark.provision("E1")
def test_e1_overdue_service_opens_once_and_service_cures(town):
    _permit_everyone(town)
    _state(town.own_device, next_due=dt.date(2026, 6, 1))
    assert enforcement_sweep(today=TODAY)["service_opened"] == 1
    assert enforcement_sweep(today=TODAY)["opened"] == 0
    violation = Violation.objects.get(source=Violation.Source.OVERDUE_SERVICE)
    assert violation.began_on == dt.date(2026, 6, 2) and violation.kind == "maintenance"
    _state(town.own_device, next_due=dt.date(2026, 9, 10), status="compliant", last=dt.date(2026, 6, 12))
    assert enforcement_sweep(today=TODAY)["cured"] == 1
    violation.refresh_from_db()
    assert violation.cured_on == dt.date(2026, 6, 12)


@pytest.mark.provision("B1")
def test_b1_missing_and_expired_permits_open_once_and_issue_cures(town):
    PermitFactory(establishment=town.other_fse, valid_until=dt.date(2026, 5, 31))
    counts = enforcement_sweep(today=TODAY)
    expired = Violation.objects.get(establishment=town.other_fse, source=Violation.Source.PERMIT)
    assert (
        expired.began_on == dt.date(2026, 6, 1)
        and expired.kind == "no_permit"
        and "expired" in expired.description
    )
    missing = Violation.objects.get(establishment=town.own_fse, source=Violation.Source.PERMIT)
    assert missing.began_on == TODAY and counts["permits_opened"] >= 2
    assert enforcement_sweep(today=TODAY)["opened"] == 0
    PermitFactory(establishment=town.own_fse, term_start=dt.date(2026, 6, 20), first_issued_on=dt.date(2026, 6, 20),
                  valid_until=dt.date(2027, 6, 19))  # fmt: skip
    later = dt.date(2026, 6, 25)
    enforcement_sweep(today=later)
    missing.refresh_from_db()
    assert missing.cured_on == dt.date(2026, 6, 20)


@pytest.mark.provision("F4")
def test_f4_a_flag_referred_for_enforcement_opens_a_violation_at_once(town):
    _permit_everyone(town)
    manifest = submit(town.users[Role.HAULER], town.own_device)
    flag = ManifestFlag.objects.create(
        manifest=manifest, code="low_volume", provision="E7", message="Too little removed"
    )
    flag_review(flag=flag, acting_user=town.users[Role.INSPECTOR], outcome="referred", note="Repeat offender")
    violation = Violation.objects.get(source=Violation.Source.MANIFEST_FLAG)
    assert violation.source_id == flag.pk and violation.establishment == town.own_fse
    assert violation.began_on == manifest.service_date and violation.opened_by == town.users[Role.INSPECTOR]
    assert enforcement_sweep(today=TODAY)["flags_opened"] == 0


@pytest.mark.provision("P3")
def test_p3_staff_open_by_hand_with_evidence_and_cure_once(town):
    inspector = town.users[Role.INSPECTOR]
    with pytest.raises(ValidationError, match="what shows"):
        violation_open(acting_user=inspector, establishment=town.own_fse, provision="K6", description="x",
                       began_on=TODAY)  # fmt: skip
    violation = a_violation(town, began_on=dt.date(2026, 6, 1))
    with pytest.raises(ValidationError, match="before the day it began"):
        violation_cure(acting_user=inspector, violation=violation, cured_on=dt.date(2026, 5, 1), evidence="x")
    violation_cure(acting_user=inspector, violation=violation, cured_on=dt.date(2026, 6, 3), evidence="Fixed")
    with pytest.raises(StateConflict):
        violation_cure(
            acting_user=inspector, violation=violation, cured_on=dt.date(2026, 6, 3), evidence="Fixed"
        )
    violation.refresh_from_db()
    assert with_days([violation], TODAY)[0].days == 3


@pytest.mark.parametrize("role", [Role.FSE, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY])
def test_only_officers_open_violations(town, role):
    with pytest.raises(PermissionDenied):
        violation_open(acting_user=town.users[role], establishment=town.own_fse, provision="C3",
                       description="x", evidence="y", began_on=TODAY)  # fmt: skip


@pytest.mark.provision("P3")
def test_p3_the_nightly_command_runs_the_sweep_and_a_second_night_opens_nothing(town):
    from io import StringIO

    from django.core.management import call_command

    first, second = StringIO(), StringIO()
    call_command("enforcement_nightly", stdout=first)
    call_command("enforcement_nightly", stdout=second)
    assert "violations opened:" in first.getvalue()
    assert "violations opened: 0, cured: 0" in second.getvalue()


@pytest.mark.provision("A2")
def test_a2_an_overdue_shared_device_names_the_property_owner_on_each_fses_violation(town):
    from fogcontrol.testing import factories

    parcel = factories.ParcelFactory()
    first, second = (
        factories.EstablishmentFactory(parcel=parcel),
        factories.EstablishmentFactory(parcel=parcel),
    )
    _permit_everyone(town)
    shared = factories.DeviceFactory(establishments=[first, second], parcel=parcel)
    _state(shared, next_due=dt.date(2026, 6, 1))
    _state(town.own_device, next_due=dt.date(2026, 6, 1))
    enforcement_sweep(today=TODAY)
    violations = Violation.objects.filter(device=shared)
    assert {v.establishment_id for v in violations} == {first.pk, second.pk}
    assert {v.property_owner_id for v in violations} == {parcel.owner_id}
    own = (
        Violation.objects.get(device=town.own_device)
        if Violation.objects.filter(device=town.own_device)
        else None
    )
    assert own is None or own.property_owner_id is None
