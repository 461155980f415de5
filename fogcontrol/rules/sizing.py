"""Sizing checks for grease control devices per the California Plumbing Code (A4, A5).

The CPC tables and factors are ruleset data (codes change). These are plan-review aids for the
Building Official's approval (A4), not a substitute for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR, check_kind, to_decimal
from fogcontrol.rules.explain import Explanation, explain, fmt_percent
from fogcontrol.rules.ruleset import Ruleset

_CENT = Decimal("0.01")


def _show(value: Decimal) -> Decimal:
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


@dataclasses.dataclass(frozen=True)
class GravitySizing:
    """A4: the required gravity interceptor size for a drainage fixture unit (DFU) load.

    ``required_gallons`` is None and ``above_table`` True when the load exceeds the CPC table:
    the size must then be engineered and approved by the Building Official.
    """

    dfu: int
    required_gallons: int | None
    table_dfu: int | None
    above_table: bool
    explanation: Explanation


def gravity_interceptor_size(dfu: int, ruleset: Ruleset) -> GravitySizing:
    """A4: the smallest CPC gravity interceptor whose DFU row is at least ``dfu``."""
    if isinstance(dfu, bool) or int(dfu) != dfu or dfu < 0:
        raise ValueError("dfu: must be a whole number of drainage fixture units, zero or more")
    dfu = int(dfu)
    table = sorted(ruleset.cpc_gravity_interceptor_table)
    steps = [f"Connected load: {dfu} drainage fixture units (DFU)."]
    for row_dfu, gallons in table:
        if row_dfu >= dfu:
            steps.append(
                f"CPC gravity interceptor table: the first row that carries {dfu} DFU is the "
                f"{row_dfu} DFU row, {gallons} gallons (A4)."
            )
            return GravitySizing(dfu, gallons, row_dfu, False, explain(("A4",), steps))
    largest_dfu, largest_gallons = table[-1] if table else (0, 0)
    steps.append(
        f"The load is above the CPC table (largest row {largest_dfu} DFU, {largest_gallons} gallons): "
        "the interceptor must be engineered and approved by the Building Official (A4)."
    )
    return GravitySizing(dfu, None, None, True, explain(("A4",), steps))


@dataclasses.dataclass(frozen=True)
class Fixture:
    """A fixture draining to a grease trap: ``count`` compartments or fixtures of one size (A5)."""

    kind: str
    count: int
    length_in: Decimal
    width_in: Decimal
    depth_in: Decimal


@dataclasses.dataclass(frozen=True)
class HydromechanicalSizing:
    """A5: the working of a hydromechanical interceptor (grease trap) size.

    ``flow_by_drain_minutes`` holds (drain minutes, flow gpm, smallest standard size or None).
    ``required_rated_flow_gpm`` is the smallest standard size for the LONGEST drain period the
    ruleset accepts (the least size that complies); None with ``above_table`` when no standard
    size is large enough.
    """

    fixture_volume_gal: Decimal
    drainage_load_gal: Decimal
    flow_by_drain_minutes: tuple[tuple[int, Decimal, int | None], ...]
    required_rated_flow_gpm: int | None
    above_table: bool
    explanation: Explanation


def _fixture(value: Fixture | tuple) -> Fixture:
    item = value if isinstance(value, Fixture) else Fixture(*value)
    if isinstance(item.count, bool) or int(item.count) != item.count or item.count < 1:
        raise ValueError(f"count: must be a whole number of at least 1 ({item.kind})")
    dims = {}
    for name in ("length_in", "width_in", "depth_in"):
        number = to_decimal(getattr(item, name), name)
        if number <= 0:
            raise ValueError(f"{name}: must be greater than zero ({item.kind})")
        dims[name] = number
    return Fixture(item.kind, int(item.count), **dims)


def hydromechanical_size(fixtures: Iterable[Fixture | tuple], ruleset: Ruleset) -> HydromechanicalSizing:
    """A5: size a grease trap from the fixtures draining to it (CPC method).

    Volume of each fixture = length x width x depth / 231 cubic inches per gallon, times the count;
    drainage load = total volume x the fixture drainage load ratio (75%); flow = load / drain
    minutes, for each drain period the ruleset accepts; each flow is met by the smallest standard
    rated size at or above it.
    """
    items = [_fixture(value) for value in fixtures]
    if not items:
        raise ValueError("fixtures: at least one fixture is needed")
    per_gallon = Decimal(ruleset.cpc_cubic_inches_per_gallon)
    steps = []
    total = Decimal(0)
    for item in items:
        each = item.length_in * item.width_in * item.depth_in / per_gallon
        total += each * item.count
        steps.append(
            f"{item.kind}: {item.count} x ({item.length_in} x {item.width_in} x {item.depth_in} in "
            f"/ {ruleset.cpc_cubic_inches_per_gallon}) = {item.count} x {_show(each)} = {_show(each * item.count)} gal."
        )
    ratio = ruleset.cpc_fixture_drainage_load_ratio
    load = total * ratio
    steps.append(
        f"Total fixture volume {_show(total)} gal; drainage load at {fmt_percent(ratio)}: {_show(load)} gal."
    )
    sizes = sorted(ruleset.hydromechanical_standard_sizes_gpm)
    flows: list[tuple[int, Decimal, int | None]] = []
    for minutes in sorted(ruleset.cpc_drain_minutes):
        flow = load / minutes
        size = next((gpm for gpm in sizes if gpm >= flow), None)
        flows.append((minutes, flow, size))
        met = f"smallest standard size {size} gpm" if size else "above the largest standard size"
        steps.append(f"Drained in {minutes} minute(s): {_show(flow)} gpm; {met}.")
    governing = flows[-1]
    required = governing[2]
    if required is None:
        steps.append(
            f"No standard size ({', '.join(map(str, sizes))} gpm) meets the load: a larger device or a "
            "gravity interceptor is needed (A4, A5)."
        )
    else:
        steps.append(
            f"Required rated flow: {required} gpm, for the longest accepted drain period "
            f"({governing[0]} minute(s)) (A5)."
        )
    return HydromechanicalSizing(
        fixture_volume_gal=total,
        drainage_load_gal=load,
        flow_by_drain_minutes=tuple(flows),
        required_rated_flow_gpm=required,
        above_table=required is None,
        explanation=explain(("A5",), steps),
    )


def a4_flags(
    kind: str, compartments: int | None, manhole_in: Decimal | int | None, ruleset: Ruleset
) -> tuple[str, ...]:
    """A4: how a gravity interceptor's recorded construction falls short; () when it does not.

    Fewer than ``interceptor_min_compartments`` compartments, or an access manhole under
    ``interceptor_min_manhole_inches``, or either not recorded (the FOG Manager cannot confirm
    compliance without it). A device that falls short is stored and flagged, not refused.
    Each flag is a sentence naming the provision. Other kinds of device: ().
    """
    check_kind(kind)
    if kind != GRAVITY_INTERCEPTOR:
        return ()
    flags = []
    least = ruleset.interceptor_min_compartments
    if compartments is None:
        flags.append(f"A4: number of compartments not recorded (at least {least} required).")
    elif compartments < least:
        flags.append(f"A4: {compartments} compartment(s); at least {least} required.")
    smallest = ruleset.interceptor_min_manhole_inches
    if manhole_in is None:
        flags.append(f"A4: access manhole diameter not recorded (at least {smallest} in required).")
    elif to_decimal(manhole_in, "manhole_in") < smallest:
        flags.append(f"A4: access manhole {manhole_in} in; at least {smallest} in required.")
    return tuple(flags)


# --- The reviewer's check of an application (A4, A5) -------------------------------------------


@dataclasses.dataclass(frozen=True)
class FixtureLoad:
    """One line of fixtures for the DFU count: kind (ruleset key), label, count, drains to the device."""

    kind: str
    label: str
    count: int
    drains_to_device: bool = True


@dataclasses.dataclass(frozen=True)
class DfuLoad:
    """A4: the drainage fixture units connected to a gravity interceptor, with the working."""

    total: int
    unlisted: tuple[str, ...]
    explanation: Explanation


def drainage_fixture_units(fixtures: Iterable[FixtureLoad], ruleset: Ruleset) -> DfuLoad:
    """A4 (CPC Table 702.1): sum the DFU of every fixture that drains to the interceptor.

    Fixtures that do not drain to the device are left out; a kind with no DFU value in the
    ruleset (a fryer, an oven) is named as not counted, so the reviewer sees nothing was missed.
    """
    table = {key: int(value) for key, value in ruleset.cpc_fixture_dfu.items()}
    steps = []
    total = 0
    unlisted = []
    for item in fixtures:
        if item.count < 1:
            raise ValueError(f"count: must be at least 1 ({item.label})")
        if not item.drains_to_device:
            steps.append(f"{item.label}: does not drain to the device; not counted.")
            continue
        dfu = table.get(item.kind)
        if dfu is None:
            unlisted.append(item.label)
            steps.append(
                f"{item.label}: no drainage fixture unit value (an appliance with no drain); not counted."
            )
            continue
        total += dfu * item.count
        steps.append(f"{item.label}: {item.count} x {dfu} DFU = {item.count * dfu} DFU (CPC Table 702.1).")
    steps.append(f"Total connected load: {total} DFU.")
    return DfuLoad(total=total, unlisted=tuple(unlisted), explanation=explain(("A4",), steps))


@dataclasses.dataclass(frozen=True)
class SizingCheck:
    """What the CPC asks, what is installed, and whether it is enough (None: cannot tell)."""

    dfu: DfuLoad
    gravity: GravitySizing
    hydromechanical: HydromechanicalSizing | None
    device_kind: str
    installed_gallons: int | None
    installed_gpm: int | None
    adequate: bool | None
    verdict: str
    warnings: tuple[str, ...]
    a4_flags: tuple[str, ...]

    @property
    def explanation(self) -> Explanation:
        combined = self.dfu.explanation.plus(self.gravity.explanation)
        if self.hydromechanical is not None:
            combined = combined.plus(self.hydromechanical.explanation)
        return combined.plus(explain(("A4", "A5"), (self.verdict,)))


def sizing_verdict(kind, gravity, hydro, gallons, gpm) -> tuple[bool | None, str]:
    """A4 / A5: is the installed device at least the CPC size? True, False, or None when it cannot
    be told (size not recorded, load above the table, another approved kind), with the sentence
    the reviewer reads."""
    if kind == GRAVITY_INTERCEPTOR:
        if gravity.required_gallons is None:
            return (
                None,
                "The load is above the CPC table: the Building Official must approve an engineered size (A4).",
            )
        if gallons is None:
            return (
                None,
                f"The CPC asks for {gravity.required_gallons:,} gallons; the installed capacity is not recorded.",
            )
        if gallons >= gravity.required_gallons:
            return True, (
                f"The installed interceptor ({gallons:,} gallons) meets the CPC size of "
                f"{gravity.required_gallons:,} gallons (A4)."
            )
        return False, (
            f"The installed interceptor ({gallons:,} gallons) is smaller than the CPC size of "
            f"{gravity.required_gallons:,} gallons (A4)."
        )
    if kind == HYDROMECHANICAL_INTERCEPTOR:
        if hydro is None:
            return None, "No sink dimensions were given, so the grease trap flow cannot be worked out (A5)."
        if hydro.required_rated_flow_gpm is None:
            return False, "No standard grease trap meets the load: a gravity interceptor is needed (A4, A5)."
        if gpm is None:
            return (
                None,
                f"The CPC asks for {hydro.required_rated_flow_gpm} gpm; the trap's rated flow is not recorded.",
            )
        if gpm >= hydro.required_rated_flow_gpm:
            return (
                True,
                f"The installed trap ({gpm} gpm) meets the CPC rated flow of {hydro.required_rated_flow_gpm} gpm (A5).",
            )
        return False, (
            f"The installed trap ({gpm} gpm) is below the CPC rated flow of {hydro.required_rated_flow_gpm} gpm (A5)."
        )
    return None, "The device kind is not stated or is another approved device: the reviewer judges its size."
