"""Permits for the demo town, so that it looks lived-in (called by `fogcontrol seed_demo`).

- the Town's fee schedule (illustrative amounts, clearly labelled);
- the demo FSE user's establishment: a real application history through the services (applied,
  fee paid, accepted, issued); the servicing demo then gives its device a B7 frequency change,
  noticed and awaiting its effective date;
- most other active FSEs: a permit in force, issued over the last year and running with the business
  licence (B6), so some are due for renewal; a few expired; a device below A4 carries a condition with
  a compliance date (A4); these are written in bulk with one audit entry each, as the demo's registry is;
- a handful of FSEs without a permit, with applications at each stage of review (B5), and one
  with none at all (B1); one remodel notice (G1).

The seeder reads the town's establishments and devices back from the database by id, and writes
the bulk permits ``CHUNK`` at a time, so that a program of 100,000 FSEs (``fogcontrol bench
generate``, whose town holds no rows) takes no more memory than one of 10,000 (issue 16).
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.permits import services
from fogcontrol.permits.models import FeeKind, Permit, PermitStatus, PermitVersion
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.permits.services.device_conditions import device_findings
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.registry import services as registry_services
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules.devices import default_frequency
from fogcontrol.rules.permit_term import permit_term

# A4: the demo's condition on an interceptor below the chapter's construction minimums.
A4_CONDITION = (
    "Bring the interceptor up to A4: at least the required number of compartments and an access manhole "
    "of the required diameter over each chamber, as approved by the Building Official."
)
A4_COMPLIANCE_DAYS = 180
# The bulk permits drawn, written and let go together.
CHUNK = 5_000

ACTING = "seed_demo"
DEMO_FEES = {
    FeeKind.NEW_PERMIT: Decimal("350.00"),
    FeeKind.RENEWAL: Decimal("200.00"),
    FeeKind.REISSUE: Decimal("300.00"),
    FeeKind.PLAN_REVIEW: Decimal("450.00"),
    # D6 Specialty FOG Compliance Charge rates (per hour, sample, test): illustrative.
    FeeKind.FOLLOW_UP_INSPECTION: Decimal("95.00"),
    FeeKind.SAMPLING: Decimal("60.00"),
    FeeKind.LAB_ANALYSIS: Decimal("42.50"),
    FeeKind.STAFF_TIME: Decimal("75.00"),
}
FIXTURES = [
    {"kind": "sink_three_compartment", "count": 1, "compartments": 3, "compartment_length_in": Decimal("24"),
     "compartment_width_in": Decimal("24"), "compartment_depth_in": Decimal("14"), "drains_to_device": True},
    {"kind": "sink_one_compartment", "count": 1, "compartments": 1, "compartment_length_in": Decimal("18"),
     "compartment_width_in": Decimal("18"), "compartment_depth_in": Decimal("12"), "drains_to_device": True},
    {"kind": "floor_drain", "count": 3, "drains_to_device": True},
    {"kind": "mop_sink", "count": 1, "compartments": 1, "compartment_length_in": Decimal("20"),
     "compartment_width_in": Decimal("20"), "compartment_depth_in": Decimal("10"), "drains_to_device": True},
    {"kind": "hand_sink", "count": 2, "drains_to_device": False},
    {"kind": "fryer", "count": 2, "drains_to_device": False},
]  # fmt: skip


def _answers(fse, rng: random.Random) -> dict:
    """B3 answers for a demo FSE, from what the registry knows of it."""
    meals = fse.meals_per_day or rng.randrange(80, 600)
    return {
        "applicant_name": fse.business_name,
        "applicant_address": fse.site_address,
        "wastewater_volume_gpd": meals * 3,
        "wastewater_type": "Dishwashing, food preparation and floor cleaning",
        "food_preparation_hours": fse.food_preparation_hours or "07:00-15:00",
        "cleaning_hours": fse.cleaning_hours or "21:00-22:00",
        "food_preparation_description": "Prepared to order; fried and grilled items; soups and sauces",
        "food_types": fse.food_types or "Mixed",
        "meals_per_day": meals,
        "clean_up_procedures": "Dry wipe and scrape to the bin; three-compartment sink; mop to the mop sink",
        "dining_capacity": fse.dining_capacity if fse.dining_capacity is not None else rng.randrange(0, 120),
        "employees": fse.employees or rng.randrange(4, 30),
        "kitchen_size_sqft": fse.kitchen_size_sqft or rng.randrange(250, 1500),
    }


def _device_ids_by_fse() -> dict[int, int]:
    """Each FSE's active device id (the last linked, when it has several), in one query.

    Not ``establishments__in=[...]``: with thousands of ids, SQLite's plan for that join with
    DISTINCT grew with the square of the town (7 s at 3,000 FSEs; issue 19). The links of the
    town's active devices are read whole, in link order, as ids (not rows: issue 16)."""
    links = (
        GreaseControlDevice.establishments.through.objects.filter(
            greasecontroldevice__status=GreaseControlDevice.Status.ACTIVE
        )
        .order_by("pk")
        .values_list("foodserviceestablishment_id", "greasecontroldevice_id")
    )
    return dict(links.iterator(chunk_size=CHUNK))


