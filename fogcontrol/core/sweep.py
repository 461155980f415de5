"""The steps of the one nightly sweep (`fogcontrol sweep`), registered by the apps that own them.

Each app registers its nightly work in its `AppConfig.ready()`, in one line:

    register_step("permits", order=20, run=permits_nightly)

`run` is called as `run(on=day, acting_user=label)`, where `day` is the Town day the sweep is for
and `label` the job label the audit trail names (`"permits.nightly"`: the step's name and
".nightly"). It returns its counts (a dict of numbers, or one number), kept with the step. It must
be idempotent (run twice for a day, it changes nothing more) and set-based; it may commit as it
goes: a step stopped half-way is run again from its start.

Steps run in `order` (then by name). Core imports no app: the runner (`fogcontrol/worker/sweep.py`)
reads `steps()`. The order the apps use (docs/architecture.md, "How a nightly job flows"):
10 servicing, 20 permits, 30 records, 40 spills, 50 sampling, 60 enforcement (after every step
that opens findings), 70 billing (after enforcement's penalties), 80 and later: notices sent from
what the steps found (reminders).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from operator import attrgetter


@dataclasses.dataclass(frozen=True)
class SweepStep:
    name: str
    order: int
    run: Callable[..., object]

    @property
    def acting_user(self) -> str:
        """The label the step acts under (the audit trail's "who")."""
        return f"{self.name}.nightly"


_steps: dict[str, SweepStep] = {}


def register_step(name: str, *, order: int, run: Callable[..., object]) -> None:
    """Add a step to the nightly sweep. Registering the same step again (a second `ready()`) is
    harmless; two different steps under one name are a mistake."""
    step = SweepStep(name=name, order=order, run=run)
    known = _steps.get(name)
    if known is not None and (known.order, known.run) != (order, run):
        raise ValueError(f"A sweep step named {name!r} is already registered.")
    _steps[name] = step


def steps() -> list[SweepStep]:
    """The registered steps, in the order they run."""
    return sorted(_steps.values(), key=lambda step: (step.order, step.name))


def pages_by_key(
    queryset, size: int, *, key: Callable[[object], object] = attrgetter("pk"), by: str = "pk"
) -> Iterator[list]:
    """The rows of ``queryset`` by primary key, ``size`` at a time (keyset pages: each page starts
    after the last key of the one before, so no page is read twice and memory holds one page,
    whatever the number of rows). One query a page. ``key`` gives a row's primary key: the default
    reads ``.pk`` of a model instance; pass ``itemgetter(0)`` for ``values_list`` rows that start
    with it, or ``lambda pk: pk`` for a flat list of keys. ``by`` names another unique key to page
    on (the establishment of rows grouped by establishment). Each page is read when the caller asks
    for it, so a caller that writes a page in its own transaction reads the next after it commits.
    """
    ordered = queryset.order_by(by)
    after = None
    while True:
        page = list((ordered if after is None else ordered.filter(**{f"{by}__gt": after}))[:size])
        if page:
            yield page
        if len(page) < size:
            return
        after = key(page[-1])
