"""Sizing checks for grease control devices per the California Plumbing Code (A4, A5).

The CPC tables and factors are ruleset data (codes change). These are plan-review aids for the
Building Official's approval (A4), not a substitute for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR, check_kind, to_decimal
from fogcontrol.rules.explain import Explanation, explain, fmt_percent, say
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
    steps = [say("Connected load: %(dfu)s drainage fixture units (DFU).", dfu=dfu)]
    for row_dfu, gallons in table:
        if row_dfu >= dfu:
            steps.append(
                say(
                    "CPC gravity interceptor table: the first row that carries %(dfu)s DFU is the %(row)s DFU row, "
                    "%(gallons)s gallons (A4).",
                    dfu=dfu,
                    row=row_dfu,
                    gallons=gallons,
                )
            )
            return GravitySizing(dfu, gallons, row_dfu, False, explain(("A4",), steps))
    largest_dfu, largest_gallons = table[-1] if table else (0, 0)
    steps.append(
        say(
            "The load is above the CPC table (largest row %(dfu)s DFU, %(gallons)s gallons): the interceptor "
            "must be engineered and approved by the Building Official (A4).",
            dfu=largest_dfu,
            gallons=largest_gallons,
        )
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
            say(
                "%(kind)s: %(count)s x (%(length)s x %(width)s x %(depth)s in / %(per_gallon)s) = %(count)s x "
                "%(each)s = %(volume)s gal.",
                kind=item.kind,
                count=item.count,
                length=item.length_in,
                width=item.width_in,
                depth=item.depth_in,
                per_gallon=ruleset.cpc_cubic_inches_per_gallon,
                each=_show(each),
                volume=_show(each * item.count),
            )
        )
    ratio = ruleset.cpc_fixture_drainage_load_ratio
    load = total * ratio
    steps.append(
        say(
            "Total fixture volume %(total)s gal; drainage load at %(ratio)s: %(load)s gal.",
            total=_show(total),
            ratio=fmt_percent(ratio),
            load=_show(load),
        )
    )
    sizes = sorted(ruleset.hydromechanical_standard_sizes_gpm)
    flows: list[tuple[int, Decimal, int | None]] = []
    for minutes in sorted(ruleset.cpc_drain_minutes):
        flow = load / minutes
        size = next((gpm for gpm in sizes if gpm >= flow), None)
        flows.append((minutes, flow, size))
        met = (
            say("smallest standard size %(size)s gpm", size=size)
            if size
            else say("above the largest standard size")
        )
        steps.append(
            say(
                "Drained in %(minutes)s minute(s): %(flow)s gpm; %(met)s.",
                minutes=minutes,
                flow=_show(flow),
                met=met,
            )
        )
    governing = flows[-1]
    capacity_ratio = ruleset.cpc_hydromechanical_capacity_ratio
    capacity_min = total / capacity_ratio
    least = max(governing[1], capacity_min)
    required = next((gpm for gpm in sizes if gpm >= least), None)
    steps.append(
        say(
            "CPC 1014.2.1: the fixtures may hold at most %(ratio)s x the rated flow, so the trap must be rated "
            "at least %(total)s / %(ratio)s = %(least)s gpm.",
            ratio=capacity_ratio,
            total=_show(total),
            least=_show(capacity_min),
        )
    )
    if required is None:
        steps.append(
            say(
                "No standard size (%(sizes)s gpm) meets the load: a larger device or a gravity interceptor is "
                "needed (A4, A5).",
                sizes=", ".join(map(str, sizes)),
            )
        )
    else:
        steps.append(
            say(
                "Required rated flow: %(required)s gpm, the smallest standard size that carries the longest "
                "accepted drain period (%(minutes)s minute(s)) and meets the capacity rule (A5).",
                required=required,
                minutes=governing[0],
            )
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
        flags.append(
            say("A4: number of compartments not recorded (at least %(least)s required).", least=least)
        )
    elif compartments < least:
        flags.append(
            say("A4: %(count)s compartment(s); at least %(least)s required.", count=compartments, least=least)
        )
    smallest = ruleset.interceptor_min_manhole_inches
    if manhole_in is None:
        flags.append(
            say("A4: access manhole diameter not recorded (at least %(least)s in required).", least=smallest)
        )
    elif to_decimal(manhole_in, "manhole_in") < smallest:
        flags.append(
            say(
                "A4: access manhole %(size)s in; at least %(least)s in required.",
                size=manhole_in,
                least=smallest,
            )
        )
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
            steps.append(say("%(label)s: does not drain to the device; not counted.", label=item.label))
            continue
        if not item.has_drain:
            steps.append(say("%(label)s: no drain connection; no drainage load.", label=item.label))
            continue
        if item.receptor:
            receptors.append(item.label)
            steps.append(
                say(
                    "%(label)s: an indirect-waste receptor, sized by the fixtures that drain into it (CPC Table "
                    "702.1 note 1); they are counted on their own lines, so it is not counted again.",
                    label=item.label,
                )
            )
            continue
        draining += 1
        dfu = table.get(item.kind)
        if dfu is not None:
            total += dfu * item.count
            source = CPC_FIXTURE_DFU_SOURCES.get(item.kind) or say("CPC Table 702.1, as in the ruleset")
            steps.append(
                say(
                    "%(label)s: %(count)s x %(dfu)s DFU = %(total)s DFU (%(source)s).",
                    label=item.label,
                    count=item.count,
                    dfu=dfu,
                    total=item.count * dfu,
                    source=source,
                )
            )
            continue
        if item.flow_gpm is not None and item.flow_gpm > 0:
            line_flow = to_decimal(item.flow_gpm, "flow_gpm") * item.count
            flow += line_flow
            steps.append(
                say(
                    "%(label)s: no drainage fixture unit value; %(count)s x %(gpm)s gpm = %(flow)s gpm, sized by "
                    "its flow (CPC Table 1014.3.6 note 3).",
                    label=item.label,
                    count=item.count,
                    gpm=_show(Decimal(item.flow_gpm)),
                    flow=_show(line_flow),
                )
            )
            continue
        unlisted.append(item.label)
        steps.append(
            say(
                "%(label)s: no drainage fixture unit value and no flow given: its load is unknown. Give its flow "
                "(gpm), or the interceptor's inlet pipe size (CPC 1014.3.6, Table 703.2).",
                label=item.label,
            )
        )
    steps.append(
        say(
            "Total connected load: %(total)s DFU, plus %(flow)s gpm of appliances.",
            total=total,
            flow=_show(flow),
        )
        if flow
        else say("Total connected load: %(total)s DFU.", total=total)
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
        unknown = (
            ", ".join(load.unlisted) if load.unlisted else say("no fixture draining to the device is listed")
        )
        if pipe_dfu is not None:
            basis, basis_dfu = "inlet_pipe", pipe_dfu
            steps.append(
                say(
                    "The fixtures' drainage fixture units are not known (%(unknown)s): the interceptor is sized by "
                    "its %(pipe)s in inlet pipe, which may carry at most %(dfu)s DFU (CPC 1014.3.6, Table 703.2, "
                    "horizontal drainage piping).",
                    unknown=unknown,
                    pipe=fmt_pipe(pipe),
                    dfu=pipe_dfu,
                )
            )
            if load.total > pipe_dfu:
                steps.append(
                    say(
                        "The listed fixtures alone come to %(total)s DFU, more than a %(pipe)s in pipe may carry: "
                        "check the plans.",
                        total=load.total,
                        pipe=fmt_pipe(pipe),
                    )
                )
        else:
            complete = False
            steps.append(
                say(
                    "The fixtures' drainage fixture units are not known (%(unknown)s) and CPC Table 703.2 in the "
                    "ruleset has no row for a %(pipe)s in inlet pipe: the %(total)s DFU counted give only the "
                    "least size (CPC 1014.3.6).",
                    unknown=unknown,
                    pipe=fmt_pipe(pipe),
                    total=load.total,
                )
                if pipe is not None
                else say(
                    "The fixtures' drainage fixture units are not known (%(unknown)s) and the inlet pipe size is "
                    "not given: the %(total)s DFU counted give only the least size (CPC 1014.3.6).",
                    unknown=unknown,
                    total=load.total,
                )
            )
    elif pipe is not None:
        steps.append(
            say(
                "The fixtures' DFUs are known; the %(pipe)s in inlet pipe size is not needed.",
                pipe=fmt_pipe(pipe),
            )
        )
    table = gravity_interceptor_size(basis_dfu, ruleset)
    minutes = ruleset.cpc_direct_appliance_minutes
    flow_volume = int((load.direct_flow_gpm * minutes).to_integral_value(rounding=ROUND_CEILING))
    if flow_volume:
        steps.append(
            say(
                "Appliances with no DFU value: %(gpm)s gpm x %(minutes)s minutes = %(volume)s gallons more (CPC "
                "Table 1014.3.6 note 3).",
                gpm=_show(load.direct_flow_gpm),
                minutes=minutes,
                volume=f"{flow_volume:,}",
            )
        )
    required = None if table.required_gallons is None else table.required_gallons + flow_volume
    if required is not None and flow_volume:
        steps.append(
            say(
                "Required: %(table)s + %(flow)s = %(required)s gallons (A4).",
                table=f"{table.required_gallons:,}",
                flow=f"{flow_volume:,}",
                required=f"{required:,}",
            )
        )
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
