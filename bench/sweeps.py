"""Benchmark: each step of the nightly sweep on a generated program, beside its bare-SQL floor.

    .venv/bin/python bench/sweeps.py [--sizes 1000 10000] [--years 5] [--send]
    DATABASE_URL=postgres://…/<a generated program> .venv/bin/python bench/sweeps.py --existing

For each size, in a fresh throwaway SQLite database (or DATABASE_URL: a new, empty scratch
database; the generator refuses one that holds establishments), `fogcontrol bench generate
--establishments N` (fogcontrol/demo/generate.py), then every registered step (fogcontrol/core/sweep.py) twice:

- run 1 on the Town's today: the first sweep of a new program (servicing creates every device's
  state; permits expire those not renewed);
- run 2 a year and a month later: every status moves with the date, most permits lapse (B6).

`--existing` runs the two sweeps on the program already in the database (DATABASE_URL, or the
SQLite database of FOGCONTROL_DATA_DIR), generated earlier by `fogcontrol bench generate`: the way
to measure 100,000 establishments on PostgreSQL. It changes that database (the sweeps' writes).

The steps run as production runs them: background work on the database task backend, so the
reminders step writes its messages and queues one task to send them (the worker sends them, not
the sweep). `--send` runs with FOGCONTROL_TASKS=immediate instead: the step then also sends every
message (claim, render, send, mark: about six queries a message).

Before each step its floor is measured in a transaction rolled back: the bare SQL of ALL the
step's writes, without the rules, in the fewest statements:

- servicing: one INSERT … SELECT of a state row per device from its manifests (run 1; the state
  is derived data, not audited); one INSERT … SELECT of an audit entry per status the date moves,
  its before and after built in SQL (json_object on SQLite, jsonb_build_object on PostgreSQL: the
  row's every field as the audit trail keeps it, the expressions of fogcontrol/audit/set_sql.py),
  then one UPDATE … CASE of the statuses;
- permits: one INSERT … SELECT of the audit entries of the lapsed permits (before and after in
  SQL), one of their timeline events, one UPDATE … WHERE of their status (B6);
- enforcement: one INSERT … SELECT each of the violations the overdue devices (E1, one per active
  FSE served), the active FSEs that never held a permit (B1) and those whose last permit lapsed
  (B1, B6) open, not open already, and one INSERT … SELECT of their audit entries (after in SQL).
  Findings and referred flags, none in a generated program, have no floor.
- reminders: the messages the step wrote, written again by one INSERT … SELECT (every column as
  the step wrote it, its subject and text included, the once-only key made distinct), and one
  INSERT … SELECT of their audit entries (after in SQL). Measured after the step, since the floor
  copies its rows: what is left to the step is choosing and rendering them.

Steps with no floor here show "-". Printed: wall and CPU seconds (SQLite runs in the process: on
a machine shared with other work, CPU time is the work itself), queries, the floor (wall and CPU)
and the ratio of CPU to the floor's CPU (on PostgreSQL, where the work is the server's, of wall
times, marked "w"), the process's peak memory (RSS) after the step, and the step's own peak:
the high-water mark reset before the step (Linux: /proc/self/clear_refs) and read after it, less
the RSS it started with ("step MiB", the memory the step took above where it started).
"""

from __future__ import annotations

import argparse
import gc
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
AUDIT_COLUMNS = (
    "at, actor_id, actor_label, action, content_type_id, object_id, object_repr, before, after, note"
)
NEW_STATUS = """CASE WHEN t.next_due < %s THEN 'overdue' WHEN t.next_due <= %s THEN 'due_soon'
    ELSE 'compliant' END"""
MOVES = f"""t.next_due IS NOT NULL AND t.status NOT IN ('over_limit', 'never_serviced')
    AND t.status <> {NEW_STATUS}"""
LAPSED = "t.status = 'issued' AND t.valid_until < %s"


