"""Benchmark: `seed_demo` at a given size, with the wall and CPU time of each step.

    .venv/bin/python bench/seed_demo.py [--establishments 300] [--seed 1]

Migrates a throwaway SQLite database (or DATABASE_URL: use a scratch database), then builds the
demo town and runs every seeder of DEMO_SEEDERS in one transaction, as `fogcontrol seed_demo`
does, printing for each step its wall time and its CPU time (`time.process_time`: SQLite runs in
the process, so this is the work itself, and it holds on a machine busy with other work, where
the wall time does not). Ends with `verify_records` over the seeded chains.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--establishments", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="fogcontrol-bench-")
    os.environ.setdefault("FOGCONTROL_DATA_DIR", scratch)
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("EMAIL_URL", "locmem://")  # the permits demo's notices, not on the screen
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from fogcontrol.demo.seeders import DEMO_SEEDERS, load_seeder, seeder_rng
    from fogcontrol.demo.town import build_demo_town

    call_command("migrate", verbosity=0)
    print(f"{'step':<40} {'wall s':>8} {'CPU s':>8}")

    def report(name: str, wall: float, cpu: float) -> None:
        print(f"{name:<40} {time.perf_counter() - wall:>8.1f} {time.process_time() - cpu:>8.1f}", flush=True)

    started, started_cpu = time.perf_counter(), time.process_time()
    with transaction.atomic():
        wall, cpu = time.perf_counter(), time.process_time()
        town = build_demo_town(establishments=args.establishments, seed=args.seed)
        report("registry (the town)", wall, cpu)
        for path in DEMO_SEEDERS:
            function = load_seeder(path)
            if function is None:
                continue
            wall, cpu = time.perf_counter(), time.process_time()
            function(rng=seeder_rng(args.seed, path), town=town, today=town.today)
            report(path.removeprefix("fogcontrol.").removesuffix(".demo.seed"), wall, cpu)
    report("total", started, started_cpu)
    wall, cpu = time.perf_counter(), time.process_time()
    call_command("verify_records")
    report("verify_records", wall, cpu)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
