"""Benchmark: the CSV import and the API batch of manifests, each beside its floor (issue 16).

    .venv/bin/python bench/manifest_import.py --rows 2000 --api        # CSV import + API batch, floors
    .venv/bin/python bench/manifest_import.py --rows 100000            # full import
    .venv/bin/python bench/manifest_import.py --rows 100000 --dry-run  # check every row, save nothing
    .venv/bin/python bench/manifest_import.py --rows 10000 --trace     # + tracemalloc peak (slower)
    .venv/bin/python bench/manifest_import.py --rows 2000 --row-at-a-time  # the old path, for before/after

The floor is measured in the same run: the rows the import wrote to the manifest table (the copy of
record), the audit trail and the device states, read back and inserted again by executemany into
copies of those tables (no triggers, no chain, no rules): what storing the same rows costs at the
least. The ratio is the floor's rows/s over the import's.

The chain floor beside it: the same, but the manifest rows go by executemany into the manifest
table itself with its chain triggers active (each row checked at the chain head, the head stepped
onto it and checked in turn), in a transaction rolled back, after the imported rows are removed and
the head set back under ``unprotection_sql`` (the triggers re-installed before the timing). What it
costs beyond the floor is what the copy of record's chain alone costs.

Runs on a throwaway SQLite database in a temporary folder (or DATABASE_URL if set: use a scratch
database). Generates the CSV on disk, one row at a time, with one bad row in every 1,000, then
runs the same import the upload page and the API queue. Prints rows/second and the peak memory of
the process, so that a 10,000-row and a 100,000-row run can be compared: the import streams, so
peak memory should not grow with the number of rows.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import logging
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup(scratch: str) -> None:
    os.environ.setdefault("FOGCONTROL_DATA_DIR", scratch)
    os.environ.setdefault("FOGCONTROL_MEDIA_DIR", os.path.join(scratch, "media"))
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    os.environ.setdefault("FOGCONTROL_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _town(devices: int):
    """A hauler, its user, and `devices` interceptors at FSEs that engaged it."""
    from fogcontrol.accounts.models import User
    from fogcontrol.core.roles import Role
    from fogcontrol.registry.models import (
        FoodServiceEstablishment,
        GreaseControlDevice,
        HaulerCompany,
        ReceivingFacility,
    )

    ReceivingFacility.objects.create(name="Bench Digester")
    user = User.objects.create(username="bench-hauler", role=Role.HAULER)
    hauler = HaulerCompany.objects.create(name="Bench Pumping")
    hauler.users.add(user)
    fses = FoodServiceEstablishment.objects.bulk_create(
        FoodServiceEstablishment(
            business_name=f"Bench Diner {i}", licence_number=f"BL-B{i}", site_address=f"{i} Bench St"
        )
        for i in range(devices)
    )
    hauler.customers.add(*fses)
    gcds = GreaseControlDevice.objects.bulk_create(
        GreaseControlDevice(
            identifier=f"GI-B{i:05d}",
            kind="gravity_interceptor",
            capacity_gallons=1000,
            total_design_depth_in=Decimal("48"),
        )
        for i in range(devices)
    )
    through = GreaseControlDevice.establishments.through
    through.objects.bulk_create(
        through(greasecontroldevice_id=d.pk, foodserviceestablishment_id=f.pk)
        for d, f in zip(gcds, fses, strict=True)
    )
    return user, [d.identifier for d in gcds]


def _write_csv(path: str, rows: int, identifiers: list[str]) -> None:
    from fogcontrol.servicing import certification
    from fogcontrol.servicing.imports import COLUMNS

    per_device = -(-rows // len(identifiers))
    start = dt.datetime.now() - dt.timedelta(days=30 * per_device + 2)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow([name for name, _, _ in COLUMNS])
        for n in range(rows):
            device = identifiers[n % len(identifiers)]
            visit = n // len(identifiers)
            at = start + dt.timedelta(days=30 * visit, minutes=(n % len(identifiers)) * 3)
            bad = n % 1000 == 999
            writer.writerow(
                [
                    device if not bad else "GI-NOPE",
                    f"B-{n}",
                    at.strftime("%Y-%m-%d %H:%M"),
                    "yes",
                    "yes",
                    "3.5",
                    "5",
                    "950",
                    "Dana Ruiz",
                    "",
                    "Bench Digester",
                    at.strftime("%Y-%m-%d"),
                    "no",
                    "no",
                    "no",
                    "",
                    "",
                    "",
                    "Dana Ruiz",
                    certification.CURRENT_VERSION,
                ]
            )


def _peak_rss_mb() -> float:
    # ru_maxrss is in kilobytes on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--devices", type=int, default=500)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--trace", action="store_true", help="Also measure the tracemalloc peak (slower).")
    parser.add_argument(
        "--api", action="store_true", help="Also run the API batch (500 a request) and its floor."
    )
    parser.add_argument(
        "--row-at-a-time",
        action="store_true",
        help="Submit each row through manifest_submit (the path before issue 16).",
    )
    parser.add_argument("--json", action="store_true", help="Also print BENCH-ROW lines (bench/rows.py).")
    parser.add_argument(
        "--parts",
        action="store_true",
        help="Also time the per-row work no ingest can skip (keyed hash, audit snapshot) beside the floor.",
    )
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="fogcontrol-bench-")
    _setup(scratch)
    from django.core.files.uploadedfile import SimpleUploadedFile

    from fogcontrol.servicing import imports
    from fogcontrol.servicing.imports import manifest_import_create, manifest_import_run

    if args.row_at_a_time:
        imports._chunk_outcomes = lambda chunk, **kw: [imports._one_row(row, **kw) for _, row in chunk]
    from django.db import connection

    user, identifiers = _town(args.devices)
    audit_before = _max_id("audit_auditentry")
    path = os.path.join(scratch, "manifests.csv")
    _write_csv(path, args.rows, identifiers)
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        # A stand-in for the uploaded file: Django streams uploads above 2.5 MB to a temporary file too.
        upload = SimpleUploadedFile("manifests.csv", b"")
        upload.file = handle
        upload.size = size
        record = manifest_import_create(acting_user=user, upload=upload, dry_run=args.dry_run)
    rss_before = _peak_rss_mb()
    if args.trace:
        tracemalloc.start()
    started = time.perf_counter()
    cpu_started = time.process_time()
    record = manifest_import_run(import_id=record.pk)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    traced = tracemalloc.get_traced_memory()[1] / (1024 * 1024) if args.trace else None
    print(
        f"file: {args.rows:,} rows, {size / (1024 * 1024):.1f} MB; {args.devices} devices; dry run: {args.dry_run}"
    )
    print(
        f"result: {record.status}; {record.rows_accepted:,} accepted, {record.rows_rejected:,} rejected, "
        f"{record.rows_flagged:,} flagged"
    )
    print(f"time: {seconds:.1f} s wall, {cpu:.1f} s CPU; {record.rows_total / seconds:.0f} rows/s")
    print(f"peak RSS: {rss_before:.0f} MB before the import, {_peak_rss_mb():.0f} MB after")
    if traced is not None:
        print(f"tracemalloc peak during the import: {traced:.1f} MB")
    if not args.dry_run:
        where = f"source_import_id = {record.pk}"
        floor = _floor(where, audit_before)
        figures = [("CSV import", record.rows_accepted, (seconds, cpu), floor, _chain_floor(where, floor))]
        if args.parts:
            _parts(record, floor[1])
        if args.api:
            figures.append(_api(user, identifiers, args.rows, path))
        print()
        print(f"database: {connection.vendor}; rows/s of stored manifests")
        print("(wall clock; CPU seconds of this process beside it: on a busy machine, and on SQLite, which")
        print("runs in the process, the CPU figure is the work itself)")
        print(
            "| path | rows | import rows/s (CPU) | floor rows/s (CPU) | ratio (CPU) "
            "| chain floor rows/s (CPU) | ratio to it (CPU) |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for label, rows, (took, took_cpu), floor, (chain_seconds, chain_cpu) in figures:
            floor_seconds, floor_cpu = floor[0], floor[1]
            print(
                f"| {label} | {rows:,} | {rows / took:,.0f} ({rows / took_cpu:,.0f}) | "
                f"{rows / floor_seconds:,.0f} ({rows / floor_cpu:,.0f}) | "
                f"{took / floor_seconds:.1f}x ({took_cpu / floor_cpu:.1f}x) | "
                f"{rows / chain_seconds:,.0f} ({rows / chain_cpu:,.0f}) | "
                f"{took / chain_seconds:.1f}x ({took_cpu / chain_cpu:.1f}x) |"
            )
            if args.json:
                from bench.rows import emit

                emit(
                    f"manifest {label}, CPU",
                    rows,
                    rows / took_cpu,
                    "rows/s",
                    rows / floor_cpu,
                    lower_is_better=False,
                )
    print(f"database and files: {scratch}")


def _parts(record, floor_cpu: float) -> None:
    """CPU a row of the work every path must do, on the rows just stored, beside the floor's CPU a
    row: the canonical text and keyed hash of the copy of record, and the audit entry's snapshot
    as it is stored (JSON). Each is timed over all rows, best of three."""
    import json

    from fogcontrol.audit.services import snapshot
    from fogcontrol.core.record_hashing import record_mac
    from fogcontrol.core.record_keys import keyring
    from fogcontrol.servicing.models import Manifest

    manifests = list(Manifest.objects.filter(source_import=record))
    ring = keyring()
    rows = len(manifests)

    def best(work) -> float:
        times = []
        for _ in range(3):
            started = time.process_time()
            for manifest in manifests:
                work(manifest)
            times.append(time.process_time() - started)
        return min(times) / rows * 1e6

    hashed = best(lambda m: record_mac(m, ring=ring, epoch=m.key_epoch))
    audited = best(lambda m: json.dumps(snapshot(m)))
    floor = floor_cpu / rows * 1e6
    print(
        f"per row, CPU: floor {floor:.1f} us (3x: {3 * floor:.1f} us); keyed hash {hashed:.1f} us; "
        f"audit snapshot {audited:.1f} us; the two {hashed + audited:.1f} us = "
        f"{(hashed + audited) / floor:.1f}x the floor"
    )


def _max_id(table: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")  # nosec B608: a fixed table name
        return cursor.fetchone()[0]


def _floor(manifests_where: str, audit_after: int) -> tuple:
    """Seconds (wall, CPU) to executemany the rows the run wrote (manifests, their audit entries,
    the device states) into copies of those tables, in one transaction; then the same two for the
    manifests' copy alone."""
    from django.db import connection, transaction

    selections = [
        ("servicing_manifest", manifests_where),
        ("audit_auditentry", f"id > {audit_after}"),
        ("servicing_deviceservicestate", "1 = 1"),
    ]
    postgres = connection.vendor == "postgresql"
    total = total_cpu = 0.0
    manifests_only = None
    with connection.cursor() as cursor:
        for table, where in selections:
            cursor.execute(f"SELECT * FROM {table} WHERE {where}")  # nosec B608: fixed names
            columns = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
            if postgres:
                from psycopg.types.json import Jsonb

                rows = [[Jsonb(v) if isinstance(v, dict | list) else v for v in row] for row in rows]
                cursor.execute(f"CREATE TEMP TABLE floor_{table} (LIKE {table} INCLUDING ALL)")
            else:
                cursor.execute(f"CREATE TEMP TABLE floor_{table} AS SELECT * FROM {table} WHERE 0")
            sql = f"INSERT INTO floor_{table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
            started, started_cpu = time.perf_counter(), time.process_time()
            with transaction.atomic():
                cursor.executemany(sql, rows)
            took, took_cpu = time.perf_counter() - started, time.process_time() - started_cpu
            total += took
            total_cpu += took_cpu
            if manifests_only is None:
                manifests_only = (took, took_cpu)
            cursor.execute(f"DROP TABLE floor_{table}")
    return total, total_cpu, *manifests_only


