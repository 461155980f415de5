"""A synthetic program at scale for benchmarks: `fogcontrol bench generate --establishments N`.

Deterministic (the same N and seed give the same rows, dates relative to the Town's today) and
written in bulk, so that 1,000, 10,000 and 100,000 establishments take minutes, not hours:

- the registry of the demo town (``build_demo_town``: parcels, FSEs, devices, some shared by the
  kitchens of one parcel (A2), haulers, vehicles, facilities), in bulk with one audit entry each;
- permits (the permits demo seeder: most active FSEs hold one, issued over the last year; some
  expired), in bulk with one audit entry each;
- five years of manifests for most active devices, at the frequency the ruleset gives the device
  (its assigned frequency, or the E2 default for its kind), a little early most times, late now
  and then, and stopping early for about one device in eight (overdue today).

What marks the data as generated: the Town is the demo's "Town of Los Robles", the registry and
permits are audited under "seed_demo", and every manifest's copy of record is submitted by
``GENERATED_BY`` ("bench.generate") with the submission ``{"generated": "bench.generate"}``.

The manifests are copies of record: they go on the table's keyed chain a chunk at a time with
``record_append_chunk`` (hashes computed in order; one statement a chunk, in which every trigger
still fires for every row and moves the head one row at a time), so ``fogcontrol verify_records``
passes on a generated program. The statements grow by chunks of ``CHUNK`` manifests, not by rows. They are not
judged one by one by the rules as the demo's two years are (``ServiceHistoryBatch``): no review
flags, requirements or readings, no audit entry per manifest, and no device service state. The
state is left for the nightly sweep to create (its first run on a new program, which is what
bench/sweeps.py measures).

Memory is flat in N (issue 16): the town holds none of its rows (``build_demo_town(keep=False)``
writes and lets go 5,000 establishments at a time), the permits seeder reads them back by id a
chunk at a time, and the manifests are drawn device after device from the devices read back
``DEVICES_A_READ`` at a time. Chunks change neither the order of the draws nor the rows.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import time
from array import array
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import prefetch_related_objects

from fogcontrol.core.record_chunk import record_append_chunk
from fogcontrol.core.records import canonical_submission
from fogcontrol.core.sweep import pages_by_key
from fogcontrol.demo.seeders import run_seeders, seeder_rng
from fogcontrol.demo.town import DemoTown, build_demo_town
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules.devices import default_frequency
from fogcontrol.rules.devices import fill_ratio as rules_fill_ratio
from fogcontrol.servicing import certification
from fogcontrol.servicing.demo import DRIVERS, STOPS_A_DAY, stop_times
from fogcontrol.servicing.models import Manifest

GENERATED_BY = "bench.generate"
YEARS = 5
# Manifests kept in memory and appended to the chain together (one transaction each).
CHUNK = 5_000
SEEDERS = ["fogcontrol.permits.demo.seed"]
# Devices read back at a time (with their establishments and haulers) to draw their manifests.
DEVICES_A_READ = 2_000


class GenerateRefused(Exception):
    """The generator fills an empty program only."""


@dataclasses.dataclass
class Generated:
    establishments: int
    devices: int
    manifests: int
    seconds: dict[str, float]


def generate(
    *,
    establishments: int,
    seed: int = 1,
    years: int = YEARS,
    progress: Callable[[str], None] | None = None,
) -> Generated:
    """Generate a program of ``establishments`` FSEs (module docstring). Refuses a non-empty one."""
    say = progress or (lambda message: None)
    if FoodServiceEstablishment.objects.exists():
        raise GenerateRefused("The database already holds establishments; generate into an empty one.")
    with _no_query_log():
        return _generate(establishments=establishments, seed=seed, years=years, say=say)


@contextmanager
def _no_query_log() -> Iterator[None]:
    """Under DEBUG (the default outside production) Django keeps the SQL of the last 9,000
    statements with their values (``connection.queries_log``): a chunk's INSERT is megabytes, so
    the log grew with the program to gigabytes (issue 16). Not kept while generating,
    unless something counts the statements (``CaptureQueriesContext`` forces the debug cursor)."""
    if connection.force_debug_cursor:
        yield
        return
    kept, connection.queries_log = connection.queries_log, deque(maxlen=0)
    try:
        yield
    finally:
        connection.queries_log = kept


def _generate(*, establishments: int, seed: int, years: int, say: Callable[[str], None]) -> Generated:
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    with transaction.atomic():
        town = build_demo_town(
            establishments=establishments, seed=seed, keep=False, after_chunk=_analyze_after_chunk
        )
    _analyze()
    seconds["registry"] = time.perf_counter() - started
    made = FoodServiceEstablishment.objects.count(), GreaseControlDevice.objects.count()
    say(f"registry: {made[0]} establishments, {made[1]} devices")
    started = time.perf_counter()
    with transaction.atomic():
        run_seeders(seed=seed, town=town, today=town.today, seeders=SEEDERS)
    _analyze()
    seconds["permits"] = time.perf_counter() - started
    say("permits: done")
    started = time.perf_counter()
    count = write_manifests(town, rng=seeder_rng(seed, GENERATED_BY), years=years, progress=say)
    seconds["manifests"] = time.perf_counter() - started
    return Generated(establishments=made[0], devices=made[1], manifests=count, seconds=seconds)


def write_manifests(
    town: DemoTown, *, rng: random.Random, years: int, progress: Callable[[str], None]
) -> int:
    """``years`` of manifests for the town's active devices, appended to the chain a chunk at a time."""
    pending: list[Manifest] = []
    written = chunks = 0
    for manifest in _manifests(town, rng=rng, years=years):
        pending.append(manifest)
        if len(pending) >= CHUNK:
            written += _append(pending)
            chunks += 1
            if chunks in ANALYZED_AFTER_CHUNKS:
                _analyze(Manifest._meta.db_table)
            progress(f"manifests: {written}")
            pending = []
    written += _append(pending)
    progress(f"manifests: {written}")
    return written