def _servicing_floor(day, now, window, content_type) -> list:
    """The statuses the date moves: their audit entries (before and after in SQL), one UPDATE."""
    from fogcontrol.audit.set_sql import snapshot_sql
    from fogcontrol.servicing.models import DeviceServiceState

    bounds = [window.overdue_if_due_before, window.due_soon_if_due_by]
    before, _ = snapshot_sql(DeviceServiceState, "t")
    after, after_params = snapshot_sql(
        DeviceServiceState,
        "t",
        {"status": (NEW_STATUS, bounds), "status_on": ("CAST(%s AS TEXT)", [day.isoformat()])},
    )
    audit = (
        f"INSERT INTO audit_auditentry ({AUDIT_COLUMNS}) SELECT %s, NULL, 'servicing.nightly', "
        f"'device_state.sweep', %s, CAST(t.device_id AS TEXT), CAST(t.device_id AS TEXT) || ': ' || {NEW_STATUS}, "
        f"{before}, {after}, 'The status changed with the date (D4, E1).' "
        f"FROM servicing_deviceservicestate t WHERE {MOVES}"
    )
    update = (
        f"UPDATE servicing_deviceservicestate AS t SET status = {NEW_STATUS}, status_on = %s WHERE {MOVES}"
    )
    return [
        (audit, [now, content_type, *bounds, *after_params, *bounds]),
        (update, [*bounds, day, *bounds]),
    ]


def _permits_floor(day, now, content_type, vendor) -> list:
    """B6: the lapsed permits' audit entries (before and after in SQL), events, one UPDATE."""
    from fogcontrol.audit.set_sql import snapshot_sql
    from fogcontrol.permits.models import Permit

    before, _ = snapshot_sql(Permit, "t")
    after, after_params = snapshot_sql(
        Permit,
        "t",
        {"status": ("CAST('expired' AS TEXT)", []), "updated_at": ("CAST(%s AS TEXT)", [now.isoformat()])},
    )
    valid_until = "to_char(t.valid_until, 'YYYY-MM-DD')" if vendor == "postgresql" else "t.valid_until"
    return [
        (
            f"INSERT INTO audit_auditentry ({AUDIT_COLUMNS}) SELECT %s, NULL, 'permits.nightly', 'permit.expire', "
            "%s, CAST(t.id AS TEXT), 'FOG permit ' || COALESCE(NULLIF(t.number, ''), '(unnumbered)'), "
            f"{before}, {after}, '' FROM permits_permit t WHERE {LAPSED}",
            [now, content_type, *after_params, day],
        ),
        (
            "INSERT INTO permits_permitevent (at, actor_id, actor_label, application_id, permit_id, action, "
            "from_status, to_status, note) SELECT %s, NULL, 'permits.nightly', NULL, t.id, 'permit.expire', "
            f"'issued', 'expired', 'Not renewed by ' || {valid_until} || ' (B6)' FROM permits_permit t WHERE {LAPSED}",
            [now, day],
        ),
        (f"UPDATE permits_permit AS t SET status = 'expired', updated_at = %s WHERE {LAPSED}", [now, day]),
    ]


