"""The machine-readable rows every benchmark prints with ``--json``, read by bench/run_all.py.

One line each, ``BENCH-ROW {json}``, among the benchmark's usual output (subprocesses inherit the
standard output, so a line printed by a child reaches the parent's reader as it is).
"""

from __future__ import annotations

import json

PREFIX = "BENCH-ROW "


def emit(
    figure: str,
    size: int,
    value: float,
    unit: str,
    floor: float | None = None,
    *,
    lower_is_better: bool = True,
) -> None:
    """One figure at one size beside its floor (the same work done bare, measured in the same run).
    The ratio is how many times worse than the floor: value / floor for times, floor / value for
    rates."""
    ratio = None
    if floor and value:
        ratio = value / floor if lower_is_better else floor / value
    row = {"figure": figure, "size": size, "value": value, "unit": unit, "floor": floor, "ratio": ratio}
    print(PREFIX + json.dumps(row), flush=True)


def read(output: str) -> list[dict]:
    """The rows among a benchmark's output."""
    return [json.loads(line[len(PREFIX) :]) for line in output.splitlines() if line.startswith(PREFIX)]