def _rows(model, ids) -> dict:
    """The rows of ``model`` with these ids, by id."""
    return model.objects.in_bulk(list(ids))


def _through_services(fse, device, *, rng, town, today) -> None:
    """The demo FSE user's permit, issued through every step."""
    manager, fse_user = town.users["manager"], town.users["fse"]
    answers = _answers(fse, rng) | {"device": device, "device_kind": device.kind}
    application = services.application_create(
        acting_user=fse_user, establishment=fse, fixtures=FIXTURES, **answers
    )
    application = services.application_submit(application=application, acting_user=fse_user)
    issued_on = today - dt.timedelta(days=200)
    for fee in application.fees.all():  # B3: paid with the application
        services.fee_record_payment(
            charge=fee, acting_user=manager, amount=fee.amount, paid_on=issued_on - dt.timedelta(days=20),
            reference=f"DEMO-{fee.pk:05d}",
        )  # fmt: skip
    application = services.application_start_review(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    if fse.licence_expires_on is None or fse.licence_expires_on < today + dt.timedelta(days=30):
        # B6: the demo's own permit runs with a licence renewed this year.
        registry_services.establishment_update(
            establishment=fse, acting_user=manager, licence_expires_on=today + dt.timedelta(days=200)
        )
    # The B7 change of its device's frequency is the servicing demo's (the frequency is the device's).
    # A4 / A5: a device the sizing check finds undersized is approved on a condition, as a manager
    # would issue it (at 100,000 FSEs, seed 1, the demo FSE's interceptor is one; issue 16).
    findings = device_findings(
        application, kind=application.device_kind or device.kind,
        gallons=application.device_capacity_gallons or device.capacity_gallons,
        gpm=application.device_rated_flow_gpm or device.rated_flow_gpm, ruleset=ruleset_on(issued_on),
    )  # fmt: skip
    condition = (
        {
            "device_condition": A4_CONDITION,
            "device_compliance_date": issued_on + dt.timedelta(days=A4_COMPLIANCE_DAYS),
        }
        if findings
        else {}
    )
    services.permit_issue(application=application, acting_user=manager, issued_on=issued_on, **condition)


def _bulk_permits(rows, *, today) -> None:
    """Permits and their first version for many FSEs at once, each with one audit entry."""
    contacts = town_contacts()
    calendar = town_calendar()
    # The demo has one ruleset version, in force all year: read it once, not once a permit.
    ruleset = ruleset_on(today)
    permits, versions = [], []
    for fse, device, issued_on, expired in rows:
        # B6: the term ends with the licence (never later than the B6 term); a lapsed licence lapses it.
        valid_until = permit_term(
            issued_on, licence_number=fse.licence_number,
            licence_expires_on=fse.licence_expires_on or issued_on, ruleset=ruleset, calendar=calendar,
        ).valid_until  # fmt: skip
        expired = expired or valid_until < today
        frequency = device.assigned_frequency_days or default_frequency(device.kind, ruleset)
        if frequency not in ruleset.allowed_frequencies_days:
            frequency = default_frequency(device.kind, ruleset)
        permit = Permit(
            establishment=fse,
            device=device,
            status=PermitStatus.EXPIRED if expired else PermitStatus.ISSUED,
            first_issued_on=issued_on,
            term_start=issued_on,
            valid_until=valid_until,
            device_kind=device.kind,
            device_capacity_gallons=device.capacity_gallons,
            device_rated_flow_gpm=device.rated_flow_gpm,
            service_frequency_days=frequency,
        )
        permit.clean_fields(exclude=["establishment", "device", "superseded_by"])
        permits.append(permit)
    created = Permit.objects.bulk_create(permits, batch_size=500)
    for permit in created:
        permit.number = f"FOG-{permit.first_issued_on:%Y}-{permit.pk:05d}"
    Permit.objects.bulk_update(created, ["number"], batch_size=500)
    issued_at = timezone.now()
    for permit in created:
        fse, device = permit.establishment, permit.device
        versions.append(
            PermitVersion(
                permit=permit, number=1, reason=PermitVersion.Reason.ISSUED, effective_from=permit.term_start,
                term_start=permit.term_start, valid_until=permit.valid_until, business_name=fse.business_name,
                licence_number=fse.licence_number, site_address=fse.site_address, device_identifier=device.identifier,
                device_kind=permit.device_kind, device_capacity_gallons=permit.device_capacity_gallons,
                device_rated_flow_gpm=permit.device_rated_flow_gpm, service_frequency_days=permit.service_frequency_days,
                contacts=contacts, issued_at=issued_at, issued_by_label=ACTING,
                licence_expires_on=fse.licence_expires_on, device_findings=list(device.a4_flags or []),
                device_condition=A4_CONDITION if device.a4_flags else "",
                device_compliance_date=permit.term_start + dt.timedelta(days=A4_COMPLIANCE_DAYS) if device.a4_flags else None,
            )
        )  # fmt: skip
    PermitVersion.objects.bulk_create(versions, batch_size=500)
    audit_records_bulk(
        acting_user=ACTING,
        action="permit.issue",
        changes=[(permit, None, snapshot(permit)) for permit in created],
        note="Demo data",
    )


def _in_review(fse, device, stage: str, *, rng, town) -> None:
    """An application at a stage of the B5 review."""
    manager, inspector = town.users["manager"], town.users["inspector"]
    answers = _answers(fse, rng) | {"device": device, "device_kind": device.kind}
    application = services.application_create(
        acting_user=ACTING, establishment=fse, fixtures=FIXTURES, **answers
    )
    if stage == "draft":
        return
    application = services.application_submit(application=application, acting_user=ACTING)
    if stage == "submitted":
        return
    application = services.application_start_review(application=application, acting_user=manager)
    if stage == "information_requested":
        services.application_request_information(
            application=application, acting_user=manager,
            message="Please send the last two pump-out manifests for the interceptor and a kitchen floor plan.",
        )  # fmt: skip
        return
    if stage == "under_review":
        return
    application = services.application_accept(application=application, acting_user=manager)
    if stage == "inspection_scheduled":
        when = timezone.now() + dt.timedelta(days=rng.randrange(3, 12))
        services.application_schedule_inspection(
            application=application,
            acting_user=inspector,
            scheduled_for=when.replace(hour=17, minute=0, second=0),
        )


STAGES = ("submitted", "under_review", "information_requested", "accepted", "inspection_scheduled", "draft")


@transaction.atomic
def seed(*, rng: random.Random, town, today: dt.date) -> None:
    services.fee_schedule_create(
        acting_user=ACTING,
        effective_from=dt.date(2023, 3, 30),
        label="Demo fee schedule (illustrative amounts)",
        resolution="Demo only: enter the Council's fee resolution",
        amounts=DEMO_FEES,
    )
    active = FoodServiceEstablishment.objects.filter(status=FoodServiceEstablishment.Status.ACTIVE)
    device_of = _device_ids_by_fse()
    own = town.fse_establishment
    own_id = own.pk if own is not None else None
    # In the order of the town (ids follow the draw), as ids: the draws below are the same for a
    # list of ids as for a list of rows, and the rows are read a chunk at a time.
    with_device = [
        pk
        for pk in active.order_by("pk").values_list("pk", flat=True).iterator(chunk_size=CHUNK)
        if pk in device_of and pk != own_id
    ]
    rng.shuffle(with_device)
    in_review = with_device[: len(STAGES)]
    # The next two are left with no permit and no application: they show as non-compliant (B1).
    rest = with_device[len(STAGES) + 2 :]
    for start in range(0, len(rest), CHUNK):
        ids = rest[start : start + CHUNK]
        fses = _rows(FoodServiceEstablishment, ids)
        devices = _rows(GreaseControlDevice, {device_of[pk] for pk in ids})
        bulk = []
        for pk in ids:
            fse, device = fses[pk], devices[device_of[pk]]
            roll = rng.random()
            if roll < 0.08:
                # Expired: issued 13 to 20 months ago and not renewed (B6).
                bulk.append((fse, device, today - dt.timedelta(days=rng.randrange(395, 600)), True))
            else:
                bulk.append((fse, device, today - dt.timedelta(days=rng.randrange(1, 360)), False))
        _bulk_permits(bulk, today=today)
    # The few rows the services take next (the demo FSE's own is the town's, kept up to date).
    named = [*in_review, *rest[:1], *([own_id] if own_id in device_of else [])]
    fses = _rows(FoodServiceEstablishment, named)
    devices = _rows(GreaseControlDevice, {device_of[pk] for pk in named})
    if own is not None and own_id in device_of:
        _through_services(own, devices[device_of[own_id]], rng=rng, town=town, today=today)
    for pk, stage in zip(in_review, STAGES, strict=False):
        _in_review(fses[pk], devices[device_of[pk]], stage, rng=rng, town=town)
    if rest:
        services.remodel_notice_file(
            acting_user=ACTING,
            establishment=fses[rest[0]],
            kind="remodel",
            description="Replace the cook line; add a second fryer and a wok range.",
            planned_start=today + dt.timedelta(days=45),
            filed_on=today - dt.timedelta(days=2),
        )
