"""The cyclic garbage collector paused around a set-based write (issue 16).

A chunk of a set-based ingest allocates hundreds of thousands of short-lived objects (model
instances, value lists, rules' verdicts); each allocation burst triggers the collector, and its
full passes walk the whole of Django's long-lived heap, not the chunk's objects: 8-15% of the
manifest import's CPU. Nearly all of a chunk's objects are freed by their reference counts as it
goes; the few cycles it leaves are bounded by the chunk and collected by the next pass after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block; the collector as it was after it (a block inside
    another, or a process that turned it off itself, leaves it off)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
