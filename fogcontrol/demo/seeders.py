"""The hook through which other apps add demo data after the registry is built.

Each entry of ``DEMO_SEEDERS`` is the dotted path of a function
``seed(*, rng: random.Random, town: DemoTown, today: datetime.date) -> None`` that writes through
its app's services (acting user "seed_demo"). Each gets its own random generator, seeded from the
demo seed and its path, so adding a seeder never changes the data another one makes.

A seeder whose module does not exist yet is skipped silently: the apps land at different times.
Any other import error (a typo, a broken import inside the module) is raised, not hidden.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Iterable

DEMO_SEEDERS: list[str] = [
    "fogcontrol.permits.demo.seed",
    "fogcontrol.servicing.demo.seed",
    "fogcontrol.inspections.demo.seed",
    "fogcontrol.records.demo.seed",
    "fogcontrol.notices.demo.seed",
    "fogcontrol.sampling.demo.seed",
    "fogcontrol.enforcement.demo.seed",
    "fogcontrol.enforcement.demo_orders.seed",
    "fogcontrol.billing.demo.seed",
    "fogcontrol.spills.demo.seed",
    "fogcontrol.messaging.demo.seed",
]


def load_seeder(path: str) -> Callable | None:
    """The function at ``path``, or None when its module does not exist (yet)."""
    module_path, _, function_name = path.rpartition(".")
    try:
        module = importlib.import_module(module_path)
    except ModuleNotFoundError as exc:
        if exc.name == module_path:
            return None
        raise
    return getattr(module, function_name)


def seeder_rng(seed: int, path: str) -> random.Random:
    # A string seed is hashed with SHA-512 by `random`: the same on every run and machine.
    return random.Random(f"{seed}:{path}")


class SeederFailed(Exception):
    def __init__(self, path: str, error: Exception):
        super().__init__(f"the seeder {path} failed: {type(error).__name__}: {error}")
        self.path = path


def run_seeders(
    *, seed: int, town, today, seeders: Iterable[str] | None = None
) -> list[tuple[str, bool, float]]:
    """Call every seeder that exists, in order. Returns (path, ran, seconds taken) for each."""
    results = []
    for path in DEMO_SEEDERS if seeders is None else seeders:
        function = load_seeder(path)
        if function is None:
            results.append((path, False, 0.0))
            continue
        started = time.perf_counter()
        try:
            function(rng=seeder_rng(seed, path), town=town, today=today)
        except Exception as error:
            # The seed is one transaction: say which seeder stopped it, not only that it stopped.
            raise SeederFailed(path, error) from error
        results.append((path, True, time.perf_counter() - started))
    return results
