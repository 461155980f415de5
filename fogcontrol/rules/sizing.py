"""Device construction and sizing checks (A4, A5)."""

from __future__ import annotations

from decimal import Decimal

from fogcontrol.rules.ruleset import Ruleset

GRAVITY_INTERCEPTOR = "gravity_interceptor"


def a4_flags(
    kind: str, compartments: int | None, manhole_in: Decimal | float | None, ruleset: Ruleset
) -> tuple[str, ...]:
    """A4: a grease interceptor has at least the minimum compartments and an access manhole of at
    least the minimum diameter. A device that falls short is stored and flagged, not refused.

    Each flag is a sentence naming the provision; an unknown value is flagged too, since the
    FOG Manager cannot confirm compliance without it.
    """
    if kind != GRAVITY_INTERCEPTOR:
        return ()
    flags = []
    minimum_compartments = ruleset.interceptor_min_compartments
    minimum_manhole = ruleset.interceptor_min_manhole_inches
    if compartments is None:
        flags.append(f"A4: number of compartments not recorded (at least {minimum_compartments} required).")
    elif compartments < minimum_compartments:
        flags.append(f"A4: {compartments} compartment(s); at least {minimum_compartments} required.")
    if manhole_in is None:
        flags.append(f"A4: access manhole diameter not recorded (at least {minimum_manhole} in required).")
    elif Decimal(str(manhole_in)) < minimum_manhole:
        flags.append(f"A4: access manhole {manhole_in} in; at least {minimum_manhole} in required.")
    return tuple(flags)
