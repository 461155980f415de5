"""The whole-table lists' total for staff: `SELECT COUNT(*)` of each table beside its kept read (issue 16).

    DATABASE_URL=postgres://…/<a loaded program> .venv/bin/python bench/kept_total.py --repeat 15

Read-only (the session is set read-only first): it runs the two statements the pager would run,
captured from Django (`Model.objects.count()`, and the kept total the dashboard registers for each
model, core/kept_totals.py; PostgreSQL), `--repeat` times each, and prints the median and the slowest server time
(EXPLAIN ANALYZE's "Execution Time") and the median round trip, then one plan of each. No
migrate, no write: safe on a database another session owns.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _sql(call) -> str:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        call()
    (query,) = queries.captured_queries
    return query["sql"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    import django

    django.setup()
    from django.db import connection

    from fogcontrol.core import kept_totals

    with connection.cursor() as cursor:
        cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    statements = {}
    for model in kept_totals.registered():
        table = model._meta.db_table
        statements[f"{table} COUNT(*)"] = _sql(model.objects.count)
        # The pager's path, for a job (whose scope is everything, as staff's).
        statements[f"{table} kept"] = _sql(lambda m=model: kept_totals.kept_total(m.objects.all(), "bench"))
    print(
        f"{'statement':<46} {'result':>10} {'server p50 ms':>14} {'server max ms':>14} {'round trip p50 ms':>18}"
    )
    plans = {}
    for name, sql in statements.items():
        servers, trips = [], []
        with connection.cursor() as cursor:
            for _ in range(args.repeat):
                started = time.perf_counter()
                cursor.execute(sql)
                (result,) = cursor.fetchone()
                trips.append((time.perf_counter() - started) * 1000)
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
                plan = [row[0] for row in cursor.fetchall()]
                servers.append(float(plan[-1].split(":")[1].split()[0]))
        plans[name] = plan
        print(
            f"{name:<46} {result:>10} {statistics.median(servers):>14.2f} {max(servers):>14.2f} "
            f"{statistics.median(trips):>18.2f}"
        )
    for name, plan in plans.items():
        print(f"\n# {name}: {statements[name]}\n" + "\n".join(plan))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
