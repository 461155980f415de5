"""The reviewer's sizing check: what the CPC asks of the device, beside the device installed (A4, A5).

`application_sizing` reads an application's fixture list and device and hands them to the pure
rules in fogcontrol.rules.sizing, which say, with the working, whether the device is big enough.
"""

from __future__ import annotations

from decimal import Decimal

from fogcontrol.rules.explain import say
from fogcontrol.rules.ruleset import Ruleset
from fogcontrol.rules.sizing import (
    Fixture,
    FixtureLoad,
    a4_flags,
    drainage_fixture_units,
    gravity_interceptor_requirement,
    hydromechanical_size,
)
from fogcontrol.rules.sizing_verdict import SizingCheck, sizing_verdict


def application_sizing(application, ruleset: Ruleset) -> SizingCheck:
    """A4 / A5 for an application: its fixtures (prefetched) against its device or declared device.

    Floor sinks are indirect-waste receptors (never counted on top of what drains into them),
    fryers, ranges and ovens have no drain, an appliance's flow counts where it has no DFU value,
    and the inlet pipe size sizes the interceptor where the fixtures' DFUs are unknown.
    """
    fixtures = list(application.fixtures.all())
    device = application.device
    loads = [
        FixtureLoad(item.kind, f"{item.get_kind_display()}{f' ({item.description})' if item.description else ''}",
                    item.count, item.drains_to_device, flow_gpm=item.flow_gpm,
                    receptor=item.is_receptor, has_drain=item.has_drain)
        for item in fixtures
    ]  # fmt: skip
    dfu = drainage_fixture_units(loads, ruleset)
    gravity = gravity_interceptor_requirement(dfu, ruleset, inlet_pipe_in=application.inlet_pipe_size_in)
    warnings = []
    trap_fixtures = []
    for item in fixtures:
        if not item.drains_to_device:
            continue
        if item.kind == "dishwasher":
            warnings.append(say("K4: a dishwasher may not discharge to a grease control device."))
        if item.kind == "food_grinder":
            warnings.append(
                say("K1: food grinders are not allowed in new construction; existing ones must go.")
            )
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
                    say(
                        "%(fixture)s: no compartment dimensions, so it is not in the A5 working.",
                        fixture=item.get_kind_display(),
                    )
                )
    hydro = hydromechanical_size(trap_fixtures, ruleset) if trap_fixtures else None
    kind = (device.kind if device else "") or application.device_kind
    gallons = (device.capacity_gallons if device else None) or application.device_capacity_gallons
    gpm = (device.rated_flow_gpm if device else None) or application.device_rated_flow_gpm
    flags: tuple[str, ...] = ()
    if device is not None:
        live = a4_flags(device.kind, device.compartments, device.manhole_diameter_in, ruleset)
        stored = tuple(device.a4_flags or ())
        # The flags stored with the device; said again in the reader's language when the rules say the same.
        flags = live if not stored or stored == live else stored
    adequate, verdict = sizing_verdict(kind, gravity, hydro, gallons, gpm)
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
