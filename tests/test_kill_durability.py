"""Issue 15, "Tests that stay": kill -9 in the middle of the load loses nothing acknowledged and
duplicates nothing retried (F1, F7).

The app runs under gunicorn in another process group on a loopback port, against a copy of the
test database (SQLite or PostgreSQL, whichever the run uses: fogcontrol/testing/servers.py).
Several hauler clients submit manifests through the API, each with its own `Idempotency-Key`;
the server is killed with SIGKILL mid-load and started again; every client retries each request
it got no answer to, with the same key and body. Then: every acknowledged manifest is stored,
once; no key made two; the copy-of-record chain verifies (`fogcontrol verify_records`).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest
from rest_framework.authtoken.models import Token

from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.helpers import api_body
from fogcontrol.testing.servers import AppServer, DbWorker, installed_copy, running, wait_until
from fogcontrol.testing.town import build_small_town

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CLIENTS = 4
PER_CLIENT = 8
KILL_AFTER_ACKNOWLEDGED = 10
REQUEST_SECONDS = 10
WHOLE_TEST_SECONDS = 60


@pytest.fixture
def installation(tmp_path):
    town = build_small_town()
    token = Token.objects.create(user=town.users[Role.HAULER]).key
    bodies = [
        [api_body(town.own_device, manifest_number=f"KILL-{c}-{i}") for i in range(PER_CLIENT)]
        for c in range(CLIENTS)
    ]
    with installed_copy(tmp_path) as copy:
        yield copy, token, bodies


class Client(threading.Thread):
    """One hauler's program: sends its manifests in order; a request without an answer (the server
    gone) is kept, with its key, for retrying once the server is back."""

    def __init__(self, server: AppServer, token: str, bodies: list[dict], acknowledged: list, go_on):
        super().__init__(daemon=True)
        self.server, self.token, self.bodies = server, token, bodies
        self.keys = [str(uuid.uuid4()) for _ in bodies]
        self.acknowledged = acknowledged  # shared: (manifest_number, id) per 201 received
        self.go_on = go_on
        self.pending: list[int] = []
        self.answers: dict[int, dict] = {}
        self.errors: list[str] = []

    def send(self, index: int) -> bool:
        request = urllib.request.Request(
            f"{self.server.url}/api/v1/manifests/",
            data=json.dumps(self.bodies[index]).encode(),
            method="POST",
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": self.keys[index],
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
                body = json.loads(response.read())
                status = response.status
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                return False  # the server broke mid-request: no acknowledgement, retry
            self.errors.append(f"{index}: {error.code} {error.read()[:300]!r}")
            return True
        except (OSError, ValueError):
            return False  # refused, reset, timed out, cut short: no acknowledgement
        if status != 201:
            self.errors.append(f"{index}: {status}")
            return True
        self.answers[index] = body
        self.acknowledged.append((body["manifest_number"], body["id"]))
        return True

    def run(self) -> None:
        for index in range(len(self.bodies)):
            if not self.go_on():
                self.pending.extend(range(index, len(self.bodies)))
                return
            if not self.send(index):
                self.pending.append(index)

    def retry(self, deadline: float) -> None:
        while self.pending and time.monotonic() < deadline:
            self.pending = [index for index in self.pending if not self.send(index)]
            if self.pending:
                time.sleep(0.2)


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_kill_9_mid_load_loses_no_acknowledged_manifest_and_duplicates_no_retry(installation):
    copy, token, bodies = installation
    started = time.monotonic()
    acknowledged: list[tuple[str, int]] = []
    server = AppServer(copy)
    with running(server):
        killed = threading.Event()
        clients = [Client(server, token, b, acknowledged, lambda: not killed.is_set()) for b in bodies]
        for client in clients:
            client.start()
        while len(acknowledged) < KILL_AFTER_ACKNOWLEDGED and any(c.is_alive() for c in clients):
            time.sleep(0.01)
        server.kill()  # mid-load: the clients have requests in flight
        acknowledged_before_kill = len(acknowledged)
        for client in clients:
            client.join(timeout=REQUEST_SECONDS + 5)
        killed.set()
        unanswered = sum(len(c.pending) for c in clients)

        server.start()
        deadline = started + WHOLE_TEST_SECONDS  # the bound: retries stop here, the test fails
        for client in clients:
            client.retry(deadline)
        log = server.log_tail()

    assert [e for c in clients for e in c.errors] == [], log
    assert [c.pending for c in clients] == [[]] * CLIENTS, "requests never acknowledged after the restart"
    assert 0 < acknowledged_before_kill < CLIENTS * PER_CLIENT and unanswered > 0, (
        "the kill must fall mid-load",
        acknowledged_before_kill,
        unanswered,
    )

    stored = dict(
        copy.query("SELECT manifest_number, COUNT(*) FROM servicing_manifest GROUP BY manifest_number")
    )
    expected = {body["manifest_number"] for batch in bodies for body in batch}
    assert {number: stored.get(number, 0) for number in expected} == dict.fromkeys(expected, 1)
    ids = dict(copy.query("SELECT manifest_number, id FROM servicing_manifest"))
    assert all(ids[number] == id_ for number, id_ in acknowledged), "an acknowledged id is not the stored one"
    (keys,) = copy.query("SELECT COUNT(*) FROM servicing_idempotencyrecord")
    assert keys[0] == CLIENTS * PER_CLIENT

    verified = copy.command("verify_records")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "All records verify." in verified.stdout


def test_kill_9_of_the_worker_mid_job_loses_neither_that_job_nor_the_queued_one(tmp_path):
    """The worker is killed in the middle of a job with another waiting. Restarted under the same
    worker id (as its supervisor restarts it), it runs the interrupted job again and the waiting
    one: both finish, nothing stays "running" for ever."""
    with installed_copy(tmp_path) as copy:
        slow, queued = tmp_path / "slow", tmp_path / "queued"
        enqueued = copy.command(
            "shell",
            "-c",
            "from fogcontrol.testing.tasks import note_and_wait as t; "
            f"t.using(priority=10).enqueue({str(slow)!r}, 3); t.enqueue({str(queued)!r}, 0)",
        )
        assert enqueued.returncode == 0, enqueued.stderr
        # This test's two jobs only: the worker's housekeeping also queues the day's nightly sweep.
        statuses = (
            "SELECT task_path, args_kwargs, status FROM django_tasks_database_dbtaskresult "
            "WHERE task_path LIKE 'fogcontrol.testing.tasks.%' ORDER BY priority DESC"
        )

        def recorded():
            return [row[2] for row in copy.query(statuses)]

        worker = DbWorker(copy)
        with running(worker):
            wait_until(slow.with_suffix(".started").exists, seconds=30, what="the slow job started", processes=(worker,))  # fmt: skip
            worker.kill()
            assert recorded() == ["RUNNING", "READY"]

            worker.start()
            wait_until(queued.with_suffix(".done").exists, seconds=40, what="the queued job ran", processes=(worker,))  # fmt: skip
            wait_until(slow.with_suffix(".done").exists, seconds=10, what="the killed job ran again", processes=(worker,))  # fmt: skip
            # A job's file is written before the worker records its outcome: stop the worker only
            # once it has (killing it in between leaves that job for the next start, another case).
            wait_until(lambda: recorded() == ["SUCCESSFUL", "SUCCESSFUL"], seconds=10, what="both outcomes recorded", processes=(worker,))  # fmt: skip
        assert recorded() == ["SUCCESSFUL", "SUCCESSFUL"]
        assert slow.with_suffix(".started").read_text() == "started\nstarted\n"  # run again from the start
        assert "put back 1 task(s)" in worker.log_tail()