def _chain_floor(manifests_where: str, floor: tuple) -> tuple:
    """The floor with the manifests executemany'd into the manifest table itself, its chain
    triggers active (module docstring): seconds (wall, CPU). In a transaction rolled back: the
    imported rows are removed and the chain head set back to the row before them with the
    triggers dropped (``unprotection_sql``, as ``bench/generate.py``'s floor), the triggers are
    installed again (``protection_sql``) with one more that steps the head onto each row inserted
    (what ``record_append`` does after each insert), and only the executemany is timed. The audit
    entries' and states' copies are the floor's own figures."""
    from django.db import connection, transaction

    from fogcontrol.core.record_triggers import HEAD, head_unprotection_sql, protection_sql, unprotection_sql
    from fogcontrol.servicing.models import Manifest

    table = Manifest._meta.db_table
    postgres = connection.vendor == "postgresql"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table} WHERE {manifests_where} ORDER BY record_sequence")  # nosec B608: fixed names
        columns = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        first = rows[0]
        sequence_at, previous_at = columns.index("record_sequence"), columns.index("previous_hash")
        for statement in unprotection_sql(connection.vendor, table) + head_unprotection_sql(
            connection.vendor
        ):
            cursor.execute(statement)
        cursor.execute(f"DELETE FROM {table} WHERE {manifests_where}")  # nosec B608: fixed names
        cursor.execute(
            f"UPDATE {HEAD} SET last_sequence = %s, last_hash = %s WHERE chain = %s",  # nosec B608: fixed names
            [first[sequence_at] - 1, first[previous_at], table],
        )
        for statement in protection_sql(connection.vendor, table, purgeable=True):
            cursor.execute(statement)
        step = (
            f"UPDATE {HEAD} SET last_sequence = NEW.record_sequence, last_hash = NEW.record_hash "  # nosec B608: fixed names
            f"WHERE chain = '{table}'"
        )
        if postgres:
            from psycopg.types.json import Jsonb

            rows = [[Jsonb(v) if isinstance(v, dict | list) else v for v in row] for row in rows]
            cursor.execute(
                "CREATE FUNCTION floor_step_head() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN {step}; RETURN NULL; END $$"
            )
            cursor.execute(
                f"CREATE TRIGGER floor_step_head AFTER INSERT ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION floor_step_head()"
            )
        else:
            cursor.execute(f"CREATE TRIGGER floor_step_head AFTER INSERT ON {table} BEGIN {step}; END")
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"  # nosec B608: fixed names
        started, started_cpu = time.perf_counter(), time.process_time()
        cursor.executemany(sql, rows)
        took, took_cpu = time.perf_counter() - started, time.process_time() - started_cpu
        cursor.execute(f"SELECT last_sequence FROM {HEAD} WHERE chain = %s", [table])
        assert cursor.fetchone()[0] == rows[-1][sequence_at], "the chain floor's head did not follow"
        transaction.set_rollback(True)
    total, total_cpu, manifests, manifests_cpu = floor
    return total - manifests + took, total_cpu - manifests_cpu + took_cpu


