"""The sizing verdict: is the installed device at least what the CPC asks (A4, A5)?

Split from ``fogcontrol.rules.sizing`` (the load and the sizes): the reviewer's check of an
application puts them side by side with the device installed, and says the verdict in a sentence.
"""

from __future__ import annotations

import dataclasses
from decimal import ROUND_HALF_UP, Decimal

from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR
from fogcontrol.rules.explain import Explanation, explain, say
from fogcontrol.rules.sizing import DfuLoad, GravityRequirement, HydromechanicalSizing

_CENT = Decimal("0.01")


def _show(value: Decimal) -> Decimal:
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


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
            say(
                "The load is above the CPC table: the Building Official must approve an engineered size (A4)."
            ),
        )
    size = say("%(gallons)s gallons", gallons=f"{gravity.required_gallons:,}")
    if not gravity.complete:
        if gallons is not None and gallons < gravity.required_gallons:
            return False, say(
                "The installed interceptor (%(gallons)s gallons) is smaller than %(size)s, the least the CPC asks "
                "for the fixtures counted so far (A4).",
                gallons=f"{gallons:,}",
                size=size,
            )
        return None, say(
            "The CPC asks for at least %(size)s, but some fixtures' load is unknown: give their flow (gpm) or the "
            "inlet pipe size (CPC 1014.3.6, Table 703.2) (A4).",
            size=size,
        )
    if gallons is None:
        return None, say("The CPC asks for %(size)s; the installed capacity is not recorded.", size=size)
    if gallons >= gravity.required_gallons:
        return True, say(
            "The installed interceptor (%(gallons)s gallons) meets the CPC size of %(size)s (A4).",
            gallons=f"{gallons:,}",
            size=size,
        )
    return (
        False,
        say(
            "The installed interceptor (%(gallons)s gallons) is smaller than the CPC size of %(size)s (A4).",
            gallons=f"{gallons:,}",
            size=size,
        ),
    )


def _trap_verdict(hydro: HydromechanicalSizing | None, gpm: int | None) -> tuple[bool | None, str]:
    if hydro is None:
        return None, say("No sink dimensions were given, so the grease trap flow cannot be worked out (A5).")
    if gpm is not None and hydro.capacity_exceeded(gpm):
        return False, say(
            "The fixtures draining to the trap hold %(volume)s gallons, more than %(ratio)s x its rated %(gpm)s "
            "gpm = %(most)s gallons (CPC 1014.2.1, A5).",
            volume=_show(hydro.fixture_volume_gal),
            ratio=hydro.capacity_ratio,
            gpm=gpm,
            most=_show(hydro.capacity_ratio * gpm),
        )
    if hydro.required_rated_flow_gpm is None:
        return False, say("No standard grease trap meets the load: a gravity interceptor is needed (A4, A5).")
    required = hydro.required_rated_flow_gpm
    if gpm is None:
        return (
            None,
            say(
                "The CPC asks for %(required)s gpm; the trap's rated flow is not recorded.", required=required
            ),
        )
    if gpm >= required:
        return (
            True,
            say(
                "The installed trap (%(gpm)s gpm) meets the CPC rated flow of %(required)s gpm (A5).",
                gpm=gpm,
                required=required,
            ),
        )
    return (
        False,
        say(
            "The installed trap (%(gpm)s gpm) is below the CPC rated flow of %(required)s gpm (A5).",
            gpm=gpm,
            required=required,
        ),
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
    return None, say(
        "The device kind is not stated or is another approved device: the reviewer judges its size."
    )
