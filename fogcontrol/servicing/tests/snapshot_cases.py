"""Seeded device histories and the device snapshot's full verdict on each, written out exactly
(issue 16: the snapshot was made cheaper; its results must not change by one byte).

``case(seed)`` builds one history as ``device_events`` lists it (manifests newest first, then
readings newest first), on a device of a random kind, assigned frequency and design depth, judged
on a random day under a ruleset with random settings (D4, E1-E4, E9). ``verdict(...)`` is
everything ``snapshot_from_events`` and ``state_values`` say about it, the explanations as their
stored records (template and values of every step), as canonical JSON.
``snapshot_digests.json`` holds the SHA-256 of each verdict, written by the implementation before
issue 16's fast path (commit 6442937):

    .venv/bin/python -m fogcontrol.servicing.tests.snapshot_cases > fogcontrol/servicing/tests/snapshot_digests.json
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import random
import types
from decimal import Decimal
from pathlib import Path

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.explain import Explanation, Sentence
from fogcontrol.rules.ruleset import CHAPTER_10_02
from fogcontrol.rules.servicing_rules import ServiceEvent

CASES = 600
DIGESTS = Path(__file__).with_name("snapshot_digests.json")
KINDS = ("gravity_interceptor", "hydromechanical_interceptor", "other")
CALENDAR = TownCalendar.standard(range(2018, 2030))


class Context:
    """What ``snapshot_from_events`` asks of a ``ProgramContext``: the ruleset and the calendar."""

    def __init__(self, ruleset) -> None:
        self._ruleset = ruleset

    def ruleset(self, day=None):
        return self._ruleset

    def calendar(self):
        return CALENDAR


def _depth(rng: random.Random, top: Decimal) -> Decimal | None:
    roll = rng.random()
    if roll < 0.2:
        return None
    if roll < 0.203:
        return Decimal("-0.5")  # refused by E3's fill ratio: the snapshot drops it
    places = rng.choice((0, 1, 2))
    return (top * Decimal(rng.random())).quantize(Decimal(1).scaleb(-places))


def case(seed: int):
    """(device, events, last_manifest_id, on, ctx) for one seeded history."""
    rng = random.Random(seed)
    ruleset = dataclasses.replace(
        CHAPTER_10_02,
        service_grace_days=rng.choice((0, 0, 7, 15)),
        min_observations_for_frequency=rng.choice((1, 3, 3, 5)),
        frequency_extrapolation_steps=rng.choice((0, 1, 1, 2)),
        frequency_safety_factor=rng.choice((Decimal("1.25"), Decimal("1"), Decimal("2.5"))),
        service_due_soon_days=rng.choice((14, 0, 30)),
    )
    on = dt.date(2026, 1, 1) + dt.timedelta(days=rng.randrange(365))
    total = rng.choice((None, Decimal(0), Decimal(6), Decimal(12), Decimal("36.5"), Decimal(48), Decimal(60)))
    top = (total or Decimal(24)) * Decimal(
        rng.choice(("0.1", "0.2", "0.3", "0.3", "0.45", "0.45", "0.5", "1.1"))
    )
    device = types.SimpleNamespace(
        kind=rng.choice(KINDS),
        assigned_frequency_days=rng.choice((None, None, 30, 60, 90, 120, 180, 45)),
        total_design_depth_in=total,
    )
    gap = rng.choice((7, 20, 30, 45, 90, 120, 200))
    manifests = []
    day = on + dt.timedelta(days=rng.choice((0, 0, 0, 3)))  # now and then a day after ``on``
    for _ in range(rng.randrange(0, 49)):
        day -= dt.timedelta(days=rng.choice((0, 1, gap // 2, gap, gap, gap + 9)))
        read = rng.random() < 0.75
        fog, solids = (_depth(rng, top), _depth(rng, top)) if read else (None, None)
        manifests.append(ServiceEvent(day, rng.random() < 0.8, fog, solids, "manifest"))
    readings = []
    day = on
    for _ in range(rng.randrange(0, 25) if rng.random() < 0.6 else 0):
        day -= dt.timedelta(days=rng.choice((0, 1, 10, gap // 3, gap)))
        source = rng.choice(("inspection", "self_monitoring", "hauler"))
        readings.append(ServiceEvent(day, False, _depth(rng, top), _depth(rng, top), source))
    last_manifest_id = rng.randrange(1, 10**6) if manifests else None
    return device, manifests + readings, last_manifest_id, on, Context(ruleset)


def _plain(value):
    if isinstance(value, Explanation):
        return {"explanation": value.as_record()}
    if isinstance(value, Sentence):
        return {"say": value.as_record()}
    if dataclasses.is_dataclass(value):
        return {
            type(value).__name__: {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        }
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, Decimal | dt.date):
        return f"{type(value).__name__}:{value}"
    return value


def verdict(seed: int) -> str:
    """Everything the snapshot and the state row say about case ``seed``, as canonical JSON."""
    from fogcontrol.servicing.services.state import snapshot_from_events, state_values

    device, events, last_manifest_id, on, ctx = case(seed)
    snap = snapshot_from_events(device, events, last_manifest_id, on=on, ctx=ctx)
    row = state_values(snap, today=on, open_kinds=set())
    return json.dumps({"snapshot": _plain(snap), "row": _plain(row)}, sort_keys=True)


def digest(seed: int) -> str:
    return hashlib.sha256(verdict(seed).encode()).hexdigest()[:24]


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps([digest(seed) for seed in range(CASES)], indent=0))