def _enforcement_floor(day, now, content_type, vendor, grace_days: int) -> list:
    """The violations opened: one per overdue device and active FSE it serves (E1), one per
    active FSE whose last permit lapsed (B1, B6), not open already; then their audit entries."""
    from fogcontrol.audit.set_sql import snapshot_sql
    from fogcontrol.enforcement.models import Violation

    if vendor == "postgresql":
        iso, began = "to_char(s.next_due, 'YYYY-MM-DD')", f"s.next_due + {int(grace_days) + 1}"
        p_iso, p_began = "to_char(p.valid_until, 'YYYY-MM-DD')", "p.valid_until + 1"
    else:
        iso, began = "s.next_due", f"date(s.next_due, '+{int(grace_days) + 1} days')"
        p_iso, p_began = "p.valid_until", "date(p.valid_until, '+1 days')"
    columns = (
        "establishment_id, property_owner_id, device_id, provision, kind, description, source, source_key, "
        "source_id, evidence, began_on, cured_on, cure_evidence, cured_automatically, opened_by_id, "
        "opened_by_label, created_at, cured_by_id, cured_by_label"
    )
    service_key = f"'overdue_service:' || s.device_id || ':' || e.id || ':' || {iso}"
    overdue = (
        f"INSERT INTO enforcement_violation ({columns}) SELECT e.id, NULL, d.id, 'E1', 'maintenance', "
        f"'Device ' || d.identifier || ' was due for service on ' || {iso} || ' and has not been serviced (E1).', "
        f"'overdue_service', {service_key}, d.id, 'Service records of device ' || d.identifier || "
        f"': next service due ' || {iso} || '.', {began}, NULL, '', false, NULL, 'enforcement.nightly', %s, "
        "NULL, '' FROM servicing_deviceservicestate s "
        "JOIN registry_greasecontroldevice d ON d.id = s.device_id AND d.status = 'active' "
        "JOIN registry_greasecontroldevice_establishments de ON de.greasecontroldevice_id = d.id "
        "JOIN registry_foodserviceestablishment e ON e.id = de.foodserviceestablishment_id AND e.status = 'active' "
        f"WHERE s.status = 'overdue' AND s.next_due IS NOT NULL AND NOT EXISTS "
        f"(SELECT 1 FROM enforcement_violation v WHERE v.source_key = {service_key})"
    )
    missing = (
        f"INSERT INTO enforcement_violation ({columns}) SELECT e.id, NULL, NULL, 'B1', 'no_permit', "
        "'The establishment holds no FOG permit (B1).', 'permit', 'permit_missing:' || e.id, NULL, "
        "'The Town''s permit records on ' || %s || ': no permit was ever issued.', %s, NULL, '', false, NULL, "
        "'enforcement.nightly', %s, NULL, '' FROM registry_foodserviceestablishment e WHERE e.status = 'active' "
        "AND NOT EXISTS (SELECT 1 FROM permits_permit l WHERE l.establishment_id = e.id) "
        "AND NOT EXISTS (SELECT 1 FROM enforcement_violation v WHERE v.source_key = 'permit_missing:' || e.id)"
    )
    permit_key = f"'permit_expired:' || p.id || ':' || {p_iso}"
    lapsed = (
        f"INSERT INTO enforcement_violation ({columns}) SELECT e.id, NULL, NULL, 'B1', 'no_permit', "
        f"'FOG permit ' || COALESCE(p.number, '') || ' expired after ' || {p_iso} || ' and was not renewed (B1, B6).', "
        f"'permit', {permit_key}, p.id, 'Permit ' || COALESCE(p.number, '') || ': last day of its term ' || {p_iso} "
        f"|| '.', {p_began}, NULL, '', false, NULL, 'enforcement.nightly', %s, NULL, '' "
        "FROM registry_foodserviceestablishment e JOIN permits_permit p ON p.id = (SELECT l.id FROM permits_permit l "
        "WHERE l.establishment_id = e.id ORDER BY l.first_issued_on DESC, l.id DESC LIMIT 1) "
        "WHERE e.status = 'active' AND p.status IN ('issued', 'expired') AND p.valid_until < %s "
        "AND NOT EXISTS (SELECT 1 FROM permits_permit f WHERE f.establishment_id = e.id AND f.status = 'issued' "
        f"AND f.valid_until >= %s) AND NOT EXISTS (SELECT 1 FROM enforcement_violation v WHERE v.source_key = {permit_key})"
    )
    after, after_params = snapshot_sql(Violation, "t")
    audit = (
        f"INSERT INTO audit_auditentry ({AUDIT_COLUMNS}) SELECT %s, NULL, 'enforcement.nightly', 'violation.open', "
        f"%s, CAST(t.id AS TEXT), substr(t.provision || ': ' || t.description, 1, 255), NULL, {after}, "
        "'A violation was opened.' FROM enforcement_violation t WHERE t.created_at = %s"
    )
    return [
        (overdue, [now]),
        (missing, [day.isoformat(), day, now]),
        (lapsed, [now, day, day]),
        (audit, [now, content_type, *after_params, now]),
    ]


def _reminders_floor(now, since: int, content_type) -> list:
    """The messages with ids above ``since`` (the step's) written again, their keys made distinct,
    and an audit entry per copy (``messages_queue``'s: no before, after the row in SQL)."""
    from fogcontrol.audit.set_sql import snapshot_sql
    from fogcontrol.messaging.models import Message

    fields = [f.column for f in Message._meta.concrete_fields if f.column != "id"]
    copied = ", ".join("'x' || substr(t.dedupe_key, 2)" if c == "dedupe_key" else f"t.{c}" for c in fields)
    after, after_params = snapshot_sql(Message, "t")
    return [
        (
            f"INSERT INTO messaging_message ({', '.join(fields)}) SELECT {copied} FROM messaging_message t "
            "WHERE t.id > %s ORDER BY t.id",
            [since],
        ),
        (
            f"INSERT INTO audit_auditentry ({AUDIT_COLUMNS}) SELECT %s, NULL, 'reminders.nightly', 'message.queue', "
            f"%s, CAST(t.id AS TEXT), 'M-' || t.id || ' ' || t.kind || ' to ' || t.to_email, NULL, {after}, '' "
            "FROM messaging_message t WHERE t.id > %s AND t.dedupe_key LIKE 'x%%' ORDER BY t.id",
            [now, content_type, *after_params, since],
        ),
    ]


