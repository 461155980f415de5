"""Shared test data for the rules engine: the default ruleset and a standard Town calendar."""

import datetime as dt

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.ruleset import CHAPTER_10_02

RULES = CHAPTER_10_02
CALENDAR = TownCalendar.standard(range(2009, 2032))
NINE_EIGHTY_FRIDAY = dt.date(2026, 8, 14)
CALENDAR_WITH_CLOSURE = TownCalendar.standard(
    range(2009, 2032), extra={NINE_EIGHTY_FRIDAY: "9/80 closure Friday"}
)


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)
