"""Benchmark: each step of the nightly sweep on a generated program, beside its bare-SQL floor.

    .venv/bin/python bench/sweeps.py [--sizes 1000 10000] [--years 5]

For each size, in a fresh throwaway SQLite database (or DATABASE_URL: a new, empty scratch
database; the generator refuses one that holds establishments), `fogcontrol bench generate
--establishments N` (fogcontrol/demo/generate.py), then every registered step (fogcontrol/core/sweep.py) twice:

- run 1 on the Town's today: the first sweep of a new program (servicing creates every device's
  state; permits expire those not renewed);
- run 2 a year and a month later: every status moves with the date, most permits lapse (B6).

Before each step its floor is measured in a transaction rolled back: the bare SQL that does the
step's writes without the rules or the audit trail (INSERT … SELECT of one row per device from
its manifests; UPDATE … WHERE of the statuses; UPDATE … WHERE of the lapsed permits). Steps with
no floor here show "-". Printed: wall and CPU seconds (SQLite runs in the process: on a machine
shared with other work, CPU time is the work itself), queries, the floor and the ratio, and the
process's peak memory (RSS) after the step.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess  # nosec B404: runs this same script for each size
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STATE_FLOOR = """
INSERT INTO servicing_deviceservicestate
    (device_id, status, status_on, last_service_on, last_full_pumpout, last_manifest_id, next_due,
     frequency_days, frequency_is_default, fill_ratio, fill_ratio_on, recommended_frequency_days,
     recommendation_enough_data, immediate_service_required, interceptor_plans_required, e8_exception,
     refreshed_at)
SELECT d.id, 'compliant', %s, MAX(m.service_date), MAX(m.service_date), MAX(m.id), %s, 90, true, NULL, NULL,
       NULL, false, false, false, '', %s
FROM registry_greasecontroldevice d LEFT JOIN servicing_manifest m ON m.device_id = d.id
WHERE NOT EXISTS (SELECT 1 FROM servicing_deviceservicestate s WHERE s.device_id = d.id)
GROUP BY d.id
"""
STATUS_FLOOR = """
UPDATE servicing_deviceservicestate SET status = CASE WHEN next_due < %s THEN 'overdue'
    WHEN next_due <= %s THEN 'due_soon' ELSE 'compliant' END, status_on = %s
WHERE next_due IS NOT NULL AND status NOT IN ('over_limit', 'never_serviced')
"""
PERMIT_FLOOR = "UPDATE permits_permit SET status = 'expired' WHERE status = 'issued' AND valid_until < %s"


def _floor(step: str, day) -> float | None:
    """The bare SQL of the step's writes, in a transaction rolled back; its wall seconds."""
    import datetime as dt

    from django.db import connection, transaction
    from django.utils import timezone

    from fogcontrol.program.selectors import ruleset_on
    from fogcontrol.rules.servicing_rules import status_window

    statements = []
    if step == "servicing":
        window = status_window(day, ruleset_on(day))
        statements = [
            (STATE_FLOOR, [day, day + dt.timedelta(days=90), timezone.now()]),
            (STATUS_FLOOR, [window.overdue_if_due_before, window.due_soon_if_due_by, day]),
        ]
    elif step == "permits":
        statements = [(PERMIT_FLOOR, [day])]
    if not statements:
        return None
    started = time.perf_counter()
    with transaction.atomic():
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
        elapsed = time.perf_counter() - started
        transaction.set_rollback(True)
    return elapsed


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one_size(establishments: int, years: int) -> dict:
    import datetime as dt

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from fogcontrol.core.sweep import steps
    from fogcontrol.demo.generate import generate
    from fogcontrol.program.selectors import town_today

    call_command("migrate", verbosity=0)
    wall, cpu = time.perf_counter(), time.process_time()
    made = generate(establishments=establishments, seed=1, years=years)
    result = {
        "establishments": establishments,
        "devices": made.devices,
        "manifests": made.manifests,
        "generate_wall": time.perf_counter() - wall,
        "generate_cpu": time.process_time() - cpu,
        "generate_parts": made.seconds,
        "rss_after_generate": _rss_mib(),
        "steps": [],
    }
    today = town_today()
    executed = [0]

    def count(execute, sql, params, many, context):
        executed[0] += 1
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(count)
    for run, day in ((1, today), (2, today + dt.timedelta(days=400))):
        for step in steps():
            floor = _floor(step.name, day)
            executed[0] = 0
            wall, cpu = time.perf_counter(), time.process_time()
            counts = step.run(on=day, acting_user=step.acting_user)
            result["steps"].append(
                {
                    "run": run,
                    "step": step.name,
                    "wall": time.perf_counter() - wall,
                    "cpu": time.process_time() - cpu,
                    "queries": executed[0],
                    "floor": floor,
                    "counts": counts,
                    "rss": _rss_mib(),
                }
            )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", help="Also write the results to this file.")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_size(args.one, args.years), default=str))
        return 0
    results = []
    for size in args.sizes:
        env = dict(os.environ)
        env.setdefault("FOGCONTROL_DATA_DIR", tempfile.mkdtemp(prefix="fogcontrol-bench-"))
        env.setdefault("FOGCONTROL_TASKS", "immediate")
        env.setdefault("EMAIL_URL", "locmem://")
        env.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
        done = subprocess.run(  # nosec B603: this script, with numbers for arguments
            [sys.executable, __file__, "--one", str(size), "--years", str(args.years)],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        result = json.loads(done.stdout.strip().splitlines()[-1])
        results.append(result)
        _print(result)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0


def _print(result: dict) -> None:
    print(
        f"\n{result['establishments']:,} establishments: {result['devices']:,} devices, "
        f"{result['manifests']:,} manifests generated in {result['generate_wall']:.0f} s wall, "
        f"{result['generate_cpu']:.0f} s CPU; peak RSS {result['rss_after_generate']:.0f} MiB"
    )
    print(
        f"{'run':>3} {'step':<12} {'wall s':>8} {'CPU s':>8} {'queries':>8} {'floor s':>8} {'ratio':>7} {'RSS MiB':>8}  counts"
    )
    for row in result["steps"]:
        floor = row["floor"]
        ratio = f"{row['wall'] / floor:.1f}" if floor else "-"
        print(
            f"{row['run']:>3} {row['step']:<12} {row['wall']:>8.2f} {row['cpu']:>8.2f} {row['queries']:>8} "
            f"{floor if floor is None else round(floor, 3)!s:>8} {ratio:>7} {row['rss']:>8.0f}  {row['counts']}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
