"""Benchmark: `fogcontrol bench generate --establishments N` in a fresh database, phase by phase.

    .venv/bin/python bench/generate.py [--sizes 1000 10000] [--years 5] [--json]

For each size, in a fresh throwaway SQLite database (or DATABASE_URL: a new, empty scratch
database; the generator refuses one that holds establishments), the generator runs once
(fogcontrol/demo/generate.py), then ``verify_records`` checks the chain. Printed per phase
(registry, permits, manifests): wall and CPU seconds (SQLite runs in the process, so CPU time is
the work itself on a shared machine), the statements sent; then the total, the rows, the
statements per 1,000 manifests, and the process's peak memory (RSS). The floor of the manifests
phase is the same rows inserted by executemany into the manifest table without the chain (its
triggers dropped in a transaction rolled back), in the same run. ``--json`` prints the results as
JSON on the last line instead of the table (bench/run_all.py reads it).
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


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _floor(count: int) -> float:
    """Wall seconds to executemany the ``count`` generated manifest rows again (a place after the
    chain, the hash reversed: both unique) into the manifest table, triggers dropped, 5,000 rows a
    call, in a transaction rolled back. Reading the rows back is not timed."""
    from django.db import connection, transaction

    from fogcontrol.core.records import unprotection_sql
    from fogcontrol.servicing.models import Manifest

    table = Manifest._meta.db_table
    fields = [f for f in Manifest._meta.concrete_fields if not f.primary_key]
    names = [f.name for f in fields]
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(table)} ({', '.join(quote(f.column) for f in fields)}) "  # nosec B608: names from model metadata
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    elapsed = 0.0
    with transaction.atomic():
        with connection.cursor() as cursor:
            for statement in unprotection_sql(connection.vendor, table):
                cursor.execute(statement)
            for start in range(1, count + 1, 5000):
                rows = []
                for manifest in Manifest.objects.filter(
                    record_sequence__gte=start, record_sequence__lt=start + 5000
                ).order_by("record_sequence"):
                    values = [f.get_db_prep_save(f.pre_save(manifest, True), connection) for f in fields]
                    values[names.index("record_sequence")] += 10**9
                    values[names.index("record_hash")] = values[names.index("record_hash")][::-1]
                    rows.append(values)
                started = time.perf_counter()
                cursor.executemany(sql, rows)
                elapsed += time.perf_counter() - started
        transaction.set_rollback(True)
    return elapsed


def one_size(establishments: int, years: int, floor: bool, trace: bool = False) -> dict:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from fogcontrol.core.records import verify_chain
    from fogcontrol.demo import generate as generator
    from fogcontrol.servicing.models import Manifest

    call_command("migrate", verbosity=0)
    executed = [0]

    def count(execute, sql, params, many, context):
        executed[0] += 1
        return execute(sql, params, many, context)

    phases: dict[str, dict] = {}
    wall, cpu = time.perf_counter(), time.process_time()
    marks = {"wall": time.perf_counter(), "cpu": time.process_time(), "queries": 0}

    def progress(message: str) -> None:
        name = message.split(":")[0]
        if trace:
            print(
                f"{time.perf_counter() - wall:8.1f} s wall {time.process_time() - cpu:8.1f} s CPU  {message}",
                file=sys.stderr,
                flush=True,
            )
        if name == "manifests":
            return
        now, cpu_now = time.perf_counter(), time.process_time()
        phases[name] = {
            "wall": now - marks["wall"],
            "cpu": cpu_now - marks["cpu"],
            "queries": executed[0] - marks["queries"],
        }
        marks.update(wall=now, cpu=cpu_now, queries=executed[0])

    connection.execute_wrappers.append(count)
    made = generator.generate(establishments=establishments, seed=1, years=years, progress=progress)
    total_wall, total_cpu = time.perf_counter() - wall, time.process_time() - cpu
    phases["manifests"] = {
        "wall": time.perf_counter() - marks["wall"],
        "cpu": time.process_time() - marks["cpu"],
        "queries": executed[0] - marks["queries"],
    }
    connection.execute_wrappers.remove(count)
    rss = _rss_mib()
    started = time.perf_counter()
    report = verify_chain(Manifest)
    result = {
        "establishments": made.establishments,
        "devices": made.devices,
        "manifests": made.manifests,
        "vendor": connection.vendor,
        "wall": total_wall,
        "cpu": total_cpu,
        "queries": executed[0],
        "phases": phases,
        "rss_mib": rss,
        "verified": report.ok,
        "verify_wall": time.perf_counter() - started,
        "floor_wall": _floor(made.manifests) if floor else None,
    }
    return result


def run(sizes: list[int], years: int, floor: bool = True, trace: bool = False) -> list[dict]:
    results = []
    for size in sizes:
        env = dict(os.environ)
        env.setdefault("FOGCONTROL_DATA_DIR", tempfile.mkdtemp(prefix="fogcontrol-bench-"))
        env.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
        arguments = [sys.executable, __file__, "--one", str(size), "--years", str(years)]
        arguments += ([] if floor else ["--no-floor"]) + (["--trace"] if trace else [])
        done = subprocess.run(  # nosec B603: this script, with numbers for arguments
            arguments, env=env, stdout=subprocess.PIPE, stderr=None if trace else subprocess.PIPE, text=True
        )
        if done.returncode:
            sys.stderr.write(done.stderr or "")
            raise SystemExit(f"bench/generate.py --one {size} failed")
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--no-floor", action="store_true", help="Skip the executemany floor.")
    parser.add_argument(
        "--trace", action="store_true", help="Print each phase and chunk as it ends (stderr)."
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="Print the results as JSON.")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_size(args.one, args.years, not args.no_floor, args.trace), default=str))
        return 0
    results = run(args.sizes, args.years, not args.no_floor, args.trace)
    if args.json:
        print(json.dumps(results, default=str))
        return 0
    for result in results:
        _print(result)
    return 0


def _print(result: dict) -> None:
    print(
        f"\n{result['establishments']:,} establishments ({result['vendor']}): {result['devices']:,} devices, "
        f"{result['manifests']:,} manifests in {result['wall']:.1f} s wall, {result['cpu']:.1f} s CPU, "
        f"{result['queries']:,} statements; peak RSS {result['rss_mib']:.0f} MiB; chain verifies: "
        f"{result['verified']} ({result['verify_wall']:.1f} s)"
    )
    print(f"{'phase':<10} {'wall s':>8} {'CPU s':>8} {'statements':>10}")
    for name, phase in result["phases"].items():
        print(f"{name:<10} {phase['wall']:>8.1f} {phase['cpu']:>8.1f} {phase['queries']:>10,}")
    if result["floor_wall"] is not None:
        manifests = result["phases"]["manifests"]["wall"]
        print(
            f"floor: executemany of the {result['manifests']:,} manifest rows, no chain: {result['floor_wall']:.2f} s "
            f"(manifests phase / floor: {manifests / max(result['floor_wall'], 1e-9):.1f})"
        )


if __name__ == "__main__":
    raise SystemExit(main())
