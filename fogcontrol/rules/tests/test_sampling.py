"""D5 results against the permit's limits and the chain of custody, D6 charge amounts, D7 facility
due dates ("Counting days" kind 1)."""

import dataclasses
import datetime as dt
from decimal import Decimal

import pytest

from fogcontrol.rules.sampling import (
    compliance_charge_amount,
    custody_refusal,
    judge_result,
    monitoring_facility_due,
)
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, NINE_EIGHTY_FRIDAY, RULES, d

UTC = dt.UTC


def _judge(value, unit="mg/L", **limit):
    limit.setdefault("limit_min", None)
    limit.setdefault("limit_max", Decimal("100"))
    limit.setdefault("limit_unit", "mg/L")
    return judge_result(analyte="FOG", value=Decimal(value), unit=unit, condition="FOG ≤ 100 mg/L", **limit)


@pytest.mark.provision("D5")
def test_d5_a_result_above_the_maximum_breaks_the_limit_and_equal_does_not():
    assert _judge("100.0001").outside and not _judge("100").outside
    assert _judge("250").explanation.provisions == ("D5", "D4")


@pytest.mark.provision("D5")
def test_d5_a_ph_below_the_minimum_breaks_the_limit():
    judged = _judge("5.4", unit="s.u.", limit_min=Decimal("5.5"), limit_max=Decimal("9.5"), limit_unit="s.u.")
    assert judged.outside and "below the minimum of 5.5" in judged.explanation.steps[-1]


@pytest.mark.provision("D5")
def test_d5_a_result_in_another_unit_is_not_judged_and_says_so():
    judged = _judge("250", unit="degF")
    assert not judged.outside and "cannot be judged" in judged.explanation.steps[-1]


@pytest.mark.provision("D5")
def test_d5_custody_never_precedes_the_sampling_nor_the_previous_hand_off():
    taken = dt.datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    assert custody_refusal(sampled_at=taken, previous_at=None, at=taken) is None
    assert "before the sample was taken" in custody_refusal(
        sampled_at=taken, previous_at=None, at=taken - dt.timedelta(minutes=1)
    )
    later = taken + dt.timedelta(hours=3)
    assert "before the last one" in custody_refusal(
        sampled_at=taken, previous_at=later, at=later - dt.timedelta(hours=1)
    )


@pytest.mark.provision("D6")
def test_d6_the_amount_is_quantity_times_rate_rounded_half_up_to_the_cent():
    charged = compliance_charge_amount(
        quantity=Decimal("1.25"), rate=Decimal("95.10"), unit="hours", what="Follow-up inspection",
        schedule_label="Res. 2026-3", on=d("2026-03-02"),
    )  # fmt: skip
    assert charged.amount == Decimal("118.88")  # 118.875 → 118.88
    assert charged.explanation.provisions == ("D6",) and "Res. 2026-3" in charged.explanation.steps[0]


@pytest.mark.provision("D7")
def test_d7_a_facility_is_due_the_ruleset_days_later_moved_off_a_weekend():
    due = monitoring_facility_due(d("2026-01-05"), ruleset=RULES, calendar=CALENDAR)
    assert RULES.monitoring_facility_days == 90
    assert (due.nominal_due, due.due, due.lapses_on) == (d("2026-04-05"), d("2026-04-06"), d("2026-04-07"))
    shorter = monitoring_facility_due(
        d("2026-01-05"), ruleset=dataclasses.replace(RULES, monitoring_facility_days=30), calendar=CALENDAR
    )
    assert shorter.due == d("2026-02-04")


@pytest.mark.provision("D7")
def test_d7_a_town_closure_day_does_not_move_a_facility_built_at_the_establishment():
    start = NINE_EIGHTY_FRIDAY - dt.timedelta(days=90)
    due = monitoring_facility_due(start, ruleset=RULES, calendar=CALENDAR_WITH_CLOSURE)
    assert due.due == NINE_EIGHTY_FRIDAY
