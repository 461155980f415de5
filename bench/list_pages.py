"""Benchmark: the lists staff open most, at two sizes of town (time per request, queries).

    .venv/bin/python bench/list_pages.py [--sizes 300 3000] [--repeat 20]

Builds each demo town (registry and permits; the servicing history is left out to keep the set-up
short) in a throwaway SQLite database (or DATABASE_URL: use a scratch database), then requests
each list page and API list as the FOG Manager through Django's test client and prints the
median time and the query count. The query count must not grow with the town; the time may grow
a little (counting rows for the pager).
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

PATHS = [
    "/registry/establishments/",
    "/registry/establishments/?q=taqueria",
    "/registry/devices/?shared=1",
    "/api/v1/establishments/",
    "/api/v1/devices/",
    "/permits/list/",
    "/api/v1/permits/",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 3000])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="Also print BENCH-ROW lines (bench/rows.py).")
    args = parser.parse_args()
    if args.one is None:
        # Each size in its own process and database: copies of record refuse a flush, by design.
        print(f"{'establishments':>14}  {'page':<40} {'ms':>8} {'queries':>8}")
        for size in args.sizes:
            subprocess.run(
                [sys.executable, __file__, "--one", str(size), "--repeat", str(args.repeat)]
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
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from fogcontrol.accounts.models import User
    from fogcontrol.demo.run import seed_demo
    from fogcontrol.testing.auth import force_login_verified

    setup_test_environment()
    for size in [args.one]:
        call_command("migrate", verbosity=0)
        seed_demo(establishments=size, seed=1, seeders=["fogcontrol.permits.demo.seed"])
        client = Client()
        force_login_verified(client, User.objects.get(username="manager"))  # staff sign in with 2FA
        floor = None
        # --json: first the floor, the login page signed out (a trivial view of the same stack).
        for path in (["/login/"] if args.json else []) + PATHS:
            requester = Client() if path == "/login/" else client
            requester.get(path)  # warm caches (templates, content types)
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                with CaptureQueriesContext(connection) as queries:
                    response = requester.get(path)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, (path, response.status_code)
            print(f"{size:>14}  {path:<40} {statistics.median(times):>8.1f} {len(queries):>8}")
            if args.json:
                from bench.rows import emit

                if floor is None:
                    floor = statistics.median(times)
                else:
                    emit(f"GET {path} (median)", size, statistics.median(times), "ms", floor)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
