"""The enforcement sweep builds its overdue-service and permit violations from plain rows read in
bulk, A2 decided once per device (issue 16). Its violations are those the per-row path (model
instances with their FSEs and parcels prefetched, kept below as the oracle) opened, row for row;
its queries do not grow with the devices, FSEs and permits."""

import datetime as dt

import pytest
from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch
from django.test.utils import CaptureQueriesContext

from fogcontrol.enforcement.models import Violation
from fogcontrol.enforcement.services.sweep import enforcement_sweep
from fogcontrol.permits.models import Permit, PermitStatus
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.registry.selectors import responsibility_for
from fogcontrol.rules.enforcement import violation_kind  # noqa: F401 (the oracle's module imported it)
from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.responsibility import PROPERTY_OWNER
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 6, 15)
FIELDS = (
    "establishment_id", "property_owner_id", "device_id", "provision", "kind", "description", "source",
    "source_key", "source_id", "evidence", "began_on", "opened_by_id", "opened_by_label",
)  # fmt: skip


def _overdue(device, next_due):
    DeviceServiceState.objects.create(
        device=device, status="overdue", status_on=TODAY, frequency_days=90, next_due=next_due
    )


def _program(count: int) -> None:
    """``count`` of each case: a device shared by two FSEs on its parcel (A2: the owner answers), a
    device with no parcel serving FSEs on two parcels (each FSE's parcel owner), a device serving
    one active and one closed FSE (A3: the active FSE answers), a removed device (none); FSEs whose
    last permit lapsed, one suspended (under an order: none), one never permitted, one in force."""
    for number in range(count):
        due = dt.date(2026, 5, 1) + dt.timedelta(days=number)
        parcel = factories.ParcelFactory()
        pair = [factories.EstablishmentFactory(parcel=parcel) for _ in range(2)]
        _overdue(factories.DeviceFactory(establishments=pair, parcel=parcel), due)
        apart = [factories.EstablishmentFactory() for _ in range(2)]
        _overdue(factories.DeviceFactory(establishments=apart, parcel=None), due)
        closed = factories.EstablishmentFactory(status=FoodServiceEstablishment.Status.CLOSED)
        single = factories.EstablishmentFactory(parcel=None)
        _overdue(factories.DeviceFactory(establishments=[single, closed], parcel=None), due)
        removed = factories.DeviceFactory(establishments=[pair[0]], status=GreaseControlDevice.Status.REMOVED)
        _overdue(removed, due)
        PermitFactory(establishment=pair[0], valid_until=dt.date(2026, 5, 31) - dt.timedelta(days=number))
        PermitFactory(establishment=pair[1], valid_until=dt.date(2026, 5, 31), status=PermitStatus.SUSPENDED)
        PermitFactory(establishment=apart[0], valid_until=dt.date(2027, 5, 31))
        PermitFactory(establishment=apart[1], valid_until=dt.date(2026, 4, 30), status=PermitStatus.EXPIRED)


# --- The per-row path as it was before (the oracle): instances, prefetched, one Violation each. ---


def _owner_id(device, establishment):
    if device is None or responsibility_for(device).responsible != PROPERTY_OWNER:
        return None
    parcel = device.parcel if device.parcel_id else establishment.parcel
    return parcel.owner_id if parcel is not None else None


def _old_service(today) -> list[tuple]:
    grace = ruleset_on(today).service_grace_days
    overdue = (
        DeviceServiceState.objects.filter(status="overdue", next_due__isnull=False)
        .filter(device__status=GreaseControlDevice.Status.ACTIVE)
        .select_related("device__parcel")
        .prefetch_related(
            Prefetch(
                "device__establishments",
                queryset=FoodServiceEstablishment.objects.filter(
                    status=FoodServiceEstablishment.Status.ACTIVE
                ).select_related("parcel"),
            )
        )
    )
    rows = []
    for state in overdue:
        device, next_due = state.device, state.next_due
        for fse in device.establishments.all():
            rows.append((
                fse.pk, _owner_id(device, fse), device.pk, "E1", "maintenance",
                f"Device {device.identifier} was due for service on {fmt_date(next_due)} and has not been serviced (E1).",
                "overdue_service", f"overdue_service:{device.pk}:{fse.pk}:{next_due.isoformat()}", device.pk,
                f"Service records of device {device.identifier}: next service due {fmt_date(next_due)}.",
                next_due + dt.timedelta(days=grace + 1), None, "enforcement.nightly",
            ))  # fmt: skip
    return rows


