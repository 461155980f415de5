"""The Town calendar and its default holidays (Counting days)."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules.calendar import (
    TownCalendar,
    add_business_days,
    add_years,
    next_business_day_on_or_after,
)
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, d

pytestmark = pytest.mark.provision("Counting days")


def test_counting_days_holidays_2026_observed_rule():
    days = standard_town_holidays(2026)
    assert days[d("2026-07-03")] == "Independence Day (observed)"  # July 4 2026 is a Saturday
    assert d("2026-07-04") not in days
    assert days[d("2026-11-26")] == "Thanksgiving Day"
    assert days[d("2026-11-27")] == "Day after Thanksgiving"
    assert days[d("2026-01-19")] == "Martin Luther King Jr. Day"
    assert days[d("2026-02-16")] == "Presidents' Day"
    assert days[d("2026-03-31")] == "Cesar Chavez Day"
    assert days[d("2026-05-25")] == "Memorial Day"
    assert days[d("2026-06-19")] == "Juneteenth"
    assert days[d("2026-09-07")] == "Labor Day"
    assert days[d("2026-11-11")] == "Veterans Day"
    assert days[d("2026-12-25")] == "Christmas Day"
    assert days[d("2026-01-01")] == "New Year's Day"
    assert len(days) == 12


def test_counting_days_sunday_holiday_observed_monday_and_saturday_new_year_in_previous_year():
    assert standard_town_holidays(2027)[d("2027-07-05")] == "Independence Day (observed)"  # Sunday
    days_2022 = standard_town_holidays(2022)  # Jan 1 2022 is a Saturday
    assert days_2022[d("2021-12-31")] == "New Year's Day (observed)"


def test_counting_days_business_days():
    assert not CALENDAR.is_business_day(d("2026-07-03"))
    assert not CALENDAR.is_business_day(d("2026-07-04"))
    assert CALENDAR.is_business_day(d("2026-07-06"))
    assert CALENDAR.closed_reason(d("2026-11-27")) == "a Town holiday: Day after Thanksgiving"
    assert CALENDAR.closed_reason(d("2026-11-28")) == "a weekend day"
    # A 9/80 Friday closes the offices, but it is a closure day, not a holiday (CCP §12a / §12b).
    assert CALENDAR_WITH_CLOSURE.closed_reason(d("2026-08-14")) == "a Town closure day: 9/80 closure Friday"
    assert not CALENDAR_WITH_CLOSURE.is_business_day(d("2026-08-14"))
    assert CALENDAR.is_business_day(d("2026-08-14"))


def test_counting_days_ccp_12b_a_closure_day_is_not_a_holiday_for_acts_away_from_the_office():
    friday = d("2026-08-14")
    assert CALENDAR_WITH_CLOSURE.holiday_reason(friday) is None
    assert CALENDAR_WITH_CLOSURE.closure_reason(friday) == "a Town closure day: 9/80 closure Friday"
    # At the office (a filing, a payment) the closure moves the day to Monday ...
    assert CALENDAR_WITH_CLOSURE.roll_forward(friday) == (
        d("2026-08-17"),
        ("Friday, August 14, 2026 is a Town closure day: 9/80 closure Friday; the Town's offices are closed.",
         "Saturday, August 15, 2026 is a weekend day; the Town's offices are closed.",
         "Sunday, August 16, 2026 is a weekend day; the Town's offices are closed."),
    )  # fmt: skip
    # ... elsewhere (training in a kitchen) it does not move at all.
    assert CALENDAR_WITH_CLOSURE.roll_forward(friday, at_office=False) == (friday, ())
    # A weekend before a closure day: away from the office the move stops on the closure day.
    assert CALENDAR_WITH_CLOSURE.roll_forward(d("2026-08-08"), at_office=False)[0] == d("2026-08-10")


def test_counting_days_roll_back_to_the_last_business_day_on_or_before():
    assert CALENDAR.roll_back(d("2026-07-06")) == (d("2026-07-06"), ())
    day, reasons = CALENDAR.roll_back(d("2026-07-05"))  # Sun, Sat, Fri July 3 (observed holiday)
    assert day == d("2026-07-02")
    assert len(reasons) == 3 and "Independence Day (observed)" in reasons[2]
    assert CALENDAR_WITH_CLOSURE.last_business_day_on_or_before(d("2026-08-16")) == d("2026-08-13")


def test_counting_days_closure_days_are_part_of_the_calendars_identity():
    assert CALENDAR_WITH_CLOSURE != CALENDAR
    assert hash(CALENDAR_WITH_CLOSURE) != hash(CALENDAR)
    assert dict(CALENDAR_WITH_CLOSURE.closures) == {d("2026-08-14"): "9/80 closure Friday"}


def test_counting_days_add_business_days_skips_start_weekends_and_holidays():
    assert add_business_days(d("2026-07-01"), 1, CALENDAR) == d("2026-07-02")
    assert add_business_days(d("2026-07-02"), 1, CALENDAR) == d("2026-07-06")
    assert add_business_days(d("2026-12-30"), 2, CALENDAR) == d("2027-01-04")
    assert add_business_days(d("2026-07-01"), 0, CALENDAR) == d("2026-07-01")
    with pytest.raises(ValueError, match="count"):
        CALENDAR.add_business_days(d("2026-07-01"), -1)


def test_counting_days_roll_forward_names_each_closed_day():
    day, reasons = CALENDAR.roll_forward(d("2027-01-01"))
    assert day == d("2027-01-04")
    assert len(reasons) == 3
    assert "New Year's Day" in reasons[0]
    assert next_business_day_on_or_after(d("2026-07-06"), CALENDAR) == d("2026-07-06")


def test_counting_days_leap_day_anniversary():
    assert add_years(d("2024-02-29"), 1) == (d("2025-02-28"), True)
    assert add_years(d("2024-02-29"), 4) == (d("2028-02-29"), False)
    assert add_years(d("2025-03-01"), 1) == (d("2026-03-01"), False)


def test_counting_days_calendar_refuses_a_week_without_business_days():
    with pytest.raises(ValueError, match="weekend"):
        TownCalendar(weekend=frozenset(range(7)))
    with pytest.raises(ValueError, match="weekend"):
        TownCalendar(weekend=frozenset({7}))


def test_counting_days_calendar_is_frozen_against_later_edits():
    source = {d("2026-08-14"): "Closure"}
    calendar = TownCalendar(holidays=source)
    source[d("2026-08-21")] = "Another"
    assert d("2026-08-21") not in calendar.holidays
    assert hash(calendar) == hash(TownCalendar(holidays={d("2026-08-14"): "Closure"}))


@given(st.dates(dt.date(2010, 1, 1), dt.date(2030, 12, 31)), st.integers(0, 40))
def test_counting_days_business_day_count_lands_on_business_day(start, count):
    due = CALENDAR.add_business_days(start, count)
    assert due >= start
    if count:
        assert CALENDAR.is_business_day(due)
        assert len(CALENDAR.business_days_after(start, count)) == count


@given(st.integers(2000, 2100))
def test_counting_days_every_standard_holiday_falls_on_a_weekday(year):
    for day in standard_town_holidays(year):
        assert day.weekday() < 5
