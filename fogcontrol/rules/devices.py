"""Grease control devices: kinds, readings and the 25% rule (A3, D4, E2, E3, E4).

Device kinds: ``gravity_interceptor``, ``hydromechanical_interceptor`` (a grease trap) and ``other``.
Depths are in inches, as ``Decimal``. A fill ratio is (FOG depth + solids depth) / total design
hydraulic depth (E3). Every number comes from the ``Ruleset``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

from fogcontrol.rules.ruleset import Ruleset

GRAVITY_INTERCEPTOR = "gravity_interceptor"
HYDROMECHANICAL_INTERCEPTOR = "hydromechanical_interceptor"  # a grease trap
OTHER = "other"
DEVICE_KINDS = (GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR, OTHER)

STATUS_COMPLIANT = "compliant"
STATUS_DUE_SOON = "due_soon"
STATUS_OVERDUE = "overdue"
STATUS_NEVER_SERVICED = "never_serviced"
STATUS_OVER_LIMIT = "over_limit"
DEVICE_STATUSES = (
    STATUS_COMPLIANT,
    STATUS_DUE_SOON,
    STATUS_OVERDUE,
    STATUS_NEVER_SERVICED,
    STATUS_OVER_LIMIT,
)


def to_decimal(value: Decimal | int | float | str, field: str) -> Decimal:
    """A depth or volume as ``Decimal``; floats go through ``str`` so 0.1 stays 0.1."""
    if isinstance(value, bool):
        raise ValueError(f"{field}: expected a number, got {value!r}")
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value))
    except ArithmeticError as exc:
        raise ValueError(f"{field}: expected a number, got {value!r}") from exc
    if not number.is_finite():
        raise ValueError(f"{field}: expected a finite number, got {value!r}")
    return number


def check_kind(kind: str) -> None:
    """Refuse a device kind the rules do not know (A3, A4, A5: interceptor, trap or other)."""
    if kind not in DEVICE_KINDS:
        raise ValueError(f"kind: unknown device kind {kind!r}; expected one of {', '.join(DEVICE_KINDS)}")


@dataclasses.dataclass(frozen=True)
class Measurement:
    """A sludge-height reading: FOG and solids depths on a day (D4, E3, F6).

    ``pumped_out`` marks a reading taken at a full pump-out (it describes the device before pumping).
    """

    on: dt.date
    fog_depth_in: Decimal
    solids_depth_in: Decimal
    pumped_out: bool = False
    source: str = ""


class Observation(NamedTuple):
    """Accumulation seen ``days_since_pumpout`` days after a full pump-out (E4, E5, E8, E9).

    ``since`` is the date of that pump-out, when known: observations with the same ``since`` lie in
    one service interval (E8 counts intervals, not readings). Without it each observation is taken
    as its own interval.

    A named tuple, not a frozen dataclass (as ``ServiceEvent``): the sweep's first run makes one
    for each reading after a pump-out of every device (21,800 at 1,000 FSEs), a frozen dataclass
    takes twice as long to make and to read, and a tuple of atoms leaves the garbage collector's
    care (issue 16). Immutable either way.
    """

    days_since_pumpout: int
    fog_depth_in: Decimal
    solids_depth_in: Decimal
    since: dt.date | None = None


ObservationLike = Observation | tuple[int, Decimal, Decimal] | tuple[int, Decimal, Decimal, dt.date | None]


def observations_of(values: Iterable[ObservationLike]) -> tuple[Observation, ...]:
    """Observations (or (days, FOG, solids) tuples) as ``Observation`` with Decimal depths (E4, E9)."""
    out = []
    for value in values:
        item = value if isinstance(value, Observation) else Observation(*value)
        out.append(
            Observation(
                int(item.days_since_pumpout),
                to_decimal(item.fog_depth_in, "fog_depth_in"),
                to_decimal(item.solids_depth_in, "solids_depth_in"),
                item.since,
            )
        )
    return tuple(out)


def fill_ratio(
    fog_depth_in: Decimal | int | str,
    solids_depth_in: Decimal | int | str,
    total_depth_in: Decimal | int | str,
) -> Decimal:
    """E3 / D4: (FOG + solids) / total design hydraulic depth.

    Raises ``ValueError`` naming the field for a negative depth, a total depth that is not
    positive, or FOG plus solids deeper than the device.
    """
    fog = to_decimal(fog_depth_in, "fog_depth_in")
    solids = to_decimal(solids_depth_in, "solids_depth_in")
    total = to_decimal(total_depth_in, "total_depth_in")
    if fog < 0:
        raise ValueError("fog_depth_in: must not be negative")
    if solids < 0:
        raise ValueError("solids_depth_in: must not be negative")
    if total <= 0:
        raise ValueError("total_depth_in: must be greater than zero")
    if fog + solids > total:
        raise ValueError(
            f"fog_depth_in + solids_depth_in: {fog + solids} in is deeper than the device ({total} in)"
        )
    return (fog + solids) / total


def default_frequency(kind: str, ruleset: Ruleset) -> int:
    """E2 / E4: the frequency in days until the FOG Manager sets one.

    Interceptors: quarterly, read as the assigned 90-day frequency. Traps: 30 days. Other devices:
    the ordinance gives none; the ruleset's ``default_frequency_other_days`` applies.
    """
    check_kind(kind)
    if kind == GRAVITY_INTERCEPTOR:
        return ruleset.default_frequency_interceptor_days
    if kind == HYDROMECHANICAL_INTERCEPTOR:
        return ruleset.default_frequency_trap_days
    return ruleset.default_frequency_other_days
