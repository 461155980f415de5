"""The Town's business-day calendar ("Counting days").

"Business days" and "working days" are days the Town's offices are open: by default Monday to
Friday except the Town's holidays. The Town edits its own list (closure days, 9/80 Fridays), so a
``TownCalendar`` is plain data handed in by the caller; ``fogcontrol.rules.holidays`` only makes
the default list.
"""

from __future__ import annotations

import calendar as std_calendar
import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.holidays import SATURDAY, SUNDAY, standard_town_holidays

ONE_DAY = dt.timedelta(days=1)

# Guard against a calendar that closes the offices for ever (a data-entry error): no roll or
# business-day count may skip more than this many closed days in a row.
_MAX_CLOSED_RUN = 3660


@dataclasses.dataclass(frozen=True)
class TownCalendar:
    """Days the Town's offices are closed: weekend weekdays plus named holidays (Counting days).

    ``holidays`` maps a date to its name ("Independence Day (observed)", "9/80 closure Friday").
    ``weekend`` holds ``date.weekday()`` numbers (Monday is 0); the default is Saturday and Sunday.
    """

    holidays: Mapping[dt.date, str] = dataclasses.field(default_factory=dict)
    weekend: frozenset[int] = frozenset({SATURDAY, SUNDAY})

    def __post_init__(self) -> None:
        # Copy into a read-only mapping so a caller's later edits cannot change a frozen calendar.
        object.__setattr__(self, "holidays", MappingProxyType(dict(self.holidays)))
        object.__setattr__(self, "weekend", frozenset(self.weekend))
        if not self.weekend <= set(range(7)):
            raise ValueError("weekend: weekday numbers must be 0 (Monday) to 6 (Sunday)")
        if len(self.weekend) == 7:
            raise ValueError("weekend: at least one weekday must be a business day")

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.holidays.items())), self.weekend))

    @classmethod
    def standard(cls, years: Iterable[int], extra: Mapping[dt.date, str] | None = None) -> TownCalendar:
        """The default California municipal holidays for ``years`` plus any Town closure days."""
        days: dict[dt.date, str] = {}
        for year in years:
            days.update(standard_town_holidays(year))
        days.update(extra or {})
        return cls(holidays=days)

    def closed_reason(self, day: dt.date) -> str | None:
        """Why the offices are closed on ``day`` ("a weekend day", "a Town holiday: ..."), or None."""
        if day in self.holidays:
            return f"a Town holiday: {self.holidays[day]}"
        if day.weekday() in self.weekend:
            return "a weekend day"
        return None

    def is_business_day(self, day: dt.date) -> bool:
        """True when the Town's offices are open on ``day`` (Counting days; J2, M3)."""
        return self.closed_reason(day) is None

    def next_business_day_on_or_after(self, day: dt.date) -> dt.date:
        """``day`` itself if the offices are open, else the next day they are (CCP §12a)."""
        return self.roll_forward(day)[0]

    def roll_forward(self, day: dt.date) -> tuple[dt.date, tuple[str, ...]]:
        """Move ``day`` to the next business day, with one reason line per day skipped.

        Counting days / CCP §12a: a calendar-day deadline for an act that falls on a weekend or
        Town holiday moves to the next business day. Returns ``(day, ())`` when no move is needed.
        """
        reasons: list[str] = []
        current = day
        while (reason := self.closed_reason(current)) is not None:
            reasons.append(f"{fmt_date(current)} is {reason}; the Town's offices are closed.")
            if len(reasons) > _MAX_CLOSED_RUN:
                raise ValueError("calendar: no business day found; check the Town's holiday list")
            current += ONE_DAY
        return current, tuple(reasons)

    def add_business_days(self, start: dt.date, count: int) -> dt.date:
        """The ``count``-th business day after ``start``; ``start`` itself is not counted (J2, M3).

        ``count`` 0 returns ``start`` unchanged.
        """
        return self.business_days_after(start, count)[-1] if count else start

    def business_days_after(self, start: dt.date, count: int) -> tuple[dt.date, ...]:
        """The first ``count`` business days after ``start``, in order (J2, M3 working)."""
        if count < 0:
            raise ValueError("count: business days to add must not be negative")
        found: list[dt.date] = []
        current = start
        closed_run = 0
        while len(found) < count:
            current += ONE_DAY
            if self.is_business_day(current):
                found.append(current)
                closed_run = 0
            else:
                closed_run += 1
                if closed_run > _MAX_CLOSED_RUN:
                    raise ValueError("calendar: no business day found; check the Town's holiday list")
        return tuple(found)


def is_business_day(day: dt.date, calendar: TownCalendar) -> bool:
    """Function form of ``TownCalendar.is_business_day`` (Counting days)."""
    return calendar.is_business_day(day)


def add_business_days(start: dt.date, count: int, calendar: TownCalendar) -> dt.date:
    """Function form of ``TownCalendar.add_business_days`` (J2, M3)."""
    return calendar.add_business_days(start, count)


def next_business_day_on_or_after(day: dt.date, calendar: TownCalendar) -> dt.date:
    """Function form of ``TownCalendar.next_business_day_on_or_after`` (CCP §12a)."""
    return calendar.next_business_day_on_or_after(day)


def add_years(day: dt.date, years: int) -> tuple[dt.date, bool]:
    """The anniversary of ``day`` ``years`` later (B6, C4, D8, F5).

    February 29 has no anniversary in a common year: the duty falls on February 28 then, and the
    second value is True so that the explanation can say so.
    """
    target_year = day.year + years
    if day.month == 2 and day.day == 29 and not std_calendar.isleap(target_year):
        return dt.date(target_year, 2, 28), True
    return day.replace(year=target_year), False
