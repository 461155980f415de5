"""Benchmark: a list's CSV and XLSX export of 100,000 rows, with the peak memory it takes.

    .venv/bin/python bench/export_memory.py [--sizes 10000 100000]

Loads N establishments (each on its own parcel, one in ten with a name that starts like a
spreadsheet formula) straight into a throwaway SQLite database (or DATABASE_URL: use a scratch
database), then exports `/registry/establishments/` as the FOG Manager through Django's test
client, reading the response as a browser would (the CSV streamed line by line, the XLSX from its
temporary file) without keeping it. Peak memory is Python's allocations during the request, measured
with tracemalloc; it should stay flat as N grows (rows are read `CHUNK_SIZE` at a time, the CSV is
sent as it is written, the XLSX is written to disk by openpyxl's write-only mode).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

URL = "/registry/establishments/"
BATCH = 5000


def _load(size: int) -> None:
    from fogcontrol.registry.models import FoodServiceEstablishment, Parcel

    for start in range(0, size, BATCH):
        numbers = range(start, min(start + BATCH, size))
        parcels = Parcel.objects.bulk_create(
            Parcel(apn=f"900-{n:06d}", situs_address=f"{n} Bench Street", city="Los Robles") for n in numbers
        )
        FoodServiceEstablishment.objects.bulk_create(
            FoodServiceEstablishment(
                business_name=(f'=HYPERLINK("x") Diner {n}' if n % 10 == 0 else f"Bench Diner {n}"),
                licence_number=f"BL-{n:07d}",
                site_address=parcel.situs_address,
                parcel=parcel,
            )
            for n, parcel in zip(numbers, parcels, strict=True)
        )


def _measure(client, fmt: str) -> tuple[float, float, int]:
    """(seconds, peak MiB, bytes sent) of one export, its body read and dropped chunk by chunk."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    started = time.perf_counter()
    response = client.get(URL, {"format": fmt})
    sent = 0
    for chunk in response.streaming_content:
        sent += len(chunk)
    response.close()
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert response.status_code == 200, response.status_code
    return seconds, peak / 2**20, sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="Also print BENCH-ROW lines (bench/rows.py).")
    args = parser.parse_args()
    if args.one is None:
        print(f"{'rows':>8}  {'format':<6} {'seconds':>8} {'peak MiB':>9} {'file MiB':>9}")
        for size in args.sizes:
            subprocess.run(
                [sys.executable, __file__, "--one", str(size)] + ["--json"] * args.json, check=True
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
    from django.test import Client
    from django.test.utils import setup_test_environment

    from fogcontrol.accounts.models import User
    from fogcontrol.core.roles import Role
    from fogcontrol.testing.auth import force_login_verified

    settings.DEBUG = False  # Django keeps every query's SQL under DEBUG: not what production does
    setup_test_environment()
    call_command("migrate", verbosity=0)
    _load(args.one)
    manager = User.objects.create_user(username="bench-manager", password=None, role=Role.FOG_MANAGER)
    client = Client()
    force_login_verified(client, manager)  # staff sign in with a second factor: as done, here
    # Warm up: the first request imports and caches what every request then shares.
    client.get(URL)
    for fmt in ("csv", "xlsx"):
        _measure_empty = client.get(URL, {"format": fmt, "q": "none-such"})
        b"".join(_measure_empty.streaming_content)
    for fmt in ("csv", "xlsx"):
        seconds, peak, sent = _measure(client, fmt)
        print(f"{args.one:>8,}  {fmt:<6} {seconds:>8.1f} {peak:>9.1f} {sent / 2**20:>9.1f}", flush=True)
        if args.json:
            from bench.rows import emit

            emit(f"export {fmt}, peak Python memory", args.one, peak, "MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
