"""Real processes for tests that need them: the app under gunicorn and the database worker, each in
its own process group on the loopback interface, each killable with SIGKILL, against a copy of the
test database that other processes can open.

A test using these is transactional (`@pytest.mark.django_db(transaction=True,
serialized_rollback=True)`): what it builds is committed before the copy is taken, and the data
migrations' rows outlive the flush that ends it. The copy is cheap (SQLite's online backup; a
PostgreSQL `CREATE DATABASE … TEMPLATE`), far cheaper than migrating a new database.

    installation = copy_test_database(tmp_path)
    with AppServer(installation) as server:
        urllib.request.urlopen(server.url + "/api/v1/…")
        server.kill()          # kill -9, the whole process group
        server.start()         # the same port, the same database
    installation.drop()

Several processes (tests/test_tasks_on_rq.py, tests/test_several_processes.py): an installation
made with `tasks="rq"` runs its background work on Redis (`redis_for_tests()`: a database number
of its own, emptied before and after), and `RQWorker` is `fogcontrol rqworker` against it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from django.db import OperationalError, connection

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


@dataclasses.dataclass
class Installation:
    """A second installation sharing the test process's code and record key, with its own copy of
    the test database and its own data folder."""

    data_dir: Path
    database_url: str | None  # None: SQLite in data_dir/fogcontrol.sqlite3
    pg_name: str | None = None
    env: dict[str, str] = dataclasses.field(default_factory=dict)  # more settings, e.g. tasks on RQ

    @property
    def sqlite_path(self) -> Path:
        return self.data_dir / "fogcontrol.sqlite3"

    def environment(self, **extra: str) -> dict[str, str]:
        env = {
            key: value for key, value in os.environ.items() if key not in ("FOGCONTROL_TASKS", "DATABASE_URL")
        }
        from django.conf import settings

        env.update(
            FOGCONTROL_ENV="development",
            FOGCONTROL_DEBUG="false",
            FOGCONTROL_DATA_DIR=str(self.data_dir),
            FOGCONTROL_MEDIA_DIR=str(self.data_dir / "media"),
            FOGCONTROL_RECORD_KEY_FILE=str(settings.FOGCONTROL_RECORD_KEY_FILE),
            DJANGO_SETTINGS_MODULE="fogcontrol.settings",
            PYTHONUNBUFFERED="1",
        )
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        env.update(self.env)
        env.update(extra)
        return env

    def query(self, sql: str) -> list[tuple]:
        """Rows of one read, on a connection of its own (not Django's: that is the test database)."""
        if self.database_url is None:
            with sqlite3.connect(self.sqlite_path) as db:
                return db.execute(sql).fetchall()
        import psycopg

        with psycopg.connect(self.database_url) as db:
            return db.execute(sql).fetchall()

    def command(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        """`fogcontrol <args>` run against this installation."""
        return subprocess.run(
            [sys.executable, "-m", "fogcontrol.manage", *args],
            env=self.environment(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def drop(self) -> None:
        if self.pg_name:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {self.pg_name} WITH (FORCE)")


@contextlib.contextmanager
def installed_copy(tmp_path: Path, *, rq: bool = False, **env: str) -> Iterator[Installation]:
    """`copy_test_database` for the length of a block, dropped afterwards; with `rq`, its background
    work on the tests' Redis (`redis_for_tests`, emptied before and after). `env`: more settings."""
    url = redis_for_tests() if rq else None
    copy = None
    try:
        copy = copy_test_database(tmp_path, redis_url=url)
        copy.env.update(env)
        yield copy
    finally:
        if copy is not None:
            copy.drop()
        if url:
            redis_flush(url)


@contextlib.contextmanager
def running(*processes: _Process) -> Iterator[tuple[_Process, ...]]:
    """Start the processes in order; kill -9 every one of them when the block ends."""
    try:
        for process in processes:
            process.start()
        yield processes
    finally:
        for process in processes:
            process.kill()


def wait_until(check: Callable[[], bool], *, seconds: float, what: str, processes=(), alive=None) -> None:
    """Poll `check` until it holds, for at most `seconds` (the test's bound); fail with the logs of
    `processes` if it does not, or at once if one of `alive` (default: all of them) has exited."""
    watched = processes if alive is None else alive
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        assert all(p.alive() for p in watched), "\n".join(p.log_tail() for p in processes)
        time.sleep(0.2)
    raise AssertionError(f"{what} within {seconds} s:\n" + "\n".join(p.log_tail() for p in processes))


def copy_test_database(tmp_path: Path, *, redis_url: str | None = None) -> Installation:
    """A copy of the (committed) test database that other processes open, as in production.
    With `redis_url`, its background work runs on RQ there (`FOGCONTROL_TASKS=rq`), and its
    e-mail is written as files into data_dir/mail."""
    data_dir = tmp_path / "installation"
    data_dir.mkdir()
    installation = _copy(data_dir)
    installation.env["EMAIL_URL"] = f"file://{data_dir / 'mail'}"
    if redis_url:
        installation.env.update(FOGCONTROL_TASKS="rq", REDIS_URL=redis_url)
    return installation


def _copy(data_dir: Path) -> Installation:
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        target = sqlite3.connect(data_dir / "fogcontrol.sqlite3")
        connection.connection.backup(target)
        target.execute("PRAGMA journal_mode=WAL")
        target.close()
        return Installation(data_dir=data_dir, database_url=None)
    source = connection.settings_dict["NAME"]
    name = f"fogcontrol_copy_{uuid.uuid4().hex[:8]}"
    connection.close()  # a template database must have no other sessions
    _create_from_template(name, source)
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or LOOPBACK}:{db['PORT'] or 5432}/{name}"
    return Installation(data_dir=data_dir, database_url=url, pg_name=name)


def _create_from_template(name: str, source: str, seconds: float = 3.0) -> None:
    """CREATE DATABASE … TEMPLATE, which PostgreSQL refuses while another session is on the
    source (a thread of this test run may hold one). Wait a little for it to end; if it does not,
    copy the database through pg_dump and pg_restore, which no session stops."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'CREATE DATABASE {name} TEMPLATE "{source}"')
            return
        except OperationalError as error:
            if "being accessed by other users" not in str(error):
                raise
            if time.monotonic() > deadline:
                break
        time.sleep(0.5)
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {name}")
    db = connection.settings_dict
    env = {
        **os.environ,
        "PGHOST": db["HOST"] or LOOPBACK,
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"],
    }
    dump = subprocess.run(["pg_dump", "--format=custom", source], env=env, capture_output=True, check=True)  # noqa: S603, S607
    subprocess.run(["pg_restore", "--dbname", name, "--no-owner"], input=dump.stdout, env=env, check=True)  # noqa: S603, S607


def _descendants(pid: int) -> list[int]:
    """The processes below `pid` (Linux: from /proc), whatever their process group."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class _Process:
    """A command in its own session (process group), logging to a file; `kill()` is kill -9 of
    the whole group, as a crash or the OOM killer would end it."""

    name = "process"

    def __init__(self, installation: Installation):
        self.installation = installation
        self.process: subprocess.Popen | None = None
        self.log = installation.data_dir / f"{self.name}.log"
        self.starts = 0

    def argv(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        raise NotImplementedError

    def start(self, *, within: float = 60) -> None:
        self.starts += 1
        with self.log.open("a") as output:
            output.write(f"--- start {self.starts} ---\n")
            output.flush()
            self.process = subprocess.Popen(
                self.argv(),
                env=self.installation.environment(),
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log_tail()}")
            if self.ready():
                return
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"{self.name} did not start within {within} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """kill -9, the whole process group and every descendant (an RQ work horse makes a group
        of its own), as a machine lost or systemd's kill of the unit would end them; reap it."""
        if self.process is None:
            return
        descendants = _descendants(self.process.pid)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for pid in descendants:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.kill()


class AppServer(_Process):
    """The app under gunicorn (several workers, several threads each), on a free loopback port
    that stays the same across restarts."""

    name = "server"

    def __init__(self, installation: Installation, *, workers: int = 2, threads: int = 4):
        super().__init__(installation)
        self.port = free_port()
        self.workers = workers
        self.threads = threads

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def argv(self) -> list[str]:
        return [
            str(Path(sys.executable).with_name("gunicorn")),
            "fogcontrol.wsgi:application",
            f"--bind={LOOPBACK}:{self.port}",
            f"--workers={self.workers}",
            f"--threads={self.threads}",
            "--timeout=60",
            "--graceful-timeout=1",
        ]

    def ready(self) -> bool:
        try:
            with socket.create_connection((LOOPBACK, self.port), timeout=0.5):
                return True
        except OSError:
            return False


class DbWorker(_Process):
    """`fogcontrol db_worker` (no autoreloader, as a supervisor runs it), with a fixed worker id:
    the identity its supervisor gives it, the same after a restart."""

    name = "worker"

    def __init__(self, installation: Installation, *, worker_id: str = "worker-1", interval: float = 0.1):
        super().__init__(installation)
        self.worker_id = worker_id
        self.interval = interval

    def argv(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "fogcontrol.manage",
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            f"--interval={self.interval}",
            f"--worker-id={self.worker_id}",
        ]

    def ready(self) -> bool:
        return f"Starting worker worker_id={self.worker_id}" in self.log_tail(100_000)


class RQWorker(_Process):
    """`fogcontrol rqworker` (django-rq's command) with django-tasks-rq's job class, as the README
    starts it, and the housekeeping worker class (fogcontrol/worker/rq_worker.py), under a fixed
    name. The installation must have been copied with a `redis_url`."""

    name = "rqworker"

    def __init__(self, installation: Installation, *, worker_name: str = "rq-1"):
        super().__init__(installation)
        self.worker_name = worker_name
        self.log = installation.data_dir / f"{self.name}-{worker_name}.log"

    def argv(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "fogcontrol.manage",
            "rqworker",
            "default",
            "--job-class=django_tasks_rq.Job",
            "--worker-class=fogcontrol.worker.rq_worker.HousekeepingWorker",
            f"--name={self.worker_name}",
        ]

    def ready(self) -> bool:
        return "Listening on" in self.log_tail(100_000)


REDIS_FOR_TESTS = "redis://127.0.0.1:6379/14"


def redis_for_tests() -> str:
    """The Redis URL the tests of several processes use (FOGCONTROL_TEST_REDIS_URL, else database
    14 of the local Redis), emptied: the caller empties it again afterwards (`redis_flush`).
    Without a Redis the test is skipped, but never in CI (CI=true), where it fails."""
    import pytest
    import redis

    url = _this_workers(os.environ.get("FOGCONTROL_TEST_REDIS_URL", REDIS_FOR_TESTS))
    try:
        redis_flush(url)
    except redis.exceptions.ConnectionError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs Redis at {url} for this test: {error}")
        pytest.skip(f"no Redis at {url} ({error}); CI runs this test")
    return url


def _this_workers(url: str) -> str:
    """Under pytest-xdist (`make test TEST_WORKERS=2`) the workers run at once and each empties its
    Redis database: worker gwN takes the database N above the one named (gw0 the one named)."""
    from urllib.parse import urlsplit, urlunsplit

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or worker == "gw0":
        return url
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) + int(worker[2:])
    return urlunsplit(parts._replace(path=f"/{number}"))


def redis_flush(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.flushdb()
    finally:
        client.close()


def needs_postgresql():
    """A module mark: these tests run several processes writing at once against one PostgreSQL
    (SQLite, one writer at a time, is the one-machine shape: docs/architecture.md, "Several processes")."""
    import pytest
    from django.conf import settings

    return pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="several processes writing at once: PostgreSQL only (CI's PostgreSQL pass runs it)",
    )
