"""Running the web server and the database worker together (`fogcontrol run`, `fogcontrol serve`).

Each runs as a child process in a process group of its own (so the autoreloader's children go with
it); every line it prints is printed here with its name in front (`web    | …`, `worker | …`).
Ctrl-C or SIGTERM stops both: first SIGINT (the worker finishes the job it is running), then
SIGTERM after `GRACE_SECONDS`, then SIGKILL. If one child ends by itself, the other is stopped and
the command exits with the first one's status, for a supervisor (systemd) to restart the pair.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from typing import TextIO

GRACE_SECONDS = 15.0


@dataclasses.dataclass(frozen=True)
class Child:
    name: str
    argv: list[str]


def manage(*args: str) -> list[str]:
    """The argv of `fogcontrol <args>` run by this Python."""
    return [sys.executable, "-m", "fogcontrol.manage", *args]


class Supervisor:
    def __init__(self, children: list[Child], *, out: TextIO | None = None):
        self.children = children
        self.out = out or sys.stdout
        self.width = max(len(child.name) for child in children)
        self.processes: dict[str, subprocess.Popen] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._relays: list[threading.Thread] = []

    def say(self, name: str, line: str) -> None:
        with self._lock:
            self.out.write(f"{name.ljust(self.width)} | {line.rstrip()}\n")
            self.out.flush()

    def _relay(self, name: str, stream) -> None:
        for line in iter(stream.readline, ""):
            self.say(name, line)
        stream.close()

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        for child in self.children:
            process = subprocess.Popen(  # noqa: S603 (our own commands, no shell)
                child.argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                text=True,
                errors="replace",
                env=env,
                start_new_session=True,
            )
            self.processes[child.name] = process
            relay = threading.Thread(target=self._relay, args=(child.name, process.stdout), daemon=True)
            relay.start()
            self._relays.append(relay)

    def request_stop(self, *_args) -> None:
        self._stop.set()

    def wait(self) -> int:
        """Until Ctrl-C/SIGTERM or a child ends; then stop the others. The exit status."""
        status = 0
        while not self._stop.is_set():
            ended = [(name, p.returncode) for name, p in self.processes.items() if p.poll() is not None]
            if ended:
                name, status = ended[0]
                self.say(name, f"stopped (exit status {status}); stopping the others")
                status = status or 1
                break
            self._stop.wait(0.2)
        self.stop_all()
        return status

    def _signal(self, process: subprocess.Popen, sig: int) -> None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass

    def stop_all(self) -> None:
        alive = [p for p in self.processes.values() if p.poll() is None]
        for sig, wait_for in ((signal.SIGINT, GRACE_SECONDS), (signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
            for process in alive:
                self._signal(process, sig)
            deadline = time.monotonic() + wait_for
            while time.monotonic() < deadline and any(p.poll() is None for p in alive):
                time.sleep(0.1)
            alive = [p for p in alive if p.poll() is None]
            if not alive:
                break
        for process in self.processes.values():
            # The reloader's children live in the same group: leave none behind.
            self._signal(process, signal.SIGKILL)
            process.wait()
        # Every line the children printed is relayed before this returns (their last words, an
        # error, come before the command's own exit; nothing is written after `out` is closed).
        for relay in self._relays:
            relay.join(timeout=5.0)

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self.request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            self.start()
            return self.wait()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def web_workers() -> int:
    """Gunicorn processes: WEB_CONCURRENCY if set, else 2 per CPU and one, at most 8."""
    if os.environ.get("WEB_CONCURRENCY", "").isdigit():
        return max(1, int(os.environ["WEB_CONCURRENCY"]))
    return min(8, 2 * (os.cpu_count() or 1) + 1)
