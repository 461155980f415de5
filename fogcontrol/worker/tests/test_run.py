"""`fogcontrol run` (`make run`) starts the worker beside the web server (issue #17): a queued licence
import's dry run finishes, and the day's sweep runs, with no second command; Ctrl-C stops it.

Real processes on a copy of the test database in a file, as in test_uploads_and_worker.py. Only
the worker part is started (`--no-web`): the web part is Django's runserver, which the upload
driver stands in for (it posts through the API in a process of its own)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys

import pytest

from fogcontrol.worker.tests.test_uploads_and_worker import _environment, _wait_for, data_dir  # noqa: F401

pytestmark = pytest.mark.skipif(
    "sqlite" not in __import__("django.conf").conf.settings.DATABASES["default"]["ENGINE"],
    reason="the processes share a SQLite file; on PostgreSQL they would need a database of their own",
)

BOUND_SECONDS = 120


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_make_run_runs_queued_work_and_the_sweep_by_itself_and_ctrl_c_stops_it(data_dir):  # noqa: F811
    env = {**_environment(data_dir), "FOGCONTROL_WORKER_BEAT_SECONDS": "1", "DRIVER_READING_SECONDS": "0"}
    log = data_dir / "run.log"
    with log.open("w") as output:
        run = subprocess.Popen(
            [sys.executable, "-m", "fogcontrol.manage", "run", "--no-web"],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        assert _wait_for(log, "worker | Starting worker", 60), log.read_text()
        driver = subprocess.run(
            [sys.executable, "-m", "fogcontrol.worker.tests.upload_driver"],
            env=env,
            capture_output=True,
            text=True,
            timeout=BOUND_SECONDS,
        )
        assert driver.returncode == 0, driver.stderr[-3000:]
        result = json.loads(driver.stdout.strip().splitlines()[-1])
        assert result["imports"] == ["checked", "checked"], log.read_text()[-3000:]
        assert _wait_for(log, "state=SUCCESSFUL", 60), log.read_text()

        database = sqlite3.connect(data_dir / "fogcontrol.sqlite3")
        swept = database.execute(
            "SELECT count(*) FROM worker_sweeprun WHERE finished_at IS NOT NULL"
        ).fetchone()
        assert swept == (1,), log.read_text()[-3000:]  # the day's sweep, queued by the worker itself

        run.send_signal(signal.SIGINT)  # Ctrl-C
        assert run.wait(timeout=60) == 0, log.read_text()[-3000:]
        stopped = database.execute(
            "SELECT count(*) FROM core_workerheartbeat WHERE stopped_at IS NULL"
        ).fetchone()
        assert stopped == (0,), "the worker said it stopped"
        database.close()
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