def _api(user, identifiers: list[str], rows: int, path: str) -> tuple:
    """The same kind of rows through POST /api/v1/manifests/batch/, 500 a request."""
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    from fogcontrol.servicing.models import Manifest

    setup_test_environment()
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        items = []
        for row in reader:
            items.append(
                {
                    "device": row["device"],
                    "manifest_number": "API-" + row["manifest_number"],
                    "serviced_at": row["serviced_at"].replace(" ", "T"),
                    "full_pumpout": True,
                    "baffles_cleaned": True,
                    "fog_depth_in": row["fog_depth_in"],
                    "solids_depth_in": row["solids_depth_in"],
                    "gallons_removed": row["gallons_removed"],
                    "driver_name": row["driver"],
                    "receiving_facility": row["receiving_facility"],
                    "delivered_on": row["delivered_on"],
                    "certified_by_name": row["certified_by_name"],
                    "certification_version": row["certification_version"],
                }
            )
    client = APIClient()
    client.force_authenticate(user=user)
    # One refused request first (an empty batch: nothing written), outside the timing: the first
    # request a process serves loads the URLconf, with every app's views and serializers (≈ 1 s of
    # CPU here), once per worker; timed, it was about half of the batch's CPU for 2,000 rows.
    warm_cpu = time.process_time()
    logging.getLogger("django.request").disabled = True
    assert client.post("/api/v1/manifests/batch/", {"manifests": []}, format="json").status_code == 400
    logging.getLogger("django.request").disabled = False
    print(f"API: the first request (refused, not timed): {time.process_time() - warm_cpu:.2f} s CPU")
    audit_before = _max_id("audit_auditentry")
    first_api = _max_id("servicing_manifest")
    started, started_cpu = time.perf_counter(), time.process_time()
    accepted = 0
    for at in range(0, len(items), 500):
        response = client.post("/api/v1/manifests/batch/", {"manifests": items[at : at + 500]}, format="json")
        assert response.status_code == 200, response.content[:500]
        accepted += response.json()["accepted"]
    seconds, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    assert Manifest.objects.filter(id__gt=first_api).count() == accepted
    floor = _floor(f"id > {first_api}", audit_before)
    return "API batch", accepted, (seconds, cpu), floor, _chain_floor(f"id > {first_api}", floor)


if __name__ == "__main__":
    main()
