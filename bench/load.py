"""Benchmark: the production server under load, on loopback (issue 16; capacity for issue 20).

    .venv/bin/python bench/load.py [--establishments 1000] [--data DIR] [--workers 2 4]
                                   [--users 8] [--seconds 20] [--targets WORD ...] [--queries]

Prepares a program with `fogcontrol bench generate --establishments N` (fogcontrol/demo/generate.py)
and the servicing step of the nightly sweep (the device states the pages show), in a throwaway
data folder with SQLite, or in DATABASE_URL (use a scratch database: the generator refuses one
that holds establishments, and a database that already holds a generated program is reused as it
is, so a 10k program is generated once). `--data DIR` keeps the data folder (SQLite file, record
key) between runs.

Then, for each worker count, it starts gunicorn as `fogcontrol serve` does (sync workers,
`--bind 127.0.0.1:<free port>`; without the database worker, so no job runs during the
measurement) and, one target after another, runs `--users` concurrent clients (threads with
http.client; gunicorn's sync workers close each connection, so every request opens one) for
`--seconds`, each sending its next request as soon as the last one is answered. Printed for each
target: p50, p95, p99 of the latency, requests/s, the ratio of its p95 to the floor's p95 (the
floor is the sign-in page, anonymous: the same stack, middleware and template engine, with no
query of the program's data; there is no /healthz; a reference row, the password change form
signed in as staff, shows what the session, second factor and staff navigation add), the
server's CPU per request (gunicorn's processes, and PostgreSQL's backends for this database,
read from /proc) and its ratio to the floor's (the load-independent figure on a busy machine),
errors, and the machine's load. On PostgreSQL the database is ANALYZEd first. Staff pages are
requested as the FOG Manager (a session made as a forced, verified sign-in: the same cookie the
sign-in pages give), API lists with the manager's API token. `--queries` first prints each
target's queries and the slowest, in process.

Everything is on 127.0.0.1, bounded in time (targets x seconds x worker counts, plus start-up),
and gunicorn's process group is stopped on exit, on Ctrl-C and on errors.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import math
import os
import shutil
import signal
import socket
import subprocess  # nosec B404: starts gunicorn, this repository's own server
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LOOPBACK = "127.0.0.1"
SAMPLE = 50  # establishments and devices whose pages are requested in turn


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    paths: tuple[str, ...]
    auth: str  # "anonymous", "session" or "token"


@dataclasses.dataclass
class Result:
    target: str
    latencies_ms: list[float]
    seconds: float
    errors: int = 0
    server_cpu_s: float | None = None
    db_cpu_s: float | None = None
    load: float | None = None

    @property
    def rate(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        return percentile(self.latencies_ms, p)

    def per_request_ms(self, cpu_s: float | None) -> float | None:
        if cpu_s is None or not self.latencies_ms:
            return None
        return cpu_s * 1000 / len(self.latencies_ms)


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100) by linear interpolation between closest ranks (numpy's default);
    NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def hammer(
    port: int, paths: tuple[str, ...], *, headers: dict[str, str], users: int, seconds: float
) -> Result:
    """`users` threads, each on its own connection, requesting `paths` in turn until `seconds` pass."""
    latencies: list[list[float]] = [[] for _ in range(users)]
    errors = [0] * users
    start = threading.Barrier(users + 1)
    deadline = [0.0]

    def user(index: int) -> None:
        connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
        turn = index
        start.wait()
        while time.perf_counter() < deadline[0]:
            path = paths[turn % len(paths)]
            turn += users
            began = time.perf_counter()
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                errors[index] += 1
                connection.close()
                continue
            elapsed = (time.perf_counter() - began) * 1000
            if response.status == 200:
                latencies[index].append(elapsed)
            else:
                errors[index] += 1
        connection.close()

    threads = [threading.Thread(target=user, args=(index,), daemon=True) for index in range(users)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline[0] = began + seconds
    start.wait()
    for thread in threads:
        thread.join(timeout=seconds + 90)
    elapsed = time.perf_counter() - began
    return Result(
        target="", latencies_ms=[ms for each in latencies for ms in each], seconds=elapsed, errors=sum(errors)
    )


# --- CPU of other processes, from /proc (Linux); None where it cannot be read -------------------

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the 3rd (state) on


def group_cpu_seconds(group: int) -> float | None:
    """utime + stime of the live processes in process group `group` (gunicorn's master and workers)."""
    if not Path("/proc").is_dir():
        return None
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields and int(fields[2]) == group:
                total += int(fields[11]) + int(fields[12])
    return total / _TICKS


def pids_cpu_seconds(pids: list[int]) -> dict[int, float]:
    out = {}
    for pid in pids:
        fields = _stat(pid)
        if fields:
            out[pid] = (int(fields[11]) + int(fields[12])) / _TICKS
    return out


class DatabaseCPU:
    """CPU of PostgreSQL's backends on the benchmark's database (same machine); None on SQLite,
    where the database runs inside gunicorn's processes and is counted there.

    Django closes a connection older than CONN_MAX_AGE and opens another, so backends come and go
    during a target: they are sampled twice a second and each one's last reading is kept (a
    backend's last half second before it ends is lost)."""

    def __init__(self, url: str | None):
        self.url = url
        self._seen: dict[int, float] = {}
        self._base: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _sample(self, db) -> dict[int, float]:
        rows = db.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        return pids_cpu_seconds([pid for (pid,) in rows])

    def start(self) -> None:
        if not self.url:
            return
        import psycopg

        db = psycopg.connect(self.url, autocommit=True)
        self._base = self._sample(db)
        self._seen = dict(self._base)
        self._stop.clear()

        def sample() -> None:
            with db:
                while not self._stop.wait(0.5):
                    self._seen.update(self._sample(db))
                self._seen.update(self._sample(db))

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()

    def stop(self) -> float | None:
        """CPU seconds the backends spent since `start()`; a backend started in between counts from 0."""
        if self._thread is None:
            return None
        self._stop.set()
        self._thread.join(timeout=30)
        self._thread = None
        return sum(seconds - self._base.get(pid, 0.0) for pid, seconds in self._seen.items())


# --- the program and the signed-in user ---------------------------------------------------------


@dataclasses.dataclass
class Prepared:
    establishments: int
    devices: int
    manifests: int
    session_cookie: str
    token: str
    fse_ids: list[int]
    device_ids: list[int]


def prepare(establishments: int, say) -> Prepared:
    """Generate the program if the database holds none, then sign in (in this process: Django)."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, connections
    from django.test import Client

    from fogcontrol.accounts.models import User
    from fogcontrol.accounts.services.tokens import api_token_get_or_create
    from fogcontrol.demo.generate import generate
    from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
    from fogcontrol.servicing.models import DeviceServiceState, Manifest
    from fogcontrol.servicing.services import status_sweep
    from fogcontrol.testing.auth import force_login_verified

    call_command("migrate", verbosity=0)
    if not FoodServiceEstablishment.objects.exists():
        started = time.perf_counter()
        generate(establishments=establishments, progress=lambda message: say(f"  generate: {message}"))
        say(f"  generated in {time.perf_counter() - started:.0f} s")
    if not DeviceServiceState.objects.exists():
        say("  the servicing step of the nightly sweep (the device states the pages show)…")
        status_sweep()
    if connection.vendor == "postgresql":
        # The planner's statistics, as autovacuum would have them on a program that grew over years
        # (right after a bulk generation they say "1,000 rows" of a 10,000-row table).
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    call_command("collectstatic", interactive=False, verbosity=0)
    manager = User.objects.get(username="manager")
    client = Client()
    force_login_verified(client, manager)
    token, _ = api_token_get_or_create(user=manager, acting_user="bench.load")
    fse_ids = list(FoodServiceEstablishment.objects.order_by("pk").values_list("pk", flat=True))
    device_ids = list(
        GreaseControlDevice.objects.filter(manifests__isnull=False)
        .distinct()
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    prepared = Prepared(
        establishments=len(fse_ids),
        devices=GreaseControlDevice.objects.count(),
        manifests=Manifest.objects.count(),
        session_cookie=client.cookies[settings.SESSION_COOKIE_NAME].value,
        token=token.key,
        fse_ids=spread(fse_ids, SAMPLE),
        device_ids=spread(device_ids, SAMPLE),
    )
    connections.close_all()
    return prepared


def spread(values: list[int], count: int) -> list[int]:
    """`count` values evenly spread over `values` (all of them if there are fewer)."""
    if len(values) <= count:
        return list(values)
    step = len(values) / count
    return [values[int(i * step)] for i in range(count)]


def targets(prepared: Prepared) -> list[Target]:
    return [
        Target("floor (sign-in page)", ("/login/",), "anonymous"),
        # A reference, not the floor: the cheapest staff page there is (a small form that reads
        # nothing of the program), so the table shows what the signed-in stack (session, second
        # factor, the staff navigation) costs a request before a list reads anything.
        Target("reference: staff page /password/change/", ("/password/change/",), "session"),
        Target("FSE list /registry/establishments/", ("/registry/establishments/",), "session"),
        Target(
            "FSE page /registry/establishments/<pk>/",
            tuple(f"/registry/establishments/{pk}/" for pk in prepared.fse_ids),
            "session",
        ),
        Target(
            "device history /servicing/devices/<pk>/",
            tuple(f"/servicing/devices/{pk}/" for pk in prepared.device_ids),
            "session",
        ),
        Target("dashboard (today) /", ("/",), "session"),
        Target("API /api/v1/establishments/", ("/api/v1/establishments/",), "token"),
        Target("API /api/v1/manifests/", ("/api/v1/manifests/",), "token"),
        Target("API /api/v1/devices/", ("/api/v1/devices/",), "token"),
    ]


def slowest_queries(chosen: list[Target], prepared: Prepared, *, top: int = 3, say) -> None:
    """One request to each target through Django in this process: its queries, and the slowest
    ones with their time (what to EXPLAIN)."""
    from django.conf import settings
    from django.db import connection, connections
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    for target in chosen:
        client = Client(HTTP_AUTHORIZATION=f"Token {prepared.token}") if target.auth == "token" else Client()
        if target.auth == "session":
            client.cookies[settings.SESSION_COOKIE_NAME] = prepared.session_cookie
        client.get(target.paths[0])  # warm
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            response = client.get(target.paths[0])
            elapsed = (time.perf_counter() - began) * 1000
        total_sql = sum(float(q["time"]) for q in queries.captured_queries) * 1000
        say(
            f"{target.name}: {response.status_code}, {elapsed:.0f} ms, {len(queries)} queries, "
            f"{total_sql:.0f} ms in SQL"
        )
        for query in sorted(queries.captured_queries, key=lambda q: -float(q["time"]))[:top]:
            say(f"  {float(query['time']) * 1000:7.1f} ms  {query['sql'][:400]}")
    connections.close_all()


# --- gunicorn -----------------------------------------------------------------------------------


class Gunicorn:
    """gunicorn as `fogcontrol serve` runs it, in its own process group; `stop()` ends the group."""

    def __init__(self, workers: int, env: dict[str, str], log: Path):
        self.port = free_port()
        self.workers = workers
        self.env = env
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self, within: float = 90) -> None:
        argv = [
            sys.executable,
            "-m",
            "gunicorn",
            "fogcontrol.wsgi:application",
            "--bind",
            f"{LOOPBACK}:{self.port}",
            "--workers",
            str(self.workers),
            "--graceful-timeout",
            "5",
            "--no-control-socket",
        ]
        with self.log.open("a") as output:
            self.process = subprocess.Popen(  # noqa: S603  # nosec B603
                argv, env=self.env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}; see {self.log}")
            try:
                connection = http.client.HTTPConnection(LOOPBACK, self.port, timeout=5)
                connection.request("GET", "/login/")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {within} s; see {self.log}")

    def cpu_seconds(self) -> float | None:
        return group_cpu_seconds(self.process.pid) if self.process else None

    def stop(self) -> None:
        if self.process is None:
            return
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.process.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        self.process = None


def headers_for(target: Target, prepared: Prepared, cookie_name: str) -> dict[str, str]:
    if target.auth == "session":
        return {"Cookie": f"{cookie_name}={prepared.session_cookie}"}
    if target.auth == "token":
        return {"Authorization": f"Token {prepared.token}", "Accept": "application/json"}
    return {}


def warm_up(port: int, target: Target, headers: dict[str, str], count: int = 10) -> None:
    """A few requests first, not counted (templates, connections); each must answer 200."""
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
    for index in range(count):
        path = target.paths[index % len(target.paths)]
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{target.name}: GET {path} answered {response.status}")
    connection.close()


def measure(
    server: Gunicorn, target: Target, headers, *, users: int, seconds: float, db: DatabaseCPU
) -> Result:
    warm_up(server.port, target, headers)
    cpu_before = server.cpu_seconds()
    db.start()
    result = hammer(server.port, target.paths, headers=headers, users=users, seconds=seconds)
    cpu_after = server.cpu_seconds()
    result.db_cpu_s = db.stop()
    result.target = target.name
    result.server_cpu_s = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    result.load = os.getloadavg()[0]
    return result


def cpu_ms(row: Result) -> float | None:
    """Server CPU per request: gunicorn's, plus PostgreSQL's where it is measured."""
    app = row.per_request_ms(row.server_cpu_s)
    if app is None:
        return None
    return app + (row.per_request_ms(row.db_cpu_s) or 0.0)


def table(rows: list[Result]) -> str:
    floor = rows[0].percentile(95) if rows else math.nan
    floor_cpu = cpu_ms(rows[0]) if rows else None

    def num(value, spec):
        return (
            "-" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)
        )

    lines = [
        f"{'target':<42} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'req/s':>7} {'p95/floor':>9} "
        f"{'app CPU ms/req':>14} {'db CPU ms/req':>13} {'CPU/floor':>9} {'errors':>6} {'load 1m':>7}"
    ]
    for row in rows:
        cpu = cpu_ms(row)
        lines.append(
            f"{row.target:<42} {num(row.percentile(50), '8.1f')} {num(row.percentile(95), '8.1f')} "
            f"{num(row.percentile(99), '8.1f')} {num(row.rate, '7.1f')} "
            f"{num(row.percentile(95) / floor if floor else None, '9.1f')} "
            f"{num(row.per_request_ms(row.server_cpu_s), '14.1f')} {num(row.per_request_ms(row.db_cpu_s), '13.1f')} "
            f"{num(cpu / floor_cpu if cpu is not None and floor_cpu else None, '9.1f')} "
            f"{row.errors:>6} {num(row.load, '7.2f')}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--establishments", type=int, default=1000, help="Generated if the database is empty."
    )
    parser.add_argument("--data", type=Path, help="Data folder to keep and reuse (default: a temporary one).")
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--users", type=int, default=8, help="Concurrent clients (default %(default)s).")
    parser.add_argument("--seconds", type=float, default=20, help="Per target (default %(default)s).")
    parser.add_argument("--targets", nargs="+", help="Only the targets whose names contain these words.")
    parser.add_argument(
        "--queries",
        action="store_true",
        help="First print each target's queries and the slowest (in process).",
    )
    args = parser.parse_args(argv)

    data = args.data or Path(tempfile.mkdtemp(prefix="fogcontrol-load-"))
    data.mkdir(parents=True, exist_ok=True)
    os.environ.update(
        FOGCONTROL_DATA_DIR=str(data),
        FOGCONTROL_ENV="development",
        FOGCONTROL_DEBUG="false",
        FOGCONTROL_TASKS="immediate",
        DJANGO_SETTINGS_MODULE="fogcontrol.settings",
    )
    database_url = os.environ.get("DATABASE_URL")
    say = lambda message: print(message, flush=True)  # noqa: E731
    servers: list[Gunicorn] = []

    def stop(*_):
        for server in servers:
            server.stop()
        raise SystemExit(130)

    signal.signal(signal.SIGTERM, stop)
    try:
        prepared = prepare(args.establishments, say)
        from django.conf import settings

        chosen = [
            t
            for t in targets(prepared)
            if not args.targets
            or t.name.startswith(("floor", "reference"))
            or any(w in t.name for w in args.targets)
        ]
        engine = "PostgreSQL" if database_url else "SQLite"
        say(
            f"{engine}, {prepared.establishments} establishments, {prepared.devices} devices, "
            f"{prepared.manifests} manifests; {args.users} users, {args.seconds:g} s a target; "
            f"{os.cpu_count()} CPUs, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        if args.queries:
            slowest_queries(chosen, prepared, say=say)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        db = DatabaseCPU(database_url)
        for workers in args.workers:
            server = Gunicorn(workers, env, data / "gunicorn.log")
            servers.append(server)
            server.start()
            client_cpu = time.process_time()
            rows = []
            for target in chosen:
                headers = headers_for(target, prepared, settings.SESSION_COOKIE_NAME)
                rows.append(measure(server, target, headers, users=args.users, seconds=args.seconds, db=db))
            client_cpu = time.process_time() - client_cpu
            server.stop()
            say(f"\ngunicorn, {workers} sync workers ({engine}, {prepared.establishments} FSEs):")
            say(table(rows))
            say(f"(this client's own CPU: {client_cpu:.1f} s over the {workers}-worker run)")
    finally:
        for server in servers:
            server.stop()
        if args.data is None:
            shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
