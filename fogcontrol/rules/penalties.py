"""Penalty caps: administrative (P3, P5, P7, P10) and judicial (P11).

The caps are maximums for the hearing officer, not amounts: the officer weighs the P7 factors and
records them. Each day a violation continues is a separate offence (P3), so per-day caps multiply
by the number of days, counted inclusively.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from fogcontrol.rules.explain import Explanation, explain, fmt_date, fmt_days, fmt_money
from fogcontrol.rules.ruleset import Ruleset

NO_PERMIT = "no_permit"  # P7(1): failing to obtain or refusing to renew a permit
RECORDS = "records"  # P7(2): failing to furnish or keep service reports or manifests
MAINTENANCE = "maintenance"  # P7(3): not following the maintenance schedule
SSO = "sso"  # P7(4) / P7(5): a sewer system overflow
VIOLATION_KINDS = (NO_PERMIT, RECORDS, MAINTENANCE, SSO)

_DESCRIPTIONS = {
    NO_PERMIT: "failing to obtain or refusing to renew a FOG Permit",
    RECORDS: "failing or refusing to furnish or keep service reports or manifests",
    MAINTENANCE: "failing or refusing to follow the maintenance schedule on the permit",
    SSO: "a sewer system overflow",
}

# P7: what the hearing officer weighs and must record.
P7_FACTORS = (
    "extent of harm caused by the violation",
    "economic benefit derived through the non-compliance",
    "nature and persistence of the violation",
    "length of time over which the violation occurred",
    "corrective action attempted or taken",
)


@dataclasses.dataclass(frozen=True)
class PenaltyCap:
    """The most that may be imposed: ``per_unit`` x ``units`` (days or occurrences)."""

    kind: str
    max_amount: Decimal
    per_unit: Decimal
    units: int
    unit_label: str
    factors: tuple[str, ...]
    explanation: Explanation


def violation_days(first_day: dt.date, last_day: dt.date) -> int:
    """P3: the number of separate daily offences from ``first_day`` to ``last_day``, both counted."""
    if last_day < first_day:
        raise ValueError("last_day: must not be before first_day")
    return (last_day - first_day).days + 1


def violation_days_explained(first_day: dt.date, last_day: dt.date) -> tuple[int, str]:
    """P3: ``violation_days`` with the sentence that shows the count."""
    days = violation_days(first_day, last_day)
    return days, (
        f"The violation continued from {fmt_date(first_day)} to {fmt_date(last_day)}, both days "
        f"counted: {fmt_days(days)}, each a separate offence (P3)."
    )


def _count(value: int | None, name: str) -> int:
    if value is None:
        raise ValueError(f"{name}: required for this kind of violation")
    if isinstance(value, bool) or int(value) != value or value < 0:
        raise ValueError(f"{name}: must be a whole number, zero or more")
    return int(value)


def penalty_cap(
    kind: str,
    *,
    days: int | None = None,
    occurrences: int | None = None,
    under_order: bool = False,
    judicially_recovered: bool = False,
    ruleset: Ruleset,
) -> PenaltyCap:
    """P7 (with P3, P5, P10): the administrative civil penalty cap for one violation.

    ``no_permit``, ``records`` and ``maintenance`` are capped per day (``days``, see
    ``violation_days``); ``sso`` per occurrence (``occurrences``), at the higher rate when the FSE
    was under a revocation, suspension, cease-and-desist or other order (``under_order``). A
    violation already recovered judicially carries no administrative penalty (P10): the cap is 0.
    """
    if kind not in VIOLATION_KINDS:
        raise ValueError(
            f"kind: unknown violation kind {kind!r}; expected one of {', '.join(VIOLATION_KINDS)}"
        )
    if kind == SSO:
        units = _count(occurrences, "occurrences")
        if days is not None:
            raise ValueError("days: an SSO penalty is per occurrence, not per day")
        unit_label = "occurrence"
        per_unit = ruleset.penalty_cap_per_sso_under_order if under_order else ruleset.penalty_cap_per_sso
        clause = "P7(5)" if under_order else "P7(4)"
    else:
        units = _count(days, "days")
        if occurrences is not None:
            raise ValueError("occurrences: this penalty is per day, not per occurrence")
        if under_order:
            raise ValueError("under_order: applies only to SSO penalties")
        unit_label = "day"
        per_unit = {
            NO_PERMIT: ruleset.penalty_cap_no_permit_per_day,
            RECORDS: ruleset.penalty_cap_records_per_day,
            MAINTENANCE: ruleset.penalty_cap_maintenance_per_day,
        }[kind]
        clause = {NO_PERMIT: "P7(1)", RECORDS: "P7(2)", MAINTENANCE: "P7(3)"}[kind]

    provisions = ["P7", "P3"] if unit_label == "day" else ["P7"]
    steps = [f"Violation: {_DESCRIPTIONS[kind]}" + (", while under an order" if under_order else "") + "."]
    steps.append(f"{clause}: not more than {fmt_money(per_unit)} per {unit_label}.")
    if unit_label == "day":
        steps.append(f"Each day is a separate offence (P3): {fmt_days(units, 'day')}.")
    else:
        steps.append(f"Occurrences: {units}.")
    maximum = per_unit * units
    if judicially_recovered:
        provisions.append("P10")
        steps.append(
            f"The Town has already recovered judicial civil penalties for this violation: no administrative "
            f"penalty may be imposed (P10). The cap is {fmt_money(Decimal(0))}."
        )
        maximum = Decimal(0)
    else:
        steps.append(f"Cap: {fmt_money(per_unit)} x {units} = {fmt_money(maximum)}.")
    # P5: "Alternatively ... an administrative citation ... for violations of Subsections (D)(3) and
    # (D)(4)": the maintenance schedule and an SSO. An SSO under an order is (D)(5): complaint only.
    if clause in ("P7(3)", "P7(4)"):
        provisions.append("P5")
        steps.append(
            f"For a violation under {clause} an administrative citation may be issued instead of a "
            "complaint (P5)."
        )
    steps.append("The hearing officer weighs and records: " + "; ".join(P7_FACTORS) + " (P7).")
    return PenaltyCap(
        kind=kind,
        max_amount=maximum,
        per_unit=per_unit,
        units=units,
        unit_label=unit_label,
        factors=P7_FACTORS,
        explanation=explain(provisions, steps),
    )


def judicial_penalty_cap(
    days: int, ruleset: Ruleset, *, administratively_recovered: bool = False
) -> PenaltyCap:
    """P11 (with P3, P10): the judicial civil penalty cap, per day on which any violation occurred.

    A violation for which administrative penalties were recovered carries no judicial penalty (P10).
    """
    units = _count(days, "days")
    per_unit = ruleset.judicial_penalty_cap_per_day
    maximum = per_unit * units
    provisions = ["P11", "P3"]
    steps = [
        f"P11: a civil penalty imposed by the Superior Court of not more than {fmt_money(per_unit)} for each "
        f"day on which a violation was committed, continued or permitted: {fmt_days(units, 'day')}.",
    ]
    if administratively_recovered:
        provisions.append("P10")
        maximum = Decimal(0)
        steps.append(
            "Administrative civil penalties were already recovered for this violation: no judicial "
            f"penalty may be recovered (P10). The cap is {fmt_money(maximum)}."
        )
    else:
        steps.append(f"Cap: {fmt_money(per_unit)} x {units} = {fmt_money(maximum)}.")
    return PenaltyCap(
        kind="judicial",
        max_amount=maximum,
        per_unit=per_unit,
        units=units,
        unit_label="day",
        factors=P7_FACTORS,
        explanation=explain(provisions, steps),
    )
