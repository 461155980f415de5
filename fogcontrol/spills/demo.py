"""Demo spills: three years of the Town's sewer overflows and blockages (I1), some linked to FSEs
(a FOG-caused one opens a finding), the Town's costs of two of them (I2, N1, N2), and the demo FSE's
spill notices (J1): one with its written report, sent on time (a copy of record is received now,
so its incident is recent), one whose written report is overdue (J2, found by
the nightly sweep). Through the spills services, so the categories and dates are the rules'. About
forty spills: a fraction of a second of the demo's time."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from django.utils import timezone

from fogcontrol.program.selectors import town_zone
from fogcontrol.spills import services

ACTING = "seed_demo"
CAUSES = ("grease", "grease", "grease", "roots", "roots", "debris", "rags", "pipe_failure", "capacity")
DESTINATIONS = ("street", "street", "paved", "unpaved", "storm_drain", "surface_water", "building")
STREETS = ("Elm Street", "Harbor Boulevard", "Mission Road", "Oak Avenue", "Bay View Drive", "Alameda Way")
CONTRACTORS = ("Bay Environmental Response", "Clearwater Vactor Services")


def _at(day: dt.date, hour: int):
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)), town_zone())


def _spill(rng: random.Random, day: dt.date, fse=None):
    gallons = Decimal(rng.choice([5, 20, 45, 80, 150, 400, 1200, 2500]))
    destination = rng.choice(DESTINATIONS)
    reached = Decimal(rng.choice([5, 30])) if destination == "surface_water" and gallons > 30 else Decimal(0)
    started = _at(day, rng.randint(0, 22))
    cause = rng.choice(CAUSES)
    address = fse.site_address if fse else f"{rng.randint(100, 2999)} {rng.choice(STREETS)}"
    return services.spill_record(
        acting_user=ACTING,
        kind=rng.choice(["sso", "sso", "sso", "blockage"]),
        address=address[:300],
        latitude=fse.latitude if fse else None,
        longitude=fse.longitude if fse else None,
        manhole_id=f"MH-{rng.randint(100, 999)}",
        segment_id=f"S-{rng.randint(1000, 9999)}",
        started_at=started,
        ended_at=started + dt.timedelta(hours=rng.randint(1, 6)),
        notified_at=started + dt.timedelta(minutes=rng.randint(5, 60)),
        arrived_at=started + dt.timedelta(minutes=rng.randint(30, 120)),
        volume_spilled=gallons,
        volume_recovered=(gallons * Decimal("0.6")).quantize(Decimal("0.1")),
        volume_reached_surface_water=reached,
        destination=destination,
        storm_drain_fully_recovered=rng.choice([True, False]) if destination == "storm_drain" else None,
        cause=cause,
        cause_explanation="Grease found in the lateral downstream." if cause == "grease" else "",
        cleanup_contractor=rng.choice(CONTRACTORS) if gallons >= 400 else "",
        clearance_inspected_on=day + dt.timedelta(days=1) if gallons >= 400 else None,
        links=[(fse, "Upstream of the blockage; grease in its lateral.")] if fse else [],
    )


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    """Three years of spills, a quarter linked to FSEs; costs; the demo FSE's notices."""
    active = town.active_establishments
    demo_fse = town.fse_establishment or (active[0] if active else None)
    linked = rng.sample(active, min(8, len(active)))
    spills = []
    for index in range(36):
        day = today - dt.timedelta(days=rng.randint(7, 3 * 365))
        fse = linked[index % len(linked)] if linked and index % 4 == 0 else None
        spills.append(_spill(rng, day, fse))
    if demo_fse is not None:
        spills.append(_spill(rng, today - dt.timedelta(days=60), demo_fse))
    for spill in [spill for spill in spills if spill.links.exists()][:2]:
        link = spill.links.first()
        invoiced = timezone.localtime(spill.started_at, town_zone()).date() + dt.timedelta(days=14)
        for kind, amount in (("staff", "640.00"), ("equipment", "1150.00"), ("agency_fine", "2500.00")):
            services.cost_record(
                spill=spill, kind=kind, amount=Decimal(amount), debtor="fse",
                debtor_name=link.establishment.business_name, establishment=link.establishment,
                invoiced_on=invoiced, acting_user=ACTING,
            )  # fmt: skip
    if demo_fse is not None:
        done = services.report_record(
            establishment=demo_fse, occurred_at=_at(today - dt.timedelta(days=2), 14), location="Rear yard",
            what="Grease bin tipped over by the delivery truck", gallons=Decimal("8"), caller="Night manager",
            acting_user=ACTING,
        )  # fmt: skip
        services.written_report_submit(
            report=done, incident_on=today - dt.timedelta(days=2), cause="The bin stood on the driveway.",
            steps_taken="Absorbent spread, yard drain plugged, hauler called.",
            prevention="The bin now stands behind a curb stop.", acting_user=ACTING,
        )  # fmt: skip
        services.report_record(
            establishment=demo_fse, occurred_at=_at(today - dt.timedelta(days=12), 10), location="Kitchen floor drain",
            what="Floor drain backed up during dish-up", gallons=Decimal("15"), acting_user=ACTING,
        )  # fmt: skip
    services.overdue_written_reports_sweep(today=today)
