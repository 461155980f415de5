"""The default list of Town holidays (Counting days: business days exclude the Town's holidays).

The Town keeps and edits its own list in the database (adding closure days and 9/80 Fridays);
this module only generates the usual California municipal holidays for a year, as the starting
point for that list.

Observed rule: a fixed-date holiday that falls on a Saturday is observed on the Friday before, and
one that falls on a Sunday on the Monday after. The list for a year holds that year's holidays, so
New Year's Day of 2022 (a Saturday) is observed on Friday, December 31, 2021 and appears in
``standard_town_holidays(2022)``.
"""

from __future__ import annotations

import datetime as dt

from fogcontrol.rules.explain import say

# Weekday numbers as date.weekday() gives them (the calendar module builds on these).
MONDAY = 0
THURSDAY = 3
SATURDAY = 5
SUNDAY = 6


def nth_weekday(year: int, month: int, weekday: int, nth: int) -> dt.date:
    """The ``nth`` (1-based) ``weekday`` of a month; ``nth`` -1 is the last one."""
    if nth > 0:
        first = dt.date(year, month, 1)
        offset = (weekday - first.weekday()) % 7
        return first + dt.timedelta(days=offset + 7 * (nth - 1))
    next_month = dt.date(year + month // 12, month % 12 + 1, 1)
    last = next_month - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def observed(day: dt.date) -> dt.date:
    """Saturday holidays are observed the Friday before, Sunday holidays the Monday after."""
    if day.weekday() == SATURDAY:
        return day - dt.timedelta(days=1)
    if day.weekday() == SUNDAY:
        return day + dt.timedelta(days=1)
    return day


def _fixed(holidays: dict[dt.date, str], day: dt.date, name: str) -> None:
    actual = observed(day)
    holidays[actual] = name if actual == day else say("%(name)s (observed)", name=name)


def standard_town_holidays(year: int) -> dict[dt.date, str]:
    """The usual California municipal holidays of ``year``, date -> name (Counting days).

    New Year's Day, Martin Luther King Jr. Day, Presidents' Day, Cesar Chavez Day (March 31),
    Memorial Day, Juneteenth, Independence Day, Labor Day, Veterans Day, Thanksgiving Day, the day
    after Thanksgiving, Christmas Day; fixed dates moved by the observed rule.
    """
    holidays: dict[dt.date, str] = {}
    _fixed(holidays, dt.date(year, 1, 1), say("New Year's Day"))
    holidays[nth_weekday(year, 1, MONDAY, 3)] = say("Martin Luther King Jr. Day")
    holidays[nth_weekday(year, 2, MONDAY, 3)] = say("Presidents' Day")
    _fixed(holidays, dt.date(year, 3, 31), say("Cesar Chavez Day"))
    holidays[nth_weekday(year, 5, MONDAY, -1)] = say("Memorial Day")
    _fixed(holidays, dt.date(year, 6, 19), say("Juneteenth"))
    _fixed(holidays, dt.date(year, 7, 4), say("Independence Day"))
    holidays[nth_weekday(year, 9, MONDAY, 1)] = say("Labor Day")
    _fixed(holidays, dt.date(year, 11, 11), say("Veterans Day"))
    thanksgiving = nth_weekday(year, 11, THURSDAY, 4)
    holidays[thanksgiving] = say("Thanksgiving Day")
    holidays[thanksgiving + dt.timedelta(days=1)] = say("Day after Thanksgiving")
    _fixed(holidays, dt.date(year, 12, 25), say("Christmas Day"))
    return dict(sorted(holidays.items()))
