"""Issue 15, finding 1: one slow upload must not break every writer, nor kill the worker.

Real processes on a real SQLite file, as in production: the worker (`fogcontrol db_worker`, under
the autoreloader as `make worker` runs it in development), a writer holding the one write lock
past the worker's timeout, then two uploads at once whose workbooks take seconds to open.
No upload may answer 500, and the worker must still be alive and run both dry runs.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="SQLite's single write lock is what this proves; PostgreSQL has row locks",
)

LOCK_TIMEOUT_SECONDS = "1"


@pytest.fixture
def data_dir(tmp_path) -> Path:
    """A copy of the migrated test database in a file that other processes open (WAL, as in
    production); faster than migrating a new one. The test is transactional (no open transaction
    to copy around) with serialized rollback, so the data migrations' rows outlive its flush."""
    connection.ensure_connection()
    target = sqlite3.connect(tmp_path / "fogcontrol.sqlite3")
    connection.connection.backup(target)
    target.execute("PRAGMA journal_mode=WAL")
    target.close()
    return tmp_path


def _environment(data_dir: Path) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in ("FOGCONTROL_TASKS", "DATABASE_URL")}
    env.update(
        FOGCONTROL_ENV="development",
        FOGCONTROL_DATA_DIR=str(data_dir),
        FOGCONTROL_MEDIA_DIR=str(data_dir / "media"),
        FOGCONTROL_SQLITE_TIMEOUT=LOCK_TIMEOUT_SECONDS,
        DJANGO_SETTINGS_MODULE="fogcontrol.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


def _wait_for(log: Path, text: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in log.read_text(errors="replace"):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def worker(data_dir):
    """`fogcontrol db_worker --reload`: the loop runs in a thread of the reloader's child process."""
    log = data_dir / "worker.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "fogcontrol.manage", "db_worker", "--reload", "--interval", "0.1"],
            env=_environment(data_dir),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the reloader's child ends with it
        )
    try:
        assert _wait_for(log, "Starting worker", 60), log.read_text()
        yield process, log
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _hold_the_write_lock(database: Path, seconds: float) -> None:
    writer = sqlite3.connect(database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    time.sleep(seconds)
    writer.execute("COMMIT")
    writer.close()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_slow_uploads_and_a_locked_database_break_no_writer_and_no_worker(data_dir, worker):
    process, log = worker
    # Another writer holds the lock three times longer than the worker waits for it.
    _hold_the_write_lock(data_dir / "fogcontrol.sqlite3", seconds=3 * float(LOCK_TIMEOUT_SECONDS))
    # The worker met the lock (a warning today; the traceback of its dead thread before).
    assert _wait_for(log, "database is locked", 10), log.read_text()

    driver = subprocess.run(
        [sys.executable, "-m", "fogcontrol.worker.tests.upload_driver"],
        env=_environment(data_dir),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert driver.returncode == 0, driver.stderr[-3000:]
    result = json.loads(driver.stdout.strip().splitlines()[-1])

    statuses = [response["status"] for response in result["responses"]]
    outcome = {"responses": statuses, "dry runs": result["imports"], "worker alive": process.poll() is None}
    expected = {"responses": [201, 201], "dry runs": ["checked", "checked"], "worker alive": True}
    # Before: {"responses": [201, 500], "dry runs": ["queued"], "worker alive": True} - a live
    # process whose loop had died.
    assert outcome == expected, (result["responses"], log.read_text()[-3000:])
    assert "Database error in worker" in log.read_text()  # it backed off and went on