# PostgreSQL plans a trigger's queries once a session, on the statistics it has then. A table
# loaded from empty in one session keeps the plans of an empty table (the chain's guard scanning
# every manifest for each one appended: the 100,000 program slowed to a chunk a minute), so the
# statistics are taken after each phase and as the manifests grow, which makes those plans anew.
ANALYZED_AFTER_CHUNKS = frozenset({1, 10, 100})


def _analyze_after_chunk(chunk: int) -> None:
    """The registry's chunks too: its kept counts' triggers read the tables they fill."""
    if chunk in ANALYZED_AFTER_CHUNKS:
        _analyze()


def _analyze(table: str = "") -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}" if table else "ANALYZE")


def _append(manifests: list[Manifest]) -> int:
    with transaction.atomic():
        record_append_chunk(manifests, acting_user=GENERATED_BY)
    return len(manifests)


class _Stops:
    """Stops made by each truck on each day since ``first``: an array of days a truck, not a dict
    entry a truck-day (the 100,000 program has hundreds of trucks over five years: issue 16)."""

    def __init__(self, first: dt.date, last: dt.date):
        self.first, self.days = first, (last - first).days + 1
        self.trucks: dict = {}

    def _day(self, truck) -> tuple[array, int]:
        days = self.trucks.get(truck[:-1])
        if days is None:
            days = self.trucks[truck[:-1]] = array("I", bytes(4 * self.days))
        return days, (truck[-1] - self.first).days

    def __getitem__(self, truck) -> int:
        days, day = self._day(truck)
        return days[day]

    def add(self, truck) -> None:
        days, day = self._day(truck)
        days[day] += 1


def _devices():
    """The town's devices in the order they were drawn (their ids), ``DEVICES_A_READ`` at a time,
    each with its establishments and their haulers."""
    for devices in pages_by_key(GreaseControlDevice.objects.all(), DEVICES_A_READ):
        prefetch_related_objects(devices, "establishments__haulers")
        yield from devices


