"""Sampling (D5), Specialty FOG Compliance Charges (D6) and monitoring facilities (D7).

- D5: a grab or composite sample is representative of the FSE's discharge; its lab results are
  judged against the discharge limits in the permit's conditions (D4 "permit discharge
  conditions"). A result outside its limit is non-compliance with the permit (D5).
- D5 chain of custody: the hand-offs of a sample are in order; none precedes the sampling, none goes
  back in time.
- D6: a charge is the actual cost the Town incurred: the quantity (hours, samples, tests) times the
  rate of the fee schedule in force on the day it was incurred, in exact cents.
- D7: monitoring, metering or sampling facilities the FOG Manager requires are due
  ``monitoring_facility_days`` after the requirement (built at the establishment: a last day on a
  weekend or holiday moves to the next day that is neither, CCP §12a; "Counting days" kind 1).

Pure functions over plain data; no clock, no database.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import Deadline, calendar_days_deadline
from fogcontrol.rules.explain import Explanation, explain, fmt_date, fmt_money, say
from fogcontrol.rules.ruleset import Ruleset

CENT = Decimal("0.01")


@dataclasses.dataclass(frozen=True)
class Judgement:
    """A lab result against its permit limit (D5): ``outside`` when it breaks the limit."""

    outside: bool
    provision: str
    explanation: Explanation


def _fmt(value: Decimal) -> str:
    return format(value.normalize(), "f") if value == value.to_integral() else format(value, "f")


def judge_result(
    *,
    analyte: str,
    value: Decimal,
    unit: str,
    limit_min: Decimal | None,
    limit_max: Decimal | None,
    limit_unit: str,
    condition: str,
    provision: str = "D5",
) -> Judgement:
    """D5, D4: a result is judged against the discharge limit the permit's conditions set for its
    analyte (``limit_max`` and, for pH, ``limit_min``). A result in another unit than the limit
    cannot be judged and says so (nothing is converted behind the reader's back)."""
    provisions = (provision, "D4") if provision != "D4" else ("D4",)
    steps = [say("The permit's condition: %(condition)s.", condition=condition)]
    if unit != limit_unit:
        steps.append(
            say(
                "The result is in %(unit)s, the limit in %(limit_unit)s: it cannot be judged against it; enter "
                "the result in the limit's unit.",
                unit=unit,
                limit_unit=limit_unit,
            )
        )
        return Judgement(False, provision, explain(provisions, steps))
    shown = say("%(analyte)s %(value)s %(unit)s", analyte=analyte, value=_fmt(value), unit=unit)
    if limit_max is not None and value > limit_max:
        steps.append(
            say(
                "%(shown)s is above the maximum of %(limit)s %(unit)s: the discharge breaks the limit (%(provision)s).",
                shown=shown,
                limit=_fmt(limit_max),
                unit=unit,
                provision=provision,
            )
        )
        return Judgement(True, provision, explain(provisions, steps))
    if limit_min is not None and value < limit_min:
        steps.append(
            say(
                "%(shown)s is below the minimum of %(limit)s %(unit)s: the discharge breaks the limit (%(provision)s).",
                shown=shown,
                limit=_fmt(limit_min),
                unit=unit,
                provision=provision,
            )
        )
        return Judgement(True, provision, explain(provisions, steps))
    steps.append(say("%(shown)s is within the limit.", shown=shown))
    return Judgement(False, provision, explain(provisions, steps))


def custody_refusal(
    *, sampled_at: dt.datetime, previous_at: dt.datetime | None, at: dt.datetime
) -> str | None:
    """D5 chain of custody: a hand-off cannot precede the sampling, nor the hand-off before it.
    Returns why a hand-off at ``at`` is refused, or None when it is in order."""
    if at < sampled_at:
        return say(
            "A hand-off cannot come before the sample was taken (%(sampled_at)s): check the time (D5 chain of "
            "custody).",
            sampled_at=f"{sampled_at:%Y-%m-%d %H:%M}",
        )
    if previous_at is not None and at < previous_at:
        return say(
            "The hand-offs are in order: this one cannot come before the last one (%(previous_at)s). Check the "
            "time (D5 chain of custody).",
            previous_at=f"{previous_at:%Y-%m-%d %H:%M}",
        )
    return None


# D6's units, in the working's words (said again in the reader's language, issue 18).
_UNITS = {
    "hours": (say("hours"), say("hour")),
    "samples": (say("samples"), say("sample")),
    "tests": (say("tests"), say("test")),
}


@dataclasses.dataclass(frozen=True)
class ChargeAmount:
    """D6: quantity x rate, in exact cents, with the working."""

    amount: Decimal
    explanation: Explanation


def compliance_charge_amount(
    *, quantity: Decimal, rate: Decimal, unit: str, what: str, schedule_label: str, on: dt.date
) -> ChargeAmount:
    """D6: the Specialty FOG Compliance Charge is the actual cost the Town incurred: ``quantity``
    (hours, samples, tests) at the ``rate`` of the fee schedule in force on the day it was incurred,
    rounded half up to the cent."""
    amount = (quantity * rate).quantize(CENT, rounding=ROUND_HALF_UP)
    units, each = _UNITS.get(unit) or (unit, unit.rstrip("s"))
    steps = (
        say(
            "%(what)s on %(on)s: the fee schedule in force that day is %(schedule)s.",
            what=what,
            on=fmt_date(on),
            schedule=schedule_label,
        ),
        say(
            "%(quantity)s %(unit)s at %(rate)s per %(each)s = %(amount)s.",
            quantity=_fmt(quantity),
            unit=units,
            rate=fmt_money(rate),
            each=each,
            amount=fmt_money(amount),
        ),
    )
    return ChargeAmount(amount, explain(("D6",), steps))


def monitoring_facility_due(required_on: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """D7: monitoring, metering or sampling facilities the FOG Manager requires are due
    ``monitoring_facility_days`` after the requirement ("Counting days" kind 1, built at the
    establishment: a weekend or holiday moves the last day, a Town closure day does not)."""
    return calendar_days_deadline(
        slug="D7-facility",
        provision="D7",
        title=say("Monitoring facility due"),
        start=required_on,
        start_what=say("the day the FOG Manager required the facility"),
        days=ruleset.monitoring_facility_days,
        act=say("Installing the facility"),
        lapse_label=say("The facility is overdue (D7)"),
        calendar=calendar,
        what=say("building a facility at the establishment"),
        office_act=False,
    )
