"""`make test TEST_WORKERS=2` (pytest-xdist): the workers run at once, so what one empties or writes
must not be another's (docs/performance.md, "The test suite")."""

import os
import subprocess
import sys

from fogcontrol.testing.servers import _this_workers


def test_each_worker_empties_a_redis_database_of_its_own(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert _this_workers("redis://127.0.0.1:6379/11") == "redis://127.0.0.1:6379/11"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    assert _this_workers("redis://127.0.0.1:6379/11") == "redis://127.0.0.1:6379/11"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert _this_workers("redis://127.0.0.1:6379/11") == "redis://127.0.0.1:6379/12"
    assert _this_workers("redis://:secret@127.0.0.1:6379") == "redis://:secret@127.0.0.1:6379/1"


def _scratch_of(env: dict) -> tuple[str, str]:
    code = (
        "import os, fogcontrol.testing.pytest_env; "
        "print(os.environ['FOGCONTROL_DATA_DIR']); print(os.environ['FOGCONTROL_MEDIA_DIR'])"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    data, media = out.stdout.split()
    return data, media


def test_each_worker_keeps_its_files_in_a_folder_of_its_own():
    """A worker inherits the controller's environment, its scratch folder included: it takes its own.
    A folder the person running the tests named is kept by every worker."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOGCONTROL_", "PYTEST_XDIST"))}
    controller_data, controller_media = _scratch_of(env)
    inherited = dict(env, FOGCONTROL_DATA_DIR=controller_data, FOGCONTROL_MEDIA_DIR=controller_media,
                     FOGCONTROL_TEST_SCRATCH=controller_data, PYTEST_XDIST_WORKER="gw1")  # fmt: skip
    worker_data, worker_media = _scratch_of(inherited)
    assert worker_data != controller_data
    assert worker_media == os.path.join(worker_data, "media")
    named = dict(env, FOGCONTROL_DATA_DIR="/srv/named", PYTEST_XDIST_WORKER="gw1")
    assert _scratch_of(named)[0] == "/srv/named"
