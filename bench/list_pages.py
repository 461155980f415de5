"""Benchmark: the lists staff open most, at 1k, 10k and 100k establishments (time per request, queries).

    .venv/bin/python bench/list_pages.py [--sizes 1000 10000 100000] [--repeat 20] [--profile 30]

Loads a town of N establishments straight into a throwaway SQLite database (or DATABASE_URL: use a
scratch database; FOGCONTROL_DATA_DIR names a folder to keep it in, and a later run reuses the town
it finds there, so that one load serves the runs before and after a change) in bulk, the way bench/export_memory.py does: each FSE on its own parcel, a
device for nine in ten (one in twenty of them shared with the next FSE), a permit for each device,
a device service state, and ``--manifests`` manifests a device appended to the chain a chunk at a
time (``record_append_chunk``: the copy-of-record triggers kept). Then it requests each list page
and API list as the FOG Manager through Django's test client and prints the median and 95th
percentile wall time, the median CPU time (``time.process_time``) and the query count, with the
login page (a trivial page of the same stack) as the floor. The query count must not grow with the
town, and the time should not either (issue 16: medians within 1.5x of each other).
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FLOOR = "/login/"  # signed out: the sign-in form
PATHS = [
    FLOOR,
    "/",
    "/registry/establishments/",
    "/registry/establishments/?page=3",
    "/registry/establishments/?q=diner 12",
    "/registry/devices/",
    "/registry/devices/?shared=1",
    "/servicing/manifests/",
    "/permits/list/",
    "/api/v1/establishments/",
    "/api/v1/devices/",
    "/api/v1/manifests/",
    "/api/v1/permits/",
]
BATCH = 5000
MANIFEST_CHUNK = 20_000
HAULERS = 20


def _load(size: int, manifests_per_device: int) -> dict[str, int]:
    from django.db import transaction

    from fogcontrol.core.record_chunk import record_append_chunk
    from fogcontrol.core.records import canonical_submission
    from fogcontrol.permits.models import Permit
    from fogcontrol.registry.models import (
        FoodServiceEstablishment,
        GreaseControlDevice,
        HaulerCompany,
        HaulerVehicle,
        Parcel,
    )
    from fogcontrol.rules import devices as device_rules
    from fogcontrol.servicing import certification
    from fogcontrol.servicing.models import DeviceServiceState, Manifest

    today = dt.date(2026, 11, 30)
    haulers = HaulerCompany.objects.bulk_create(
        HaulerCompany(name=f"Bench Hauler {h}") for h in range(HAULERS)
    )
    vehicles = HaulerVehicle.objects.bulk_create(
        HaulerVehicle(hauler=hauler, plate=f"BH{h:03d}", tank_capacity_gallons=3000)
        for h, hauler in enumerate(haulers)
    )
    text = certification.certification_text(certification.CURRENT_VERSION)
    submission = canonical_submission({"generated": "bench.list_pages"})
    statuses = device_rules.DEVICE_STATUSES
    counts = {"establishments": 0, "devices": 0, "permits": 0, "manifests": 0}
    Through = GreaseControlDevice.establishments.through
    for start in range(0, size, BATCH):
        numbers = range(start, min(start + BATCH, size))
        with transaction.atomic():
            parcels = Parcel.objects.bulk_create(
                Parcel(apn=f"900-{n:06d}", situs_address=f"{n} Bench Street", city="Los Robles")
                for n in numbers
            )
            fses = FoodServiceEstablishment.objects.bulk_create(
                FoodServiceEstablishment(
                    business_name=f"Bench Diner {n}",
                    licence_number=f"BL-{n:07d}",
                    site_address=parcel.situs_address,
                    parcel=parcel,
                    status="closed" if n % 25 == 0 else "active",
                )
                for n, parcel in zip(numbers, parcels, strict=True)
            )
            served = [(n, fse) for n, fse in zip(numbers, fses, strict=True) if n % 10 != 9]
            devices = GreaseControlDevice.objects.bulk_create(
                GreaseControlDevice(
                    identifier=f"GI-{n:07d}",
                    kind=GreaseControlDevice.Kind.GRAVITY_INTERCEPTOR,
                    capacity_gallons=1000,
                    total_design_depth_in=Decimal("48"),
                    parcel_id=fse.parcel_id,
                    installed_on=dt.date(2015, 1, 1),
                )
                for n, fse in served
            )
            links = [
                Through(greasecontroldevice=d, foodserviceestablishment=f)
                for d, (_, f) in zip(devices, served, strict=True)
            ]
            by_number = dict(zip(numbers, fses, strict=True))
            links += [
                Through(greasecontroldevice=d, foodserviceestablishment=by_number[n + 1])
                for d, (n, _) in zip(devices, served, strict=True)
                if n % 20 == 0 and n + 1 in by_number
            ]
            Through.objects.bulk_create(links)
            Permit.objects.bulk_create(
                Permit(
                    number=f"FOG-{n:07d}",
                    establishment=fse,
                    device=device,
                    first_issued_on=today - dt.timedelta(days=n % 1500),
                    term_start=today - dt.timedelta(days=n % 365),
                    valid_until=today + dt.timedelta(days=365 - n % 365),
                    device_kind=device.kind,
                    device_capacity_gallons=1000,
                    service_frequency_days=90,
                )
                for device, (n, fse) in zip(devices, served, strict=True)
            )
            DeviceServiceState.objects.bulk_create(
                DeviceServiceState(
                    device=device,
                    status=statuses[n % len(statuses)],
                    status_on=today,
                    last_service_on=today - dt.timedelta(days=n % 90),
                    next_due=today + dt.timedelta(days=90 - n % 120),
                    frequency_days=90,
                )
                for device, (n, _) in zip(devices, served, strict=True)
            )
            manifests = []
            for visit in range(manifests_per_device):
                for device, (n, fse) in zip(devices, served, strict=True):
                    day = today - dt.timedelta(days=(n % 90) + 90 * (manifests_per_device - 1 - visit))
                    hauler = haulers[n % HAULERS]
                    manifests.append(
                        Manifest(
                            channel=Manifest.Channel.API,
                            submission=submission,
                            device=device,
                            establishment=fse,
                            site_address=fse.site_address,
                            hauler=hauler,
                            hauler_name=hauler.name,
                            driver_name="Bench Driver",
                            vehicle=vehicles[n % HAULERS],
                            vehicle_plate=vehicles[n % HAULERS].plate,
                            manifest_number=f"M-{n:07d}-{visit}",
                            serviced_at=dt.datetime.combine(day, dt.time(9 + n % 8), dt.UTC),
                            service_date=day,
                            full_pumpout=True,
                            baffles_cleaned=True,
                            fog_depth_in=Decimal("4.00"),
                            solids_depth_in=Decimal("2.00"),
                            fill_ratio=Decimal("0.1250"),
                            gallons_removed=Decimal("950"),
                            delivered_on=day,
                            certified_by_name="Bench Driver",
                            certification_version=certification.CURRENT_VERSION,
                            certification_text=text,
                        )
                    )
            # A chunk a statement is one jsonb argument on PostgreSQL, which may not pass 256 MB:
            # 150,000 manifests (5,000 FSEs at 33 a device) did.
            for first in range(0, len(manifests), MANIFEST_CHUNK):
                record_append_chunk(manifests[first : first + MANIFEST_CHUNK], acting_user="bench.list_pages")
        counts["establishments"] += len(fses)
        counts["devices"] += len(devices)
        counts["permits"] += len(devices)
        counts["manifests"] += len(manifests)
    return counts


def _profile(client, path: str, top: int) -> None:
    """Ten more requests of ``path`` under cProfile: the functions with the most own time (stderr)."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(10):
        client.get(path)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    print(f"# profile of 10 x {path}\n{out.getvalue()}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--manifests", type=int, default=2, help="manifests a device (default 2)")
    parser.add_argument("--slowest", action="store_true", help="print each page's slowest query")
    parser.add_argument(
        "--profile", type=int, metavar="N", help="cProfile each page: its N costliest functions (own time)"
    )
    parser.add_argument("--paths", nargs="+", help="only these pages (the floor is always measured)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="Also print BENCH-ROW lines (bench/rows.py).")
    args = parser.parse_args()
    if args.one is None:
        # Each size in its own process and database: copies of record refuse a flush, by design.
        print(
            f"{'establishments':>14}  {'page':<40} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms':>8} "
            f"{'x floor':>8} {'queries':>8}"
        )
        for size in args.sizes:
            subprocess.run(
                [sys.executable, __file__, "--one", str(size), "--repeat", str(args.repeat)]
                + ["--manifests", str(args.manifests)]
                + (["--slowest"] if args.slowest else [])
                + (["--profile", str(args.profile)] if args.profile else [])
                + (["--paths", *args.paths] if args.paths else [])
                + (["--json"] if args.json else []),
                check=True,
            )
        return 0

    scratch = tempfile.mkdtemp(prefix="fogcontrol-bench-")
    os.environ.setdefault("FOGCONTROL_DATA_DIR", scratch)
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from fogcontrol.accounts.models import User
    from fogcontrol.core.roles import Role
    from fogcontrol.testing.auth import force_login_verified

    settings.DEBUG = False
    setup_test_environment()
    call_command("migrate", verbosity=0)
    from fogcontrol.registry.models import FoodServiceEstablishment

    started = time.perf_counter()
    if FoodServiceEstablishment.objects.exists():
        # FOGCONTROL_DATA_DIR named a town loaded by an earlier run (before and after a change).
        counts = {"establishments": FoodServiceEstablishment.objects.count(), "reused": True}
    else:
        counts = _load(args.one, args.manifests)
    loaded = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE" if connection.vendor == "sqlite" else "ANALYZE")
    print(
        f"# {args.one:,}: loaded {counts} in {loaded:.0f} s ({connection.vendor})",
        file=sys.stderr,
        flush=True,
    )
    logging.getLogger("axes").setLevel(logging.WARNING)
    manager, _ = User.objects.get_or_create(username="bench-manager", defaults={"role": Role.FOG_MANAGER})
    staff, anonymous = Client(), Client()
    force_login_verified(staff, manager)
    floor = None
    paths = [FLOOR, *(path for path in args.paths if path != FLOOR)] if args.paths else PATHS
    for path in paths:
        client = anonymous if path == FLOOR else staff
        client.get(path)  # warm caches (templates, content types)
        walls, cpus = [], []
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(path)
            cpus.append((time.process_time() - cpu) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
            assert response.status_code == 200, (path, response.status_code)
        median = statistics.median(walls)
        p95 = statistics.quantiles(walls, n=20)[-1] if len(walls) > 1 else median
        floor = floor or median
        print(
            f"{args.one:>14,}  {path:<40} {median:>8.1f} {p95:>8.1f} {statistics.median(cpus):>8.1f} "
            f"{median / floor:>8.1f} {len(queries):>8}",
            flush=True,
        )
        if args.json and path != FLOOR:
            from bench.rows import emit

            emit(f"GET {path} (median)", args.one, median, "ms", floor)
        if args.profile:
            _profile(client, path, args.profile)
        if args.slowest:
            slowest = max(queries.captured_queries, key=lambda query: float(query["time"]))
            print(f"#   {float(slowest['time']) * 1000:.1f} ms: {slowest['sql'][:400]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
