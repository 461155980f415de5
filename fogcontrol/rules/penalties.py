"""Penalty caps: administrative (P3, P5, P7, P10) and judicial (P11).

The caps are maximums for the hearing officer, not amounts: the officer weighs the P7 factors and
records them. Each day a violation continues is a separate offence (P3), so per-day caps multiply
by the number of days, counted inclusively.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from fogcontrol.rules.explain import (
    Explanation,
    Sentence,
    explain,
    fmt_date,
    fmt_days,
    fmt_money,
    joined,
    say,
)
from fogcontrol.rules.ruleset import Ruleset

NO_PERMIT = "no_permit"  # P7(1): failing to obtain or refusing to renew a permit
RECORDS = "records"  # P7(2): failing to furnish or keep service reports or manifests
MAINTENANCE = "maintenance"  # P7(3): not following the maintenance schedule
SSO = "sso"  # P7(4) / P7(5): a sewer system overflow
VIOLATION_KINDS = (NO_PERMIT, RECORDS, MAINTENANCE, SSO)

_DESCRIPTIONS = {
    NO_PERMIT: say("failing to obtain or refusing to renew a FOG Permit"),
    RECORDS: say("failing or refusing to furnish or keep service reports or manifests"),
    MAINTENANCE: say("failing or refusing to follow the maintenance schedule on the permit"),
    SSO: say("a sewer system overflow"),
}

# P7: what the hearing officer weighs and must record.
P7_FACTORS = (
    say("extent of harm caused by the violation"),
    say("economic benefit derived through the non-compliance"),
    say("nature and persistence of the violation"),
    say("length of time over which the violation occurred"),
    say("corrective action attempted or taken"),
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


def violation_days_explained(first_day: dt.date, last_day: dt.date) -> tuple[int, Sentence]:
    """P3: ``violation_days`` with the sentence that shows the count."""
    days = violation_days(first_day, last_day)
    return days, say(
        "The violation continued from %(first)s to %(last)s, both days counted: %(days)s, each a "
        "separate offence (P3).",
        first=fmt_date(first_day),
        last=fmt_date(last_day),
        days=fmt_days(days),
    )


def _cap_line(per_unit: Decimal, units: int, maximum: Decimal) -> Sentence:
    return say(
        "Cap: %(per_unit)s x %(units)s = %(maximum)s.",
        per_unit=fmt_money(per_unit),
        units=units,
        maximum=fmt_money(maximum),
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
    if under_order:
        steps = [say("Violation: %(violation)s, while under an order.", violation=_DESCRIPTIONS[kind])]
    else:
        steps = [say("Violation: %(violation)s.", violation=_DESCRIPTIONS[kind])]
    if unit_label == "day":
        steps.append(
            say("%(clause)s: not more than %(cap)s per day.", clause=clause, cap=fmt_money(per_unit))
        )
        steps.append(say("Each day is a separate offence (P3): %(days)s.", days=fmt_days(units, "day")))
    else:
        steps.append(
            say("%(clause)s: not more than %(cap)s per occurrence.", clause=clause, cap=fmt_money(per_unit))
        )
        steps.append(say("Occurrences: %(units)s.", units=units))
    maximum = per_unit * units
    if judicially_recovered:
        provisions.append("P10")
        steps.append(
            say(
                "The Town has already recovered judicial civil penalties for this violation: no administrative "
                "penalty may be imposed (P10). The cap is %(cap)s.",
                cap=fmt_money(Decimal(0)),
            )
        )
        maximum = Decimal(0)
    else:
        steps.append(_cap_line(per_unit, units, maximum))
    # P5: "Alternatively ... an administrative citation ... for violations of Subsections (D)(3) and
    # (D)(4)": the maintenance schedule and an SSO. An SSO under an order is (D)(5): complaint only.
    if clause in ("P7(3)", "P7(4)"):
        provisions.append("P5")
        steps.append(
            say(
                "For a violation under %(clause)s an administrative citation may be issued instead of a "
                "complaint (P5).",
                clause=clause,
            )
        )
    steps.append(
        say("The hearing officer weighs and records: %(factors)s (P7).", factors=joined(list(P7_FACTORS)))
    )
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
        say(
            "P11: a civil penalty imposed by the Superior Court of not more than %(cap)s for each "
            "day on which a violation was committed, continued or permitted: %(days)s.",
            cap=fmt_money(per_unit),
            days=fmt_days(units, "day"),
        ),
    ]
    if administratively_recovered:
        provisions.append("P10")
        maximum = Decimal(0)
        steps.append(
            say(
                "Administrative civil penalties were already recovered for this violation: no judicial "
                "penalty may be recovered (P10). The cap is %(cap)s.",
                cap=fmt_money(maximum),
            )
        )
    else:
        steps.append(_cap_line(per_unit, units, maximum))
    return PenaltyCap(
        kind="judicial",
        max_amount=maximum,
        per_unit=per_unit,
        units=units,
        unit_label="day",
        factors=P7_FACTORS,
        explanation=explain(provisions, steps),
    )
