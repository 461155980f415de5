"""Sizing checks for grease control devices per the California Plumbing Code (A4, A5).

The CPC tables and factors are ruleset data (codes change). These are plan-review aids for the
Building Official's approval (A4), not a substitute for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR, check_kind, to_decimal
from fogcontrol.rules.explain import Explanation, explain, fmt_percent
from fogcontrol.rules.ruleset import CPC_FIXTURE_DFU_SOURCES, Ruleset

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
    ``capacity_min_gpm`` is the least rated flow that the fixtures' total capacity allows: they may
    hold at most ``capacity_ratio`` x the rated gpm, in gallons (CPC 1014.2.1).
    ``required_rated_flow_gpm`` is the smallest standard size that carries the flow of the LONGEST
    drain period the ruleset accepts (the least size that complies) and meets the capacity rule;
    None with ``above_table`` when no standard size is large enough.
    """

    fixture_volume_gal: Decimal
    drainage_load_gal: Decimal
    flow_by_drain_minutes: tuple[tuple[int, Decimal, int | None], ...]
    required_rated_flow_gpm: int | None
    above_table: bool
    explanation: Explanation
    capacity_ratio: Decimal = Decimal("2.5")
    capacity_min_gpm: Decimal = Decimal(0)

    def capacity_exceeded(self, rated_gpm: int | Decimal) -> bool:
        """CPC 1014.2.1: do the fixtures hold more than ``capacity_ratio`` x ``rated_gpm`` gallons?"""
        return self.fixture_volume_gal > self.capacity_ratio * Decimal(rated_gpm)


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
    rated size at or above it. The fixtures' total volume may not exceed
    ``cpc_hydromechanical_capacity_ratio`` (2.5) x the rated gpm (CPC 1014.2.1), so the required
    size is also at least volume / 2.5 gpm.
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
    capacity_ratio = ruleset.cpc_hydromechanical_capacity_ratio
    capacity_min = total / capacity_ratio
    least = max(governing[1], capacity_min)
    required = next((gpm for gpm in sizes if gpm >= least), None)
    steps.append(
        f"CPC 1014.2.1: the fixtures may hold at most {capacity_ratio} x the rated flow, so the trap must be "
        f"rated at least {_show(total)} / {capacity_ratio} = {_show(capacity_min)} gpm."
    )
    if required is None:
        steps.append(
            f"No standard size ({', '.join(map(str, sizes))} gpm) meets the load: a larger device or a "
            "gravity interceptor is needed (A4, A5)."
        )
    else:
        steps.append(
            f"Required rated flow: {required} gpm, the smallest standard size that carries the longest "
            f"accepted drain period ({governing[0]} minute(s)) and meets the capacity rule (A5)."
        )
    return HydromechanicalSizing(
        fixture_volume_gal=total,
        drainage_load_gal=load,
        flow_by_drain_minutes=tuple(flows),
        required_rated_flow_gpm=required,
        above_table=required is None,
        explanation=explain(("A5",), steps),
        capacity_ratio=capacity_ratio,
        capacity_min_gpm=capacity_min,
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
    """One line of fixtures for the DFU count (A4).

    ``kind`` is a key of ``ruleset.cpc_fixture_dfu``; ``flow_gpm`` the discharge of an appliance
    with no DFU value (CPC Table 1014.3.6 note 3); ``receptor`` marks an indirect-waste receptor (a
    floor sink), sized by what drains into it; ``has_drain`` False for an appliance with no drain
    connection (a fryer): no load, and nothing unknown.
    """

    kind: str
    label: str
    count: int
    drains_to_device: bool = True
    flow_gpm: Decimal | None = None
    receptor: bool = False
    has_drain: bool = True


@dataclasses.dataclass(frozen=True)
class DfuLoad:
    """A4: the load connected to a gravity interceptor, with the working.

    ``total`` DFU of the fixtures with a value; ``direct_flow_gpm`` the flow of directly connected
    appliances with no DFU value (note 3 of CPC Table 1014.3.6); ``unlisted`` the fixtures whose load
    is unknown (no DFU value and no flow): while any remain, the fixtures' DFUs are not known.
    ``draining_lines`` counts the lines that drain to the device (receptors and no-drain
    appliances aside).
    """

    total: int
    unlisted: tuple[str, ...]
    explanation: Explanation
    direct_flow_gpm: Decimal = Decimal(0)
    receptors: tuple[str, ...] = ()
    draining_lines: int = 0

    @property
    def known(self) -> bool:
        """The fixtures' DFUs are known: something drains to the device and nothing is unknown."""
        return not self.unlisted and (self.draining_lines > 0 or self.direct_flow_gpm > 0)


def drainage_fixture_units(fixtures: Iterable[FixtureLoad], ruleset: Ruleset) -> DfuLoad:
    """A4 (CPC Table 702.1, Table 1014.3.6 note 3): the load of every fixture that drains to the
    interceptor.

    - A fixture with a DFU value in the ruleset counts count x value (the value's table reference
      is shown).
    - An indirect-waste receptor (floor sink) is sized by what drains into it (Table 702.1 note 1);
      those fixtures are counted on their own lines, so the receptor is never counted on top.
    - An appliance with no DFU value but a known flow adds its flow (gpm), for
      ``gravity_interceptor_requirement`` to turn into volume (Table 1014.3.6 note 3).
    - An appliance with no drain adds nothing. Anything else is named as unknown.
    Fixtures that do not drain to the device are left out.
    """
    table = {key: int(value) for key, value in ruleset.cpc_fixture_dfu.items()}
    steps = []
    total = 0
    flow = Decimal(0)
    unlisted: list[str] = []
    receptors: list[str] = []
    draining = 0
    for item in fixtures:
        if item.count < 1:
            raise ValueError(f"count: must be at least 1 ({item.label})")
        if not item.drains_to_device:
            steps.append(f"{item.label}: does not drain to the device; not counted.")
            continue
        if not item.has_drain:
            steps.append(f"{item.label}: no drain connection; no drainage load.")
            continue
        if item.receptor:
            receptors.append(item.label)
            steps.append(
                f"{item.label}: an indirect-waste receptor, sized by the fixtures that drain into it (CPC "
                "Table 702.1 note 1); they are counted on their own lines, so it is not counted again."
            )
            continue
        draining += 1
        dfu = table.get(item.kind)
        if dfu is not None:
            total += dfu * item.count
            source = CPC_FIXTURE_DFU_SOURCES.get(item.kind, "CPC Table 702.1, as in the ruleset")
            steps.append(f"{item.label}: {item.count} x {dfu} DFU = {item.count * dfu} DFU ({source}).")
            continue
        if item.flow_gpm is not None and item.flow_gpm > 0:
            line_flow = to_decimal(item.flow_gpm, "flow_gpm") * item.count
            flow += line_flow
            steps.append(
                f"{item.label}: no drainage fixture unit value; {item.count} x {_show(Decimal(item.flow_gpm))} gpm "
                f"= {_show(line_flow)} gpm, sized by its flow (CPC Table 1014.3.6 note 3)."
            )
            continue
        unlisted.append(item.label)
        steps.append(
            f"{item.label}: no drainage fixture unit value and no flow given: its load is unknown. Give its "
            "flow (gpm), or the interceptor's inlet pipe size (CPC 1014.3.6, Table 703.2)."
        )
    steps.append(
        f"Total connected load: {total} DFU" + (f", plus {_show(flow)} gpm of appliances." if flow else ".")
    )
    return DfuLoad(
        total=total,
        unlisted=tuple(unlisted),
        explanation=explain(("A4",), steps),
        direct_flow_gpm=flow,
        receptors=tuple(receptors),
        draining_lines=draining,
    )


def inlet_pipe_max_dfu(pipe_in: Decimal | int | str, ruleset: Ruleset) -> int | None:
    """A4 (CPC Table 703.2, horizontal drainage piping): the most DFU a pipe of ``pipe_in`` inches
    may carry, from the ruleset; None when the table has no row for that size."""
    size = to_decimal(pipe_in, "inlet_pipe_in")
    for key, dfu in ruleset.cpc_inlet_pipe_max_dfu.items():
        if Decimal(key) == size:
            return int(dfu)
    return None


def inlet_pipe_sizes(ruleset: Ruleset) -> tuple[Decimal, ...]:
    """A4: the pipe sizes (inches) CPC Table 703.2 gives in the ruleset, smallest first."""
    return tuple(sorted(Decimal(key) for key in ruleset.cpc_inlet_pipe_max_dfu))


def fmt_pipe(size: Decimal) -> str:
    """A4: a pipe size as the CPC writes it in decimal inches: 2.50 -> "2.5", 4.00 -> "4"."""
    return format(size.normalize(), "f")


@dataclasses.dataclass(frozen=True)
class GravityRequirement:
    """A4: the gravity interceptor the CPC asks for, from the connected load.

    ``basis`` is "fixtures" (their DFUs) or "inlet_pipe" (where the DFUs are unknown, the most the
    inlet pipe may carry, CPC 1014.3.6 / Table 703.2). ``required_gallons`` = the table size for
    ``basis_dfu`` plus ``flow_volume_gal`` (appliances' flow x minutes, Table 1014.3.6 note 3);
    None when above the table. ``complete`` is False when some load is unknown and no inlet pipe
    size was given: ``required_gallons`` is then a floor, not the size.
    """

    basis: str
    basis_dfu: int
    table: GravitySizing
    flow_gpm: Decimal
    flow_volume_gal: int
    required_gallons: int | None
    above_table: bool
    complete: bool
    inlet_pipe_in: Decimal | None
    explanation: Explanation


def gravity_interceptor_requirement(
    load: DfuLoad, ruleset: Ruleset, *, inlet_pipe_in: Decimal | int | str | None = None
) -> GravityRequirement:
    """A4 (CPC 1014.3.6): the gravity interceptor size for a connected load.

    The fixtures' DFUs when they are known; where they are not (a fixture with no value and no flow,
    or no fixtures listed) and the inlet pipe size is given, the most DFU that pipe may carry (Table
    703.2). To the table size is added the volume of directly connected appliances with no DFU
    value: their flow (gpm) x ``cpc_direct_appliance_minutes`` (30) (Table 1014.3.6 note 3).
    """
    steps: list[str] = []
    pipe = to_decimal(inlet_pipe_in, "inlet_pipe_in") if inlet_pipe_in not in (None, "") else None
    pipe_dfu = inlet_pipe_max_dfu(pipe, ruleset) if pipe is not None else None
    basis, basis_dfu, complete = "fixtures", load.total, True
    if not load.known:
        unknown = ", ".join(load.unlisted) if load.unlisted else "no fixture draining to the device is listed"
        if pipe_dfu is not None:
            basis, basis_dfu = "inlet_pipe", pipe_dfu
            steps.append(
                f"The fixtures' drainage fixture units are not known ({unknown}): the interceptor is sized by "
                f"its {fmt_pipe(pipe)} in inlet pipe, which may carry at most {pipe_dfu} DFU (CPC 1014.3.6, "
                "Table 703.2, horizontal drainage piping)."
            )
            if load.total > pipe_dfu:
                steps.append(
                    f"The listed fixtures alone come to {load.total} DFU, more than a {fmt_pipe(pipe)} in pipe "
                    "may carry: check the plans."
                )
        else:
            complete = False
            steps.append(
                f"The fixtures' drainage fixture units are not known ({unknown}) and "
                + (
                    f"CPC Table 703.2 in the ruleset has no row for a {fmt_pipe(pipe)} in inlet pipe"
                    if pipe is not None
                    else "the inlet pipe size is not given"
                )
                + f": the {load.total} DFU counted give only the least size (CPC 1014.3.6)."
            )
    elif pipe is not None:
        steps.append(f"The fixtures' DFUs are known; the {fmt_pipe(pipe)} in inlet pipe size is not needed.")
    table = gravity_interceptor_size(basis_dfu, ruleset)
    minutes = ruleset.cpc_direct_appliance_minutes
    flow_volume = int((load.direct_flow_gpm * minutes).to_integral_value(rounding=ROUND_CEILING))
    if flow_volume:
        steps.append(
            f"Appliances with no DFU value: {_show(load.direct_flow_gpm)} gpm x {minutes} minutes = "
            f"{flow_volume:,} gallons more (CPC Table 1014.3.6 note 3)."
        )
    required = None if table.required_gallons is None else table.required_gallons + flow_volume
    if required is not None and flow_volume:
        steps.append(f"Required: {table.required_gallons:,} + {flow_volume:,} = {required:,} gallons (A4).")
    explanation = table.explanation.plus(explain(("A4",), steps)) if steps else table.explanation
    return GravityRequirement(
        basis=basis,
        basis_dfu=basis_dfu,
        table=table,
        flow_gpm=load.direct_flow_gpm,
        flow_volume_gal=flow_volume,
        required_gallons=required,
        above_table=table.above_table,
        complete=complete,
        inlet_pipe_in=pipe,
        explanation=explanation,
    )


@dataclasses.dataclass(frozen=True)
class SizingCheck:
    """What the CPC asks, what is installed, and whether it is enough (None: cannot tell)."""

    dfu: DfuLoad
    gravity: GravityRequirement
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


def _gravity_verdict(gravity: GravityRequirement, gallons: int | None) -> tuple[bool | None, str]:
    if gravity.required_gallons is None:
        return (
            None,
            "The load is above the CPC table: the Building Official must approve an engineered size (A4).",
        )
    size = f"{gravity.required_gallons:,} gallons"
    if not gravity.complete:
        if gallons is not None and gallons < gravity.required_gallons:
            return False, (
                f"The installed interceptor ({gallons:,} gallons) is smaller than {size}, the least the CPC asks "
                "for the fixtures counted so far (A4)."
            )
        return None, (
            f"The CPC asks for at least {size}, but some fixtures' load is unknown: give their flow (gpm) or "
            "the inlet pipe size (CPC 1014.3.6, Table 703.2) (A4)."
        )
    if gallons is None:
        return None, f"The CPC asks for {size}; the installed capacity is not recorded."
    if gallons >= gravity.required_gallons:
        return True, f"The installed interceptor ({gallons:,} gallons) meets the CPC size of {size} (A4)."
    return (
        False,
        f"The installed interceptor ({gallons:,} gallons) is smaller than the CPC size of {size} (A4).",
    )


def _trap_verdict(hydro: HydromechanicalSizing | None, gpm: int | None) -> tuple[bool | None, str]:
    if hydro is None:
        return None, "No sink dimensions were given, so the grease trap flow cannot be worked out (A5)."
    if gpm is not None and hydro.capacity_exceeded(gpm):
        return False, (
            f"The fixtures draining to the trap hold {_show(hydro.fixture_volume_gal)} gallons, more than "
            f"{hydro.capacity_ratio} x its rated {gpm} gpm = {_show(hydro.capacity_ratio * gpm)} gallons "
            "(CPC 1014.2.1, A5)."
        )
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
    return (
        False,
        f"The installed trap ({gpm} gpm) is below the CPC rated flow of {hydro.required_rated_flow_gpm} gpm (A5).",
    )


def sizing_verdict(kind, gravity, hydro, gallons, gpm) -> tuple[bool | None, str]:
    """A4 / A5: is the installed device at least the CPC size? True, False, or None when it cannot
    be told (size not recorded, load unknown or above the table, another approved kind), with the
    sentence the reviewer reads. A trap also fails when its fixtures hold more than 2.5 x its rated
    gpm (CPC 1014.2.1)."""
    if kind == GRAVITY_INTERCEPTOR:
        return _gravity_verdict(gravity, gallons)
    if kind == HYDROMECHANICAL_INTERCEPTOR:
        return _trap_verdict(hydro, gpm)
    return None, "The device kind is not stated or is another approved device: the reviewer judges its size."