def _last_message() -> int:
    from fogcontrol.messaging.models import Message

    return Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _floor(step: str, day, since: int | None = None) -> tuple[float, float, list[int]] | None:
    """The bare SQL of all the step's writes, in a transaction rolled back: its wall and CPU
    seconds and the rows each statement wrote."""
    import datetime as dt

    from django.contrib.contenttypes.models import ContentType
    from django.db import connection, transaction
    from django.utils import timezone

    from fogcontrol.enforcement.models import Violation
    from fogcontrol.messaging.models import Message
    from fogcontrol.permits.models import Permit
    from fogcontrol.program.selectors import ruleset_on
    from fogcontrol.rules.servicing_rules import status_window
    from fogcontrol.servicing.models import DeviceServiceState

    now, vendor = timezone.now(), connection.vendor
    statements = []
    if step == "servicing":
        window = status_window(day, ruleset_on(day))
        statements = [
            (STATE_FLOOR, [day, day + dt.timedelta(days=90), now]),
            *_servicing_floor(day, now, window, ContentType.objects.get_for_model(DeviceServiceState).pk),
        ]
    elif step == "permits":
        statements = _permits_floor(day, now, ContentType.objects.get_for_model(Permit).pk, vendor)
    elif step == "enforcement":
        grace = ruleset_on(day).service_grace_days
        statements = _enforcement_floor(
            day, now, ContentType.objects.get_for_model(Violation).pk, vendor, grace
        )
    elif step == "reminders" and since is not None:
        statements = _reminders_floor(now, since, ContentType.objects.get_for_model(Message).pk)
    if not statements:
        return None
    wall, cpu = time.perf_counter(), time.process_time()
    with transaction.atomic():
        with connection.cursor() as cursor:
            rows = []
            for sql, params in statements:
                cursor.execute(sql, params)
                rows.append(cursor.rowcount)
        elapsed = time.perf_counter() - wall, time.process_time() - cpu, rows
        transaction.set_rollback(True)
    return elapsed


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _status_mib(name: str) -> float | None:
    """VmRSS or VmHWM of this process (Linux), MiB; None elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _reset_peak() -> float | None:
    """Reset the process's high-water mark of RSS to its RSS now (Linux), and return the RSS."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return None
    return _status_mib("VmRSS")


