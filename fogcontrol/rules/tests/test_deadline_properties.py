"""Properties of every deadline, by the kind of limit it is ("Counting days", revised 2026-11-30).

1. What a person owes the Town: due >= the nominal day; it lands on the first day that is not a
   holiday (CCP §12a) and, for an act at the Town's office, on the first business day (§12b).
2. The Town's own maxima: latest <= the limit, a business day, the last one on or before it.
3. Minimums: earliest usable date >= the floor, a business day, the first one on or after it.
Maintenance (E1, E2): due == start + frequency, whatever the calendar.
"""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar
from fogcontrol.rules.counting import (
    LIMIT_BUSINESS_DAYS,
    LIMIT_MAINTENANCE,
    LIMIT_MINIMUM,
    LIMIT_OWED,
    LIMIT_TOWN_MAXIMUM,
)
from fogcontrol.rules.deadlines import DEADLINE_RULES, compute_deadline
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.rules.maintenance import next_service_due
from fogcontrol.rules.tests.helpers import RULES

STARTS = st.dates(dt.date(2024, 1, 1), dt.date(2028, 12, 31))
# G1 is counted backwards from the planned start of the work; it is tested on its own.
FORWARD_SLUGS = [slug for slug in DEADLINE_RULES if slug != "G1"]
OWED = ["B6", "C4", "K1", "N1", "P6", "P8", "P9", "Q1"]
AT_THE_OFFICE = {"B6", "N1", "P6", "P8", "P9", "Q1"}
TOWN_MAXIMA = ["L2", "L3", "L4", "P5", "D8"]
MINIMUMS = ["L2", "B7", "G1-start", "F5"]
FREQUENCIES = st.sampled_from(RULES.allowed_frequencies_days)


def _random_days(draw, size):
    return draw(st.lists(st.dates(dt.date(2024, 1, 1), dt.date(2031, 12, 31)), max_size=size))


@st.composite
def calendars(draw):
    """The standard holidays, some random extra holidays, and random closure days (9/80 Fridays and
    others), kept apart as the Town's calendar keeps them."""
    holidays = {}
    for year in range(2024, 2032):
        holidays.update(standard_town_holidays(year))
    holidays.update({day: "Town holiday" for day in _random_days(draw, 20)})
    closures = {day: "Town closure" for day in _random_days(draw, 40)}
    fridays = draw(st.booleans())
    if fridays:  # every other Friday closed, as on a 9/80 schedule
        first = dt.date(2024, 1, 5)
        closures.update({first + dt.timedelta(days=14 * n): "9/80 closure Friday" for n in range(420)})
    return TownCalendar(holidays=holidays, closures=closures)


RULESETS = st.builds(
    RULES.replace,
    fee_delinquency_days=st.integers(0, 120),
    penalty_payment_days=st.integers(0, 120),
    lien_delinquency_days=st.integers(0, 120),
    spill_report_working_days=st.integers(0, 20),
    revocation_hearing_min_days=st.integers(0, 30),
    revocation_hearing_max_days=st.integers(30, 90),
    hearing_continuance_max_days=st.integers(1, 120),
    hearing_decision_days=st.integers(1, 60),
    complaint_hearing_days=st.integers(1, 120),
    frequency_change_notice_days=st.integers(0, 30),
    remodel_notice_days=st.integers(0, 120),
    permit_term_years=st.integers(1, 3),
    service_grace_days=st.integers(0, 10),
)


def compute(slug, start, ruleset, calendar, frequency=90):
    return compute_deadline(slug, start, ruleset=ruleset, calendar=calendar, frequency_days=frequency)


def days_between(first, last):
    """Every day from ``first`` up to, not including, ``last``."""
    day = first
    while day < last:
        yield day
        day += ONE_DAY


@pytest.mark.provision("Counting days")
@settings(max_examples=150, deadline=None)
@given(slug=st.sampled_from(FORWARD_SLUGS), start=STARTS, calendar=calendars(), ruleset=RULESETS)
def test_counting_days_deadline_never_before_start_and_status_changes_the_day_after(
    slug, start, calendar, ruleset
):
    result = compute(slug, start, ruleset, calendar)
    for value in (result.due, result.nominal_due, result.earliest, result.latest, result.lapses_on):
        assert value is None or value >= start
    assert result.key_date >= start
    assert result.counting
    if result.due is not None and result.nominal_due is not None and not result.moved:
        assert result.due == result.nominal_due
    if result.due is not None and result.lapses_on is not None:
        assert result.lapses_on == result.due + ONE_DAY + dt.timedelta(days=result.grace_days)
    if result.earliest_business_day is not None:
        assert calendar.is_business_day(result.earliest_business_day)
        assert result.earliest_business_day >= result.earliest