def _manifests(town: DemoTown, *, rng: random.Random, years: int):
    """Each device's visits in date order, device after device (the chain's order)."""
    today = town.today
    ruleset = ruleset_on(today)
    zone = ZoneInfo(town.profile.time_zone)
    vehicles = defaultdict(list)
    for vehicle in town.vehicles:
        vehicles[vehicle.hauler_id].append(vehicle)
    numbers: dict[int, int] = defaultdict(lambda: rng.randint(10_000, 80_000))
    text = certification.certification_text(certification.CURRENT_VERSION)
    submission = canonical_submission({"generated": GENERATED_BY})
    first_day = today - dt.timedelta(days=365 * years)
    stops = _Stops(first_day, today)
    for device in _devices():
        if device.status != GreaseControlDevice.Status.ACTIVE or not device.total_design_depth_in:
            continue
        if rng.random() < 0.1:
            continue  # never serviced on record
        served = list(device.establishments.all())
        hauler = rng.choice([h for fse in served for h in fse.haulers.all()] or town.haulers)
        fleet = vehicles.get(hauler.pk) or [None]
        frequency = device.assigned_frequency_days or default_frequency(device.kind, ruleset)
        depth = device.total_design_depth_in
        target = rng.uniform(0.06, 0.16) if rng.random() > 0.08 else rng.uniform(0.27, 0.4)
        rate = Decimal(str(round(target, 4))) * depth / frequency
        capacity = Decimal(device.capacity_gallons or 100)
        stop = today - dt.timedelta(days=frequency + rng.randint(20, 90) if rng.random() < 0.12 else 1)
        day = first_day + dt.timedelta(days=rng.randint(0, frequency))
        if device.installed_on and day <= device.installed_on:
            day = device.installed_on + dt.timedelta(days=rng.randint(1, 30))
        last_pumpout = None
        site = served[0].site_address if served else ""
        establishment = served[0] if len(served) == 1 else None
        while day <= stop:
            days_since = (day - last_pumpout).days if last_pumpout else frequency
            fill = min(rate * days_since, depth * Decimal("0.9"))
            fog = (fill * Decimal("0.6")).quantize(Decimal("0.01"))
            solids = (fill - fog).quantize(Decimal("0.01"))
            full = rng.random() > 0.04
            vehicle = rng.choice(fleet)
            if vehicle is not None and stops[(vehicle.pk, day)] >= STOPS_A_DAY:
                vehicle = None  # the registered trucks' day is full: an unlisted truck (issue 19)
            gallons = (capacity * Decimal(str(round(rng.uniform(0.85, 1.05), 3)))).quantize(Decimal("1"))
            if vehicle is not None and vehicle.tank_capacity_gallons:
                gallons = min(gallons, Decimal(vehicle.tank_capacity_gallons))
            truck = (vehicle.pk, day) if vehicle else ("unlisted", hauler.pk, day)
            at, delivered_on = stop_times(day, rng.choice((0, 15, 30)), stops[truck] % STOPS_A_DAY, zone)
            stops.add(truck)
            numbers[hauler.pk] += 1
            driver = rng.choice(DRIVERS)
            yield Manifest(
                channel=rng.choice(Manifest.Channel.values),
                submission=submission,
                device=device,
                establishment=establishment,
                site_address=site,
                hauler=hauler,
                hauler_name=hauler.name,
                driver_name=driver,
                vehicle=vehicle,
                vehicle_plate=vehicle.plate if vehicle else "",
                manifest_number=f"{hauler.name[:3].upper()}-{numbers[hauler.pk]}",
                serviced_at=at.astimezone(dt.UTC),
                service_date=day,
                full_pumpout=full,
                baffles_cleaned=full and rng.random() > 0.03,
                fog_depth_in=fog,
                solids_depth_in=solids,
                fill_ratio=rules_fill_ratio(fog, solids, depth).quantize(Decimal("0.0001")),
                gallons_removed=gallons,
                receiving_facility=rng.choice(town.facilities) if town.facilities else None,
                delivered_on=delivered_on,
                certified_by_name=driver,
                certification_version=certification.CURRENT_VERSION,
                certification_text=text,
            )
            if full:
                last_pumpout = day
            late = rng.random() < 0.06
            day += dt.timedelta(
                days=frequency + rng.randint(3, 15) if late else frequency - rng.randint(2, 12)
            )
