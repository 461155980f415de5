"""Issue 20, "several processes against one PostgreSQL": what holds within one process holds across
several writing at once.

- The copy-of-record chain (F1, F7): four processes append manifests in parallel through the
  service; the chain does not fork (its head is taken under a row lock, core/records.py): the
  sequence has no gap and no duplicate, and `fogcontrol verify_records` passes.
- `Idempotency-Key` (servicing/api/idempotency.py): the same key and body sent to two gunicorn
  processes at the same instant make one manifest; one answer is the original, the other its
  replay (or a 409 asking to retry), never a second record.
- Optimistic concurrency (core/concurrency.py): two processes saving from the same ETag, one wins
  and the other is refused (409); a stale If-Match sent to the other process is refused too.

PostgreSQL only (CI's PostgreSQL pass runs it): SQLite is the one-machine shape, one writer at a time.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest
from rest_framework.authtoken.models import Token

from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.helpers import api_body
from fogcontrol.testing.servers import AppServer, installed_copy, needs_postgresql, running
from fogcontrol.testing.town import build_small_town

pytestmark = [needs_postgresql(), pytest.mark.django_db(transaction=True, serialized_rollback=True)]

WRITERS = 4
PER_WRITER = 12
PROCESS_SECONDS = 90

# One writer process (`python append.py WRITER COUNT DEVICE_ID GO_FILE`): waits for the start file, then appends its manifests one by one through
# the service (each its own transaction, as a request would be).
APPEND = """
import sys, time
from pathlib import Path
from fogcontrol.accounts.models import User
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.services import manifest_submit
from fogcontrol.servicing.tests.helpers import submission
writer, count, device_id, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
hauler = User.objects.get(username="hauler")
device = GreaseControlDevice.objects.get(pk=device_id)
(go.parent / f"ready-{writer}").write_text("ready")
while not go.exists():
    time.sleep(0.01)
for index in range(count):
    manifest_submit(acting_user=hauler, submission=submission(device, manifest_number=f"P{writer}-{index}"),
                    channel=Manifest.Channel.API, raw={"writer": writer})
print("appended", count)
"""


@pytest.fixture
def town_copy(tmp_path):
    town = build_small_town()
    tokens = {
        role: Token.objects.create(user=town.users[role]).key for role in (Role.HAULER, Role.FOG_MANAGER)
    }
    with installed_copy(tmp_path) as copy:
        yield copy, town, tokens


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_four_processes_appending_at_once_leave_one_chain_without_gaps_that_verifies(town_copy, tmp_path):
    copy, town, _ = town_copy
    go = tmp_path / "go"
    script = tmp_path / "append.py"
    script.write_text("import django\ndjango.setup()\n" + APPEND)
    writers = [
        subprocess.Popen(
            [sys.executable, str(script), str(w), str(PER_WRITER), str(town.own_device.pk), str(go)],
            env=copy.environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    try:
        deadline = time.monotonic() + PROCESS_SECONDS
        while len(list(tmp_path.glob("ready-*"))) < WRITERS and time.monotonic() < deadline:
            time.sleep(0.05)
        go.write_text("go")  # the four, started and connected, append at once
        outputs = [writer.communicate(timeout=PROCESS_SECONDS) for writer in writers]
    finally:
        for writer in writers:
            if writer.poll() is None:
                writer.kill()
    assert [writer.returncode for writer in writers] == [0] * WRITERS, [err[-2000:] for _, err in outputs]

    sequences = [row[0] for row in copy.query("SELECT record_sequence FROM servicing_manifest ORDER BY 1")]
    assert len(sequences) == WRITERS * PER_WRITER
    assert sequences == list(range(sequences[0], sequences[0] + len(sequences))), "a gap or a duplicate"
    (numbers,) = copy.query("SELECT COUNT(DISTINCT manifest_number) FROM servicing_manifest")
    assert numbers[0] == WRITERS * PER_WRITER
    verified = copy.command("verify_records")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "All records verify." in verified.stdout


def _request(url: str, *, token: str, method: str, body: dict | None = None, headers=None):
    """(status, headers, body) of one request; an HTTP error is an answer too."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def _at_once(*calls):
    """Run the calls in threads released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


ROUNDS = 6


@pytest.mark.provision("F7")
def test_one_idempotency_key_sent_to_two_processes_at_once_makes_one_manifest(town_copy):
    copy, town, tokens = town_copy
    token = tokens[Role.HAULER]
    with running(AppServer(copy, workers=1), AppServer(copy, workers=1)) as (one, two):
        for round_ in range(ROUNDS):
            key, body = str(uuid.uuid4()), api_body(town.own_device, manifest_number=f"IDEM-{round_}")

            def send(server, key=key, body=body):
                return _request(
                    f"{server.url}/api/v1/manifests/",
                    token=token,
                    method="POST",
                    body=body,
                    headers={"Idempotency-Key": key},
                )

            answers = _at_once(lambda: send(one), lambda: send(two))
            statuses = sorted(status for status, _, _ in answers)
            assert statuses in ([201, 201], [201, 409]), answers
            created = [a for a in answers if a[0] == 201]
            originals = [a for a in created if a[1].get("Idempotent-Replayed") != "true"]
            assert len(originals) == 1, answers
            assert {a[2]["id"] for a in created} == {originals[0][2]["id"]}, "a replay names the original"
            for status, _, answer in answers:
                if status == 409:
                    assert "retry" in json.dumps(answer).lower(), answer

    stored = dict(copy.query("SELECT manifest_number, COUNT(*) FROM servicing_manifest GROUP BY 1"))
    assert stored == {f"IDEM-{r}": 1 for r in range(ROUNDS)}
    (keys,) = copy.query("SELECT COUNT(*) FROM servicing_idempotencyrecord")
    assert keys[0] == ROUNDS


def test_optimistic_concurrency_holds_across_two_processes(town_copy):
    copy, town, tokens = town_copy
    token = tokens[Role.FOG_MANAGER]
    path = f"/api/v1/establishments/{town.own_fse.pk}/"
    with running(AppServer(copy, workers=1), AppServer(copy, workers=1)) as (one, two):
        status, headers, _ = _request(one.url + path, token=token, method="GET")
        assert status == 200, headers
        etag = headers["ETag"]

        def save(server, name):
            return _request(
                server.url + path, token=token, method="PATCH", body={"business_name": name},
                headers={"If-Match": etag},
            )  # fmt: skip

        answers = _at_once(lambda: save(one, "Saved By One"), lambda: save(two, "Saved By Two"))
        assert sorted(status for status, _, _ in answers) == [200, 409], answers
        winner = next(body["business_name"] for status, _, body in answers if status == 200)
        refused = next(body for status, _, body in answers if status == 409)
        assert refused["code"] == "stale_record"

        # The same stale copy sent to either process later: refused, nothing overwritten.
        for server in (one, two):
            status, _, body = save(server, "Too Late")
            assert status == 409 and body["code"] == "stale_record"
        status, headers, body = _request(two.url + path, token=token, method="GET")
        assert body["business_name"] == winner and headers["ETag"] != etag