@pytest.mark.provision("Counting days")
@settings(max_examples=150, deadline=None)
@given(slug=st.sampled_from(OWED), start=STARTS, calendar=calendars(), ruleset=RULESETS)
def test_counting_days_kind_1_what_a_person_owes_moves_to_the_next_business_day(
    slug, start, calendar, ruleset
):
    result = compute(slug, start, ruleset, calendar)
    assert result.counting == (LIMIT_OWED,)
    assert result.due >= result.nominal_due
    assert result.moved == (result.due != result.nominal_due)
    if slug in AT_THE_OFFICE:  # a filing or a payment: closure days move it too (CCP §12b)
        assert result.office_act
        assert calendar.is_business_day(result.due)
        assert all(not calendar.is_business_day(day) for day in days_between(result.nominal_due, result.due))
    else:  # training, removing a grinder: only weekends and holidays move it (CCP §12a)
        assert not result.office_act
        assert calendar.holiday_reason(result.due) is None
        assert all(calendar.holiday_reason(day) for day in days_between(result.nominal_due, result.due))


@pytest.mark.provision("Counting days")
@settings(max_examples=150, deadline=None)
@given(slug=st.sampled_from(TOWN_MAXIMA), start=STARTS, calendar=calendars(), ruleset=RULESETS)
def test_counting_days_kind_2_the_towns_maximum_never_moves_later(slug, start, calendar, ruleset):
    result = compute(slug, start, ruleset, calendar)
    assert LIMIT_TOWN_MAXIMUM in result.counting
    limit = result.nominal_due
    latest = result.latest if result.latest is not None else result.due
    assert latest == result.due
    assert latest <= limit
    assert latest > start
    if any(calendar.is_business_day(day) for day in days_between(start + ONE_DAY, limit + ONE_DAY)):
        assert calendar.is_business_day(latest)
        assert all(
            not calendar.is_business_day(day) for day in days_between(latest + ONE_DAY, limit + ONE_DAY)
        )
    else:  # no business day in the window at all: the limit itself stands, never before the start
        assert latest == limit
    assert result.moved == (latest != limit)


@pytest.mark.provision("Counting days")
@settings(max_examples=150, deadline=None)
@given(slug=st.sampled_from(MINIMUMS), start=STARTS, calendar=calendars(), ruleset=RULESETS)
def test_counting_days_kind_3_a_minimum_never_moves_earlier(slug, start, calendar, ruleset):
    result = compute(slug, start, ruleset, calendar)
    assert LIMIT_MINIMUM in result.counting
    floor, usable = result.earliest, result.earliest_business_day
    assert usable >= floor
    assert calendar.is_business_day(usable)
    assert all(not calendar.is_business_day(day) for day in days_between(floor, usable))
    expected_days = {
        "L2": ruleset.revocation_hearing_min_days,
        "B7": ruleset.frequency_change_notice_days,
        "G1-start": ruleset.remodel_notice_days,
    }
    if slug in expected_days:  # the floor itself is exactly the minimum, never moved
        assert (floor - start).days == expected_days[slug]


@pytest.mark.provision("E1")
@settings(max_examples=150, deadline=None)
@given(start=STARTS, calendar=calendars(), ruleset=RULESETS, frequency=FREQUENCIES)
def test_e1_maintenance_due_is_always_the_last_service_plus_the_frequency(
    start, calendar, ruleset, frequency
):
    result = compute("E1", start, ruleset, calendar, frequency=frequency)
    assert result.counting == (LIMIT_MAINTENANCE,)
    assert result.due == result.nominal_due == start + dt.timedelta(days=frequency)
    assert not result.moved
    assert result.lapses_on == result.due + dt.timedelta(days=ruleset.service_grace_days + 1)
    direct = next_service_due(start, frequency, calendar=calendar, grace_days=ruleset.service_grace_days)
    assert (direct.due, direct.lapses_on) == (result.due, result.lapses_on)


@pytest.mark.provision("J2")
@settings(max_examples=60, deadline=None)
@given(slug=st.sampled_from(["J2", "M3-hearing", "M3-decision"]), start=STARTS, calendar=calendars())
def test_counting_days_business_day_counts_land_on_business_days(slug, start, calendar):
    result = compute(slug, start, RULES, calendar)
    assert result.counting == (LIMIT_BUSINESS_DAYS,)
    assert calendar.is_business_day(result.due)


@pytest.mark.provision("G1")
@given(start=STARTS, calendar=calendars())
def test_g1_notice_date_is_exactly_the_minimum_before_the_work(start, calendar):
    result = compute_deadline("G1", start, ruleset=RULES, calendar=calendar)
    assert (start - result.due).days == RULES.remodel_notice_days
    assert not result.moved


@pytest.mark.provision("L2")
@given(start=STARTS, calendar=calendars())
def test_l2_floor_never_moves_and_window_is_ordered(start, calendar):
    result = compute_deadline("L2", start, ruleset=RULES, calendar=calendar)
    assert (result.earliest - start).days == RULES.revocation_hearing_min_days
    assert result.earliest <= result.earliest_business_day <= result.latest
    assert (result.latest - start).days <= RULES.revocation_hearing_max_days
