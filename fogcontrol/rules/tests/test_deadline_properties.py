"""Properties of every deadline: never before its start; a moved deadline lands on a business day."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar
from fogcontrol.rules.deadlines import DEADLINE_RULES, compute_deadline
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.rules.tests.helpers import RULES

STARTS = st.dates(dt.date(2024, 1, 1), dt.date(2028, 12, 31))
# G1 is counted backwards from the planned start of the work; it is tested on its own.
FORWARD_SLUGS = [slug for slug in DEADLINE_RULES if slug != "G1"]


@st.composite
def calendars(draw):
    holidays = {}
    for year in range(2024, 2032):
        holidays.update(standard_town_holidays(year))
    closures = draw(st.lists(st.dates(dt.date(2024, 1, 1), dt.date(2031, 12, 31)), max_size=40))
    holidays.update({day: "Town closure" for day in closures})
    return TownCalendar(holidays=holidays)


RULESETS = st.builds(
    RULES.replace,
    fee_delinquency_days=st.integers(0, 120),
    penalty_payment_days=st.integers(0, 120),
    lien_delinquency_days=st.integers(0, 120),
    spill_report_working_days=st.integers(0, 20),
    revocation_hearing_min_days=st.integers(0, 30),
    revocation_hearing_max_days=st.integers(30, 90),
    permit_term_years=st.integers(1, 3),
)


@pytest.mark.provision("Counting days")
@settings(max_examples=150, deadline=None)
@given(slug=st.sampled_from(FORWARD_SLUGS), start=STARTS, calendar=calendars(), ruleset=RULESETS)
def test_counting_days_deadline_never_before_start_and_moves_land_on_business_days(
    slug, start, calendar, ruleset
):
    result = compute_deadline(slug, start, ruleset=ruleset, calendar=calendar)
    for value in (result.due, result.nominal_due, result.earliest, result.latest, result.lapses_on):
        assert value is None or value >= start
    assert result.key_date >= start
    if result.moved:
        assert calendar.is_business_day(result.due)
        assert result.due > result.nominal_due
    if result.due is not None and result.nominal_due is not None and not result.moved:
        assert result.due == result.nominal_due
    if result.due is not None and result.lapses_on is not None:
        assert result.lapses_on == result.due + ONE_DAY
    if result.earliest_business_day is not None:
        assert calendar.is_business_day(result.earliest_business_day)
        assert result.earliest_business_day >= result.earliest


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
