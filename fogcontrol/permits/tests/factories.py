"""Factories for the permits app's tests."""

import datetime as dt
from decimal import Decimal

import factory
from factory.django import DjangoModelFactory

from fogcontrol.permits.models import (
    ApplicationFixture,
    FeeKind,
    FeeSchedule,
    FeeScheduleLine,
    Permit,
    PermitStatus,
    PermitVersion,
)
from fogcontrol.testing.factories import EstablishmentFactory

FEES = {
    FeeKind.NEW_PERMIT: Decimal("350.00"),
    FeeKind.RENEWAL: Decimal("200.00"),
    FeeKind.REISSUE: Decimal("300.00"),
    FeeKind.PLAN_REVIEW: Decimal("450.00"),
}


def fee_schedule(effective_from=dt.date(2023, 3, 30), amounts=None) -> FeeSchedule:
    schedule = FeeSchedule.objects.create(effective_from=effective_from, label="Resolution 2023-14")
    for kind, amount in (amounts or FEES).items():
        FeeScheduleLine.objects.create(schedule=schedule, kind=kind, amount=amount)
    return schedule


class FixtureFactory(DjangoModelFactory):
    class Meta:
        model = ApplicationFixture

    kind = "sink_three_compartment"
    count = 1
    compartments = 3
    compartment_length_in = Decimal("24")
    compartment_width_in = Decimal("24")
    compartment_depth_in = Decimal("14")


class PermitFactory(DjangoModelFactory):
    """A permit in force with its first version, for tests that start from an issued permit."""

    class Meta:
        model = Permit
        skip_postgeneration_save = True

    number = factory.Sequence(lambda n: f"FOG-2025-{n + 90000:05d}")
    establishment = factory.SubFactory(EstablishmentFactory)
    status = PermitStatus.ISSUED
    first_issued_on = dt.date(2025, 7, 1)
    term_start = dt.date(2025, 7, 1)
    valid_until = dt.date(2026, 7, 1)
    device_kind = "gravity_interceptor"
    device_capacity_gallons = 1000
    service_frequency_days = 90

    @factory.post_generation
    def version(obj, create, extracted, **kwargs):
        if create:
            PermitVersion.objects.create(
                permit=obj,
                number=obj.version_number,
                reason=PermitVersion.Reason.ISSUED,
                effective_from=obj.term_start,
                term_start=obj.term_start,
                valid_until=obj.valid_until,
                business_name=obj.establishment.business_name,
                licence_number=obj.establishment.licence_number,
                site_address=obj.establishment.site_address,
                device_kind=obj.device_kind,
                device_capacity_gallons=obj.device_capacity_gallons,
                service_frequency_days=obj.service_frequency_days,
                contacts={"town_name": "Los Robles"},
                issued_at=dt.datetime(2025, 7, 1, 9, tzinfo=dt.UTC),
                issued_by_label="fog_manager",
            )