def _old_permits(today) -> list[tuple]:
    in_force = Permit.objects.filter(
        establishment=OuterRef("pk"), status=PermitStatus.ISSUED, valid_until__gte=today
    )
    latest = Permit.objects.filter(establishment=OuterRef("pk")).order_by("-first_issued_on", "-pk")
    without = (
        FoodServiceEstablishment.objects.filter(status=FoodServiceEstablishment.Status.ACTIVE)
        .annotate(has_permit=Exists(in_force))
        .filter(has_permit=False)
        .annotate(
            last_pk=latest.values("pk")[:1],
            last_number=latest.values("number")[:1],
            last_status=latest.values("status")[:1],
            last_valid_until=latest.values("valid_until")[:1],
        )
    )
    rows = []
    for fse in without:
        if fse.last_pk is None:
            rows.append((
                fse.pk, None, None, "B1", "no_permit", "The establishment holds no FOG permit (B1).", "permit",
                f"permit_missing:{fse.pk}", None,
                f"The Town's permit records on {fmt_date(today)}: no permit was ever issued.", today, None,
                "enforcement.nightly",
            ))  # fmt: skip
        elif fse.last_status in (PermitStatus.ISSUED, PermitStatus.EXPIRED) and fse.last_valid_until < today:
            number, until = fse.last_number or "", fse.last_valid_until
            rows.append((
                fse.pk, None, None, "B1", "no_permit",
                f"FOG permit {number} expired after {fmt_date(until)} and was not renewed (B1, B6).", "permit",
                f"permit_expired:{fse.last_pk}:{until.isoformat()}", fse.last_pk,
                f"Permit {number}: last day of its term {fmt_date(until)}.", until + dt.timedelta(days=1), None,
                "enforcement.nightly",
            ))  # fmt: skip
    return rows


@pytest.mark.provision("A2")
def test_e1_b1_b6_a2_the_rows_opened_are_those_the_per_row_path_opened(town):
    _program(3)
    expected = _old_service(TODAY) + _old_permits(TODAY)
    owners = {row[1] for row in expected if row[3] == "E1"}
    assert None in owners and len(owners) > 3  # A2 names owners here, and the FSE elsewhere
    counts = enforcement_sweep(today=TODAY, acting_user="enforcement.nightly")
    assert counts["opened"] == len(expected)
    assert list(Violation.objects.order_by("pk").values_list(*FIELDS)) == expected
    assert enforcement_sweep(today=TODAY)["opened"] == 0


@pytest.mark.parametrize("count", [1, 4])
def test_opening_and_curing_take_the_same_queries_for_1_and_4_of_each_source(town, count):
    _program(count)
    with CaptureQueriesContext(connection) as opening:
        assert enforcement_sweep(today=TODAY)["service_opened"] >= 4 * count
    # Every overdue device serviced on one day: the cures take one UPDATE whatever their number.
    DeviceServiceState.objects.filter(status="overdue").update(
        status="compliant", last_service_on=TODAY, next_due=dt.date(2026, 9, 13)
    )
    with CaptureQueriesContext(connection) as curing:
        assert enforcement_sweep(today=TODAY)["cured"] >= 4 * count
    # Opening: the violations open whose key is one of tonight's overdue rows are not read back to
    # be checked for a cure (none left here), so no device states are read for them.
    assert (len(opening), len(curing)) == (19, 17)
