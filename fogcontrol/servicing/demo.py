"""Demo servicing history: a year or two of manifests for most demo devices, so the demo looks lived-in.

Called by ``fogcontrol.demo`` (``seed(*, rng, town, today)``). Every manifest and reading is checked
and judged as ``manifest_submit`` and ``reading_record`` would at that point of the history, so
states, flags and requirements are what the real rules make of them, then all are written in bulk
(``fogcontrol.servicing.services.history``: the manifests on the keyed chain, one audit entry
each). The mix: most devices serviced on time; about one in eight
overdue (the last pump-out long ago); a few accumulating fast enough to go over 25% (E6) and one
trap that needs an interceptor (E8); a few honest mistakes for staff to review (low volume,
baffles not cleaned, one truck at two sites at once); some inspections and self-monitoring readings;
and, on the demo FSE user's device, a B7 change of frequency noticed by certified mail three days ago
and awaiting its effective date.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db.models import prefetch_related_objects

from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.devices import default_frequency
from fogcontrol.servicing import certification
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import Manifest, SludgeReading
from fogcontrol.servicing.services import ManifestSubmission, frequency_change
from fogcontrol.servicing.services.history import ServiceHistoryBatch

ACTING = "seed_demo"
DRIVERS = (
    "Dana Ruiz",
    "Luis Ortega",
    "Kim Tran",
    "Sam Okafor",
    "Priya Nair",
    "Jo Whitfield",
    "Marco Bianchi",
)


# A truck's working day: ten stops, 06:00 to about 17:45. Never past it, so yesterday's last stop is
# not in the future (which a 20,000-establishment town reached with 30 stops a truck a day).
STOPS_A_DAY = 10


def stop_times(day: dt.date, start_minute: int, stop_index: int, zone) -> tuple[dt.datetime, dt.date]:
    """When a truck's stop of `day` is serviced, and the day its load is delivered.

    Stops are 75 minutes apart from 06:00; a busy truck's late stops pass midnight, and its load
    is then delivered on the day it was pumped, never before it (issue 19)."""
    start = dt.datetime.combine(day, dt.time(6, start_minute), tzinfo=zone)
    at = start + dt.timedelta(minutes=75 * stop_index)
    return at, at.astimezone(zone).date()


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    ctx = ProgramContext(today=today)
    ruleset = ctx.ruleset(today)
    zone = ZoneInfo(town.profile.time_zone)
    vehicles = defaultdict(list)
    for vehicle in town.vehicles:
        vehicles[vehicle.hauler_id].append(vehicle)
    numbers: dict[int, int] = defaultdict(lambda: rng.randint(10_000, 80_000))
    batch = ServiceHistoryBatch(acting_user=ACTING, ctx=ctx)
    conflict_done = False
    stops: dict = defaultdict(int)
    devices = [
        d for d in town.devices if d.status == GreaseControlDevice.Status.ACTIVE and d.total_design_depth_in
    ]
    # Who each device serves and their haulers, read in three queries rather than two per device.
    prefetch_related_objects(town.devices, "establishments__haulers")
    for device in devices:
        if rng.random() < 0.1:
            continue  # never serviced on record: a new device, or a hauler that never reports
        served = list(device.establishments.all())
        haulers = [h for fse in served for h in fse.haulers.all()] or town.haulers
        hauler = rng.choice(haulers)
        frequency = device.assigned_frequency_days or default_frequency(device.kind, ruleset)
        depth = device.total_design_depth_in
        # Accumulation rate: most devices fill to 8-22% in one frequency; a few run over 25%.
        target = (
            Decimal(str(rng.uniform(0.06, 0.16)))
            if rng.random() > 0.08
            else Decimal(str(rng.uniform(0.27, 0.4)))
        )
        rate = target * depth / frequency
        overdue = rng.random() < 0.12
        day = today - dt.timedelta(days=rng.randint(420, 730))
        if device.installed_on and day <= device.installed_on:
            day = device.installed_on + dt.timedelta(days=rng.randint(1, 30))
        last_pumpout = None
        stop = (
            today - dt.timedelta(days=frequency + rng.randint(20, 90))
            if overdue
            else today - dt.timedelta(days=1)
        )
        while day <= stop:
            days_since = (day - last_pumpout).days if last_pumpout else frequency
            fill = min(rate * days_since, depth * Decimal("0.9"))
            fog = (fill * Decimal("0.6")).quantize(Decimal("0.01"))
            solids = (fill - fog).quantize(Decimal("0.01"))
            capacity = Decimal(device.capacity_gallons or 100)
            gallons = (capacity * Decimal(str(rng.uniform(0.85, 1.05)))).quantize(Decimal("1"))
            full = rng.random() > 0.04
            baffles = rng.random() > 0.03
            if rng.random() < 0.02:
                gallons = (capacity * Decimal("0.3")).quantize(Decimal("1"))
            fleet = vehicles.get(hauler.pk) or [None]
            vehicle = rng.choice(fleet)
            if vehicle is not None and stops[(vehicle.pk, day)] >= STOPS_A_DAY:
                # A large town fills the registered trucks' day: the hauler's other visits that day
                # are by trucks not on its list (no plate), in the same working hours (issue 19).
                vehicle = None
            if vehicle is not None and vehicle.tank_capacity_gallons:
                gallons = min(gallons, Decimal(vehicle.tank_capacity_gallons))
            # A truck's stops that day are 75 minutes apart, so only the planted conflict looks impossible.
            truck = (vehicle.pk, day) if vehicle else ("unlisted", hauler.pk, day)
            stop_index = stops[truck] % STOPS_A_DAY
            stops[truck] += 1
            at, delivered_on = stop_times(day, rng.choice((0, 15, 30)), stop_index, zone)
            numbers[hauler.pk] += 1
            submission = ManifestSubmission(
                device=device,
                manifest_number=f"{hauler.name[:3].upper()}-{numbers[hauler.pk]}",
                serviced_at=at,
                full_pumpout=full,
                baffles_cleaned=baffles if full else False,
                certified_by_name=rng.choice(DRIVERS),
                certification_version=certification.CURRENT_VERSION,
                hauler=hauler,
                driver_name=rng.choice(DRIVERS),
                vehicle_plate=vehicle.plate if vehicle else "",
                fog_depth_in=fog,
                solids_depth_in=solids,
                gallons_removed=gallons,
                receiving_facility=rng.choice(town.facilities)
                if town.facilities and rng.random() > 0.02
                else None,
                delivered_on=delivered_on,
                condition_notes=rng.choice(
                    [
                        "",
                        "",
                        "",
                        "Outlet tee cracked.",
                        "Heavy solids layer.",
                        "Odour complaint from neighbour.",
                    ]
                ),
            )
            channel = rng.choice([Manifest.Channel.PORTAL, Manifest.Channel.CSV, Manifest.Channel.API])
            batch.manifest(submission, channel=channel, raw={"demo": True})
            if full:
                last_pumpout = day
            if not conflict_done and vehicle is not None and day < today - dt.timedelta(days=30):
                conflict_done = _vehicle_conflict(rng, town, device, hauler, vehicle, at, numbers, batch)
            # Most haulers come a little early; now and then a visit slips past the due date.
            day += dt.timedelta(
                days=frequency - rng.randint(2, 12) if rng.random() > 0.06 else frequency + rng.randint(3, 15)
            )
        if rng.random() < 0.15 and last_pumpout is not None:
            _reading(rng, device, last_pumpout, rate, today, batch)
    batch.write()
    _pending_frequency_change(town=town, today=today, ctx=ctx)


def _vehicle_conflict(rng, town, device, hauler, vehicle, at, numbers, batch) -> bool:
    """The same truck on a ticket at another customer 15 minutes later: a flag for staff (F7)."""
    others = [
        d
        for d in town.devices
        if d.pk != device.pk
        and d.total_design_depth_in
        and any(hauler in fse.haulers.all() for fse in d.establishments.all())
    ]
    if not others:
        return False
    other = rng.choice(others[:20])
    numbers[hauler.pk] += 1
    batch.manifest(
        ManifestSubmission(
            device=other,
            manifest_number=f"{hauler.name[:3].upper()}-{numbers[hauler.pk]}",
            serviced_at=at + dt.timedelta(minutes=15),
            full_pumpout=False,
            baffles_cleaned=False,
            certified_by_name=DRIVERS[0],
            certification_version=certification.CURRENT_VERSION,
            hauler=hauler,
            vehicle_plate=vehicle.plate,
            gallons_removed=Decimal(200),
        ),
        channel=Manifest.Channel.PORTAL,
        raw={"demo": True},
    )
    return True


def _reading(rng, device, last_pumpout, rate, today, batch) -> None:
    """An inspection or self-monitoring reading since the last pump-out (D4, F3)."""
    taken = min(last_pumpout + dt.timedelta(days=rng.randint(15, 60)), today - dt.timedelta(days=1))
    if taken <= last_pumpout:
        return
    fill = min(rate * (taken - last_pumpout).days, device.total_design_depth_in * Decimal("0.9"))
    fog = (fill * Decimal("0.55")).quantize(Decimal("0.01"))
    batch.reading(
        device=device,
        taken_on=taken,
        fog_depth_in=fog,
        solids_depth_in=(fill - fog).quantize(Decimal("0.01")),
        source=rng.choice([SludgeReading.Source.INSPECTION, SludgeReading.Source.SELF_MONITORING]),
    )


def _pending_frequency_change(*, town, today: dt.date, ctx: ProgramContext) -> None:
    """The next shorter frequency (E1) for the demo FSE user's device, as after pump-outs found it near
    the 25% limit (E6): noticed three days ago by certified mail (a backdated notice carries its
    mailing record, B7), so it awaits its effective date."""
    fse = town.fse_establishment
    device = fse.devices.filter(status=GreaseControlDevice.Status.ACTIVE).first() if fse is not None else None
    if device is None:
        return
    ruleset = ctx.ruleset(today)
    current = device.assigned_frequency_days or default_frequency(device.kind, ruleset)
    allowed = sorted(ruleset.allowed_frequencies_days)
    shorter = [days for days in allowed if days < current]
    mailed = today - dt.timedelta(days=3)
    frequency_change(
        device=device,
        acting_user=town.users["manager"],
        to_days=shorter[-1] if shorter else next(days for days in allowed if days > current),
        reason="Pump-out records show the device near the 25% limit at its current frequency (E3, E6).",
        notice_date=mailed,
        backdating_reason="The letter went out by certified mail before the change was entered.",
        mailing_record=f"USPS Certified Mail article 9407 1118 9876 5400 1234 56, mailed {mailed:%Y-%m-%d}.",
        ctx=ctx,
    )
