"""`fogcontrol serve` (`make serve`) and `fogcontrol run`: which processes they start, and the exit
status when one of them stops by itself (the processes themselves: test_run.py)."""

from __future__ import annotations

import io
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from fogcontrol.worker import processes


@pytest.fixture
def started(monkeypatch):
    """The children each command would start; `status` is what the supervisor returns."""
    seen: dict = {"status": 0}

    def fake_run(self):
        seen["children"] = {child.name: child.argv for child in self.children}
        return seen["status"]

    monkeypatch.setattr(processes.Supervisor, "run", fake_run)
    return seen


def test_serve_runs_gunicorn_and_the_worker(started, monkeypatch):
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    call_command("serve", "--bind", "0.0.0.0:9000")
    web, worker = started["children"]["web"], started["children"]["worker"]
    assert web[:3] == [sys.executable, "-m", "gunicorn"] and "fogcontrol.wsgi:application" in web
    assert web[web.index("--bind") + 1] == "0.0.0.0:9000" and web[web.index("--workers") + 1] == "3"
    assert worker[-2:] == ["db_worker", "--no-reload"]


def test_the_default_gunicorn_workers_follow_the_cpus(monkeypatch):
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setattr(processes.os, "cpu_count", lambda: 2)
    assert processes.web_workers() == 5
    monkeypatch.setattr(processes.os, "cpu_count", lambda: 16)
    assert processes.web_workers() == 8


def test_run_starts_the_development_server_beside_the_worker(started):
    call_command("run", "127.0.0.1:8123")
    assert started["children"]["web"][-2:] == ["runserver", "127.0.0.1:8123"]
    assert started["children"]["worker"][-1] == "db_worker"
    call_command("run", "--no-web")
    assert list(started["children"]) == ["worker"]


def test_a_process_that_stops_by_itself_makes_the_command_fail(started):
    started["status"] = 3
    with pytest.raises(CommandError) as failed:
        call_command("serve")
    assert failed.value.returncode == 3


def test_the_supervisor_prefixes_each_line_and_stops_the_other_when_one_ends(capsys):
    supervisor = processes.Supervisor(
        [
            processes.Child("short", [sys.executable, "-c", "print('hello'); raise SystemExit(2)"]),
            processes.Child(
                "long", [sys.executable, "-c", "import time; print('waiting', flush=True); time.sleep(120)"]
            ),
        ]
    )
    assert supervisor.run() == 2
    out = capsys.readouterr().out
    assert "short | hello" in out and "short | stopped (exit status 2)" in out
    assert all(process.poll() is not None for process in supervisor.processes.values())


def test_every_line_a_child_printed_is_relayed_before_the_supervisor_returns():
    """A child's last words (an error, say) are printed before the command exits, and nothing is
    written after the caller has closed its output."""
    out = io.StringIO()
    lines = "import sys\nfor i in range(3000): print(f'line {i}')\nsys.exit(4)"
    supervisor = processes.Supervisor([processes.Child("chatty", [sys.executable, "-c", lines])], out=out)
    assert supervisor.run() == 4
    relayed = out.getvalue()
    out.close()
    assert "chatty | line 0\n" in relayed and "chatty | line 2999\n" in relayed
    assert all(not relay.is_alive() for relay in supervisor._relays)