def one_size(establishments: int, years: int, existing: bool = False) -> dict:
    import datetime as dt

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from fogcontrol.core.sweep import steps
    from fogcontrol.demo.generate import generate
    from fogcontrol.program.selectors import town_today
    from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
    from fogcontrol.servicing.models import Manifest

    call_command("migrate", verbosity=0)
    wall, cpu = time.perf_counter(), time.process_time()
    if existing:
        result = {
            "establishments": FoodServiceEstablishment.objects.count(),
            "devices": GreaseControlDevice.objects.count(),
            "manifests": Manifest.objects.count(),
            "generate_wall": 0.0,
            "generate_cpu": 0.0,
            "generate_parts": {},
        }
    else:
        made = generate(establishments=establishments, seed=1, years=years)
        result = {
            "establishments": establishments,
            "devices": made.devices,
            "manifests": made.manifests,
            "generate_wall": time.perf_counter() - wall,
            "generate_cpu": time.process_time() - cpu,
            "generate_parts": made.seconds,
        }
    result.update(
        {"existing": existing, "vendor": connection.vendor, "rss_after_generate": _rss_mib(), "steps": []}
    )
    today = town_today()
    executed = [0]

    def count(execute, sql, params, many, context):
        executed[0] += 1
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(count)
    for run, day in ((1, today), (2, today + dt.timedelta(days=400))):
        for step in steps():
            # The reminders' floor copies the rows the step writes: it is measured after the step.
            since = _last_message() if step.name == "reminders" else None
            floor = None if since is not None else _floor(step.name, day)
            gc.collect()
            start_rss = _reset_peak()
            executed[0] = 0
            wall, cpu = time.perf_counter(), time.process_time()
            counts = step.run(on=day, acting_user=step.acting_user)
            elapsed = time.perf_counter() - wall, time.process_time() - cpu, executed[0]
            peak = _status_mib("VmHWM")
            if since is not None:
                floor = _floor(step.name, day, since)
            result["steps"].append(
                {
                    "run": run,
                    "step": step.name,
                    "wall": elapsed[0],
                    "cpu": elapsed[1],
                    "queries": elapsed[2],
                    "floor": floor and floor[0],
                    "floor_cpu": floor and floor[1],
                    "floor_rows": floor and floor[2],
                    "counts": counts,
                    "rss": _rss_mib(),
                    "step_mib": None if start_rss is None or peak is None else peak - start_rss,
                }
            )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument(
        "--existing",
        action="store_true",
        help="Run the sweeps on the program already in DATABASE_URL (or FOGCONTROL_DATA_DIR's SQLite "
        "database), generated by `fogcontrol bench generate`, instead of generating one. It changes it.",
    )
    parser.add_argument(
        "--send",
        action="store_true",
        help="Background work run at once (FOGCONTROL_TASKS=immediate): the reminders step also sends "
        "every message. By default it is queued on the database task backend, as in production.",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", help="Also write the results to this file.")
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one_size(args.one, args.years, existing=args.existing), default=str))
        return 0
    if args.existing and not (os.environ.get("DATABASE_URL") or os.environ.get("FOGCONTROL_DATA_DIR")):
        parser.error(
            "--existing sweeps (and changes) a program: name it with DATABASE_URL or FOGCONTROL_DATA_DIR"
        )
    results = []
    for size in [0] if args.existing else args.sizes:
        env = dict(os.environ)
        if not args.existing:
            env.setdefault("FOGCONTROL_DATA_DIR", tempfile.mkdtemp(prefix="fogcontrol-bench-"))
        env.pop("FOGCONTROL_TASKS", None)  # the database backend, as production runs the sweep
        if args.send:
            env["FOGCONTROL_TASKS"] = "immediate"
        env.setdefault("EMAIL_URL", "locmem://")
        # As production runs: under DEBUG every statement's SQL, its parameters written in (a
        # chunk's JSON), is kept in connection.queries (9,000 of them), which the RSS would count.
        env.setdefault("FOGCONTROL_DEBUG", "false")
        env.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
        command = [sys.executable, __file__, "--one", str(size), "--years", str(args.years)]
        done = subprocess.run(  # nosec B603: this script, with numbers for arguments
            command + (["--existing"] if args.existing else []), env=env, capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode:
            sys.stderr.write(done.stderr)
            return done.returncode
        result = json.loads(done.stdout.strip().splitlines()[-1])
        results.append(result)
        _print(result)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0


def _print(result: dict) -> None:
    if result.get("existing"):
        print(
            f"\n{result['establishments']:,} establishments (existing program): {result['devices']:,} devices, "
            f"{result['manifests']:,} manifests; peak RSS {result['rss_after_generate']:.0f} MiB"
        )
    else:
        print(
            f"\n{result['establishments']:,} establishments: {result['devices']:,} devices, "
            f"{result['manifests']:,} manifests generated in {result['generate_wall']:.0f} s wall, "
            f"{result['generate_cpu']:.0f} s CPU; peak RSS {result['rss_after_generate']:.0f} MiB"
        )
    print(
        f"{'run':>3} {'step':<12} {'wall s':>8} {'CPU s':>8} {'queries':>8} {'floor s':>8} {'floor CPU':>9} "
        f"{'ratio':>7} {'RSS MiB':>8} {'step MiB':>8}  counts"
    )
    for row in result["steps"]:
        floor, floor_cpu = row["floor"], row.get("floor_cpu")
        if result.get("vendor") == "postgresql":  # the work is the server's: this process's CPU says little
            ratio = f"{row['wall'] / floor:.1f}w" if floor else "-"
        else:
            ratio = f"{row['cpu'] / floor_cpu:.1f}" if floor_cpu else "-"
        step_mib = "-" if row.get("step_mib") is None else f"{row['step_mib']:.0f}"
        print(
            f"{row['run']:>3} {row['step']:<12} {row['wall']:>8.2f} {row['cpu']:>8.2f} {row['queries']:>8} "
            f"{'-' if floor is None else f'{floor:.3f}':>8} {'-' if floor_cpu is None else f'{floor_cpu:.3f}':>9} "
            f"{ratio:>7} {row['rss']:>8.0f} {step_mib:>8}  {row['counts']}"
            + (f" floor rows {row['floor_rows']}" if row.get("floor_rows") else "")
        )


if __name__ == "__main__":
    raise SystemExit(main())
