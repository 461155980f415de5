"""The reviewer's sizing check: what the CPC asks of the device, beside the device installed (A4, A5).

`drainage_fixture_units` is a pure rule (no ORM); it lives here until the rules engine takes it
(fogcontrol.rules.sizing carries the CPC tables). `application_sizing` applies the rules to an
application's fixture list and device and says, with the working, whether the device is big enough.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from decimal import Decimal

from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR
from fogcontrol.rules.explain import Explanation, explain
from fogcontrol.rules.ruleset import Ruleset
from fogcontrol.rules.sizing import (
    Fixture,
    GravitySizing,
    HydromechanicalSizing,
    a4_flags,
    gravity_interceptor_size,
    hydromechanical_size,
)


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


def _verdict(kind, gravity, hydro, gallons, gpm) -> tuple[bool | None, str]:
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


def application_sizing(application, ruleset: Ruleset) -> SizingCheck:
    """A4 / A5 for an application: its fixtures (prefetched) against its device or declared device."""
    fixtures = list(application.fixtures.all())
    device = application.device
    loads = [
        FixtureLoad(item.kind, f"{item.get_kind_display()}{f' ({item.description})' if item.description else ''}",
                    item.count, item.drains_to_device)
        for item in fixtures
    ]  # fmt: skip
    dfu = drainage_fixture_units(loads, ruleset)
    gravity = gravity_interceptor_size(dfu.total, ruleset)
    warnings = []
    trap_fixtures = []
    for item in fixtures:
        if not item.drains_to_device:
            continue
        if item.kind == "dishwasher":
            warnings.append("K4: a dishwasher may not discharge to a grease control device.")
        if item.kind == "food_grinder":
            warnings.append("K1: food grinders are not allowed in new construction; existing ones must go.")
        if item.is_sink:
            if item.has_dimensions:
                compartments = (item.compartments or 1) * item.count
                trap_fixtures.append(
                    Fixture(
                        item.get_kind_display(),
                        compartments,
                        Decimal(item.compartment_length_in),
                        Decimal(item.compartment_width_in),
                        Decimal(item.compartment_depth_in),
                    )
                )
            else:
                warnings.append(
                    f"{item.get_kind_display()}: no compartment dimensions, so it is not in the A5 working."
                )
    hydro = hydromechanical_size(trap_fixtures, ruleset) if trap_fixtures else None
    kind = (device.kind if device else "") or application.device_kind
    gallons = (device.capacity_gallons if device else None) or application.device_capacity_gallons
    gpm = (device.rated_flow_gpm if device else None) or application.device_rated_flow_gpm
    flags: tuple[str, ...] = ()
    if device is not None:
        flags = tuple(device.a4_flags or ()) or a4_flags(
            device.kind, device.compartments, device.manhole_diameter_in, ruleset
        )
    adequate, verdict = _verdict(kind, gravity, hydro, gallons, gpm)
    return SizingCheck(
        dfu=dfu,
        gravity=gravity,
        hydromechanical=hydro,
        device_kind=kind,
        installed_gallons=gallons,
        installed_gpm=gpm,
        adequate=adequate,
        verdict=verdict,
        warnings=tuple(dict.fromkeys(warnings)),
        a4_flags=flags,
    )
