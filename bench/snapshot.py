"""The device snapshot, timed (docs/performance.md, "The device snapshot").

    .venv/bin/python bench/snapshot.py [--establishments 1000] [--data-dir DIR] [--profile FILE]

- ``snapshot_from_events`` on one device's full history (48 manifests, 24 readings, the bounds of
  ``device_events``), in µs a call, best of 5;
- ``state_values`` after it, as the sweep and the ingest store the state;
- servicing run 1 of the nightly sweep, ``device_states_create_missing``, on a generated program
  (``fogcontrol bench generate --establishments N`` into DIR, a scratch SQLite database made on
  the first run and reused after), in a transaction rolled back: CPU seconds, queries, µs of CPU a
  device, best of 3. ``--profile FILE`` writes a cProfile of one more run;
- the same step taken apart (``parts``): the histories read (the SQL alone, then with the rows
  made into events), the rules alone on those histories (``snapshot_from_events``, without and with
  its working), the state rows and their INSERT.

CPU time (``time.process_time``; SQLite runs in the process) is the figure to compare on a
machine shared with other work.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _history(today: dt.date):
    """48 manifests (a full pump-out every 30 days or so, one partial in six, readings on most) and
    24 readings between them, as ``device_events`` lists them: manifests newest first, then readings."""
    from fogcontrol.rules.servicing_rules import ServiceEvent

    manifests = []
    for index in range(48):
        on = today - dt.timedelta(days=7 + 31 * index + index % 5)
        read = index % 4 != 3
        manifests.append(
            ServiceEvent(
                on,
                index % 6 != 5,
                Decimal(f"{2 + index % 5}.{index % 10}") if read else None,
                Decimal(f"{3 + index % 3}.25") if read else None,
                "manifest",
            )
        )
    readings = [
        ServiceEvent(
            today - dt.timedelta(days=20 + 62 * index),
            False,
            Decimal(f"1.{index % 10}"),
            Decimal("2.5"),
            "inspection" if index % 2 else "self_monitoring",
        )
        for index in range(24)
    ]
    return manifests + readings


def per_call(ctx, today) -> None:
    from fogcontrol.registry.models import GreaseControlDevice
    from fogcontrol.servicing.services.state import snapshot_from_events, state_values

    device = GreaseControlDevice(
        kind="gravity_interceptor",
        assigned_frequency_days=None,
        total_design_depth_in=Decimal("48"),
        capacity_gallons=Decimal("1000"),
    )
    events = _history(today)
    ctx.ruleset(today), ctx.calendar()
    loops = 2000

    def best(fn) -> float:
        times = []
        for _ in range(5):
            started = time.process_time()
            for _ in range(loops):
                fn()
            times.append((time.process_time() - started) / loops * 1e6)
        return min(times)

    snap = best(lambda: snapshot_from_events(device, events, 1, on=today, ctx=ctx))
    row = best(
        lambda: state_values(
            snapshot_from_events(device, events, 1, on=today, ctx=ctx), today=today, open_kinds=set()
        )
    )
    print(
        f"snapshot_from_events, 48 manifests + 24 readings: {snap:.0f} µs a call (CPU, best of 5 x {loops})"
    )
    print(f"  with state_values (the state row):              {row:.0f} µs a call")


def sweep_run_1(ctx, profile: str | None) -> None:
    from django.db import connection, transaction

    from fogcontrol.registry.models import GreaseControlDevice
    from fogcontrol.servicing.services.state_bulk import device_states_create_missing

    executed = [0]

    def count(execute, sql, params, many, context):
        executed[0] += 1
        return execute(sql, params, many, context)

    def once() -> tuple[float, int, int]:
        executed[0] = 0
        with transaction.atomic():
            started = time.process_time()
            with connection.execute_wrapper(count):
                made = device_states_create_missing(ctx=ctx)
            cpu = time.process_time() - started
            transaction.set_rollback(True)
        return cpu, executed[0], made

    devices = GreaseControlDevice.objects.count()
    runs = [once() for _ in range(3)]
    cpu, queries, made = min(runs)
    print(
        f"servicing run 1 (device_states_create_missing): {made:,} states of {devices:,} devices, "
        f"{queries} queries, {cpu:.2f} s CPU (best of 3: {', '.join(f'{r[0]:.2f}' for r in runs)}), "
        f"{cpu / max(made, 1) * 1e6:.0f} µs of CPU a device"
    )
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        once()
        profiler.disable()
        profiler.dump_stats(profile)
        print(f"profile written to {profile}")


def parts(ctx) -> None:
    """Servicing run 1 taken apart on the same program, each part best of 3 (CPU): the histories
    read (the SQL alone, then with the rows made into events), the rules (``snapshot_from_events``
    without its working, as the sweep asks, and with it), the state rows and their INSERT."""
    from django.db import connection, transaction
    from django.utils import timezone

    from fogcontrol.registry.models import GreaseControlDevice
    from fogcontrol.servicing.services import state_bulk
    from fogcontrol.servicing.services.state import snapshot_from_events, state_values

    today = ctx.today()
    devices = [
        state_bulk._Device(*row)
        for row in GreaseControlDevice.objects.order_by("pk").values_list(
            "pk", "kind", "assigned_frequency_days", "total_design_depth_in"
        )
    ]
    batches = [
        devices[at : at + state_bulk.STATE_BATCH] for at in range(0, len(devices), state_bulk.STATE_BATCH)
    ]

    def best(fn) -> float:
        times = []
        for _ in range(3):
            started = time.process_time()
            fn()
            times.append(time.process_time() - started)
        return min(times)

    def sql_only() -> None:
        # The manifests' window query as the step sends it, counted by SQLite without a row to Python.
        from django.db.models import F

        from fogcontrol.servicing.models import Manifest

        for batch in batches:
            ranked = state_bulk._ranked(
                Manifest.objects.effective().filter(
                    device_id__in=[d.pk for d in batch], service_date__lte=today
                ),
                order_by=[F("serviced_at").desc(), F("pk").desc()],
                bound=state_bulk.HISTORY_MANIFESTS,
            ).values_list(
                "device_id", "pk", "service_date", "full_pumpout", "fog_depth_in", "solids_depth_in"
            )
            sql, params = ranked.query.sql_with_params()
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT COUNT(*) FROM ({sql}) counted", params)
                cursor.fetchone()

    histories = [state_bulk._histories([d.pk for d in batch], today=today) for batch in batches]

    def judged(worded: bool) -> list:
        return [
            (
                device,
                snapshot_from_events(
                    device, events.of(device.pk), last.get(device.pk), on=today, ctx=ctx, worded=worded
                ),
                kinds,
            )
            for batch, (events, last, kinds) in zip(batches, histories, strict=True)
            for device in batch
        ]

    snaps = judged(False)
    rest = {"e8_exception": "", "refreshed_at": timezone.now()}

    def rows() -> tuple[list, list]:
        out = []
        for device, snap, kinds in snaps:
            values = state_values(snap, today=today, open_kinds=kinds.get(device.pk, set()))
            out.append([device.pk, *values.values(), *rest.values()])
        return ["device_id", *values, *rest], out

    columns, made = rows()

    def insert() -> None:
        with transaction.atomic():
            for at in range(0, len(made), state_bulk.STATE_BATCH):
                state_bulk._insert_states(columns, made[at : at + state_bulk.STATE_BATCH])
            transaction.set_rollback(True)

    figures = {
        "histories, the SQL alone (COUNT of the window query)": best(sql_only),
        "histories read and made into events (_histories)": best(
            lambda: [state_bulk._histories([d.pk for d in batch], today=today) for batch in batches]
        ),
        "the rules: snapshot_from_events, worded=False (the sweep)": best(lambda: judged(False)),
        "  (the same with the working said, worded=True)": best(lambda: judged(True)),
        "the state rows (state_values)": best(rows),
        "their INSERT (_insert_states)": best(insert),
    }
    for label, cpu in figures.items():
        print(f"  {label:<60} {cpu * 1000:7.1f} ms CPU, {cpu / len(devices) * 1e6:5.0f} µs a device")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--establishments", type=int, default=1000)
    parser.add_argument(
        "--data-dir", help="Scratch directory for the generated program (kept for the next run)."
    )
    parser.add_argument("--profile", help="Write a cProfile of one more run of the sweep step to this file.")
    parser.add_argument("--no-sweep", action="store_true", help="Only the per-call timing (no program).")
    args = parser.parse_args()
    os.environ.setdefault(
        "FOGCONTROL_DATA_DIR", args.data_dir or tempfile.mkdtemp(prefix="fogcontrol-bench-")
    )
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("EMAIL_URL", "locmem://")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from fogcontrol.demo.generate import generate
    from fogcontrol.registry.models import FoodServiceEstablishment
    from fogcontrol.servicing.context import ProgramContext

    call_command("migrate", verbosity=0)
    ctx = ProgramContext()
    per_call(ctx, ctx.today())
    if args.no_sweep:
        return 0
    if not FoodServiceEstablishment.objects.exists():
        started = time.perf_counter()
        generate(establishments=args.establishments, seed=1)
        print(f"generated {args.establishments:,} establishments in {time.perf_counter() - started:.0f} s")
    sweep_run_1(ctx, args.profile)
    parts(ctx)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
