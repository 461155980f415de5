"""A task for tests of the worker itself (tests/test_kill_durability.py): it notes that it started,
takes its time, and notes that it finished, in files a test watches."""

from __future__ import annotations

import time
from pathlib import Path

from django_tasks import task


@task()
def note_and_wait(path: str, seconds: float) -> str:
    marker = Path(path)
    with marker.with_suffix(".started").open("a") as started:
        started.write("started\n")
    time.sleep(seconds)
    marker.with_suffix(".done").write_text("done\n")
    return marker.name
