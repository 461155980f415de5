"""Benchmark: the map's GeoJSON export, the map page and the annual program report, at two sizes of
town (time, CPU time, queries, features and bytes).

    .venv/bin/python bench/map_and_report.py [--sizes 300 3000] [--repeat 5]

Builds each demo town (the registry, permits and spills; servicing and inspections are left out to
keep the set-up short, so devices are "never serviced") in a throwaway SQLite database (or
DATABASE_URL: use a scratch database), then as the FOG Manager, through Django's test client:
reads the whole streamed GeoJSON, opens the map page, and computes last year's report. The query
counts must not grow with the town; the export's time grows with its features.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEEDERS = ["fogcontrol.permits.demo.seed", "fogcontrol.spills.demo.seed"]


def _timed(call, repeat: int):
    walls, cpus, result, queries = [], [], None, 0
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as captured:
            result = call()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        queries = len(captured)
    return statistics.median(walls), statistics.median(cpus), queries, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 3000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is None:
        print(
            f"{'establishments':>14}  {'what':<28} {'ms':>8} {'cpu ms':>8} {'queries':>8} {'features':>9} {'bytes':>10}"
        )
        for size in args.sizes:
            subprocess.run(
                [sys.executable, __file__, "--one", str(size), "--repeat", str(args.repeat)], check=True
            )
        return 0

    scratch = tempfile.mkdtemp(prefix="fogcontrol-bench-")
    os.environ.setdefault("FOGCONTROL_DATA_DIR", scratch)
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from fogcontrol.accounts.models import User
    from fogcontrol.demo.run import seed_demo
    from fogcontrol.program.selectors import town_today
    from fogcontrol.reports.annual import annual_report
    from fogcontrol.testing.auth import force_login_verified

    setup_test_environment()
    call_command("migrate", verbosity=0)
    seed_demo(establishments=args.one, seed=1, seeders=SEEDERS)
    manager = User.objects.get(username="manager")
    client = Client()
    force_login_verified(client, manager)

    def export():
        response = client.get("/reports/map.geojson")
        assert response.status_code == 200, response.status_code
        body = b"".join(response.streaming_content)
        return body.count(b'"type": "Feature"'), len(body)

    def page():
        response = client.get("/reports/map/")
        assert response.status_code == 200, response.status_code
        return None, len(response.content)

    def report():
        annual_report(manager, town_today().year - 1)
        return None, None

    for label, call in (
        ("GeoJSON export", export),
        ("map page", page),
        ("annual report (last year)", report),
    ):
        call()  # warm caches (templates, content types)
        wall, cpu, queries, (features, size) = _timed(call, args.repeat)
        print(
            f"{args.one:>14}  {label:<28} {wall:>8.1f} {cpu:>8.1f} {queries:>8} "
            f"{features if features is not None else '':>9} {size if size is not None else '':>10}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
