"""The Town's business-day calendar ("Counting days").

"Business days" and "working days" are days the Town's offices are open: by default Monday to
Friday except the Town's holidays. The Town edits its own list (closure days, 9/80 Fridays), so a
``TownCalendar`` is plain data handed in by the caller; ``fogcontrol.rules.holidays`` only makes
the default list.

Holidays and closure days are kept apart because the law moves deadlines over them differently:
a weekend day or a Town holiday moves the last day of any act (Code of Civil Procedure §12a); a day
the Town closes its offices (a 9/80 Friday) moves only acts done at the office, such as a filing or
a payment (CCP §12b), not a duty done elsewhere, such as training in a kitchen.
"""

from __future__ import annotations

import calendar as std_calendar
import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from fogcontrol.rules.explain import fmt_date, say
from fogcontrol.rules.holidays import SATURDAY, SUNDAY, standard_town_holidays

ONE_DAY = dt.timedelta(days=1)

# Guard against a calendar that closes the offices for ever (a data-entry error): no roll or
# business-day count may skip more than this many closed days in a row.
_MAX_CLOSED_RUN = 3660


@dataclasses.dataclass(frozen=True)
class TownCalendar:
    """Days the Town's offices are closed: weekend weekdays, holidays and closure days (Counting days).

    ``holidays`` maps a date to its name ("Independence Day (observed)"): holidays in the sense of
    CCP §12a, which move the last day of any act. ``closures`` maps the days the Town closes its
    offices without a holiday ("9/80 closure Friday"): they move only acts done at the office
    (CCP §12b). ``weekend`` holds ``date.weekday()`` numbers (Monday is 0); the default is Saturday
    and Sunday. The offices are closed, and a day is not a business day, on all three.
    """

    holidays: Mapping[dt.date, str] = dataclasses.field(default_factory=dict)
    weekend: frozenset[int] = frozenset({SATURDAY, SUNDAY})
    closures: Mapping[dt.date, str] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        # Copy into read-only mappings so a caller's later edits cannot change a frozen calendar.
        object.__setattr__(self, "holidays", MappingProxyType(dict(self.holidays)))
        object.__setattr__(self, "closures", MappingProxyType(dict(self.closures)))
        object.__setattr__(self, "weekend", frozenset(self.weekend))
        if not self.weekend <= set(range(7)):
            raise ValueError("weekend: weekday numbers must be 0 (Monday) to 6 (Sunday)")
        if len(self.weekend) == 7:
            raise ValueError("weekend: at least one weekday must be a business day")

    def __hash__(self) -> int:
        return hash(
            (tuple(sorted(self.holidays.items())), self.weekend, tuple(sorted(self.closures.items())))
        )

    @classmethod
    def standard(cls, years: Iterable[int], extra: Mapping[dt.date, str] | None = None) -> TownCalendar:
        """The default California municipal holidays for ``years``, plus the Town's closure days
        (``extra``: 9/80 Fridays and other days the offices close; CCP §12b)."""
        days: dict[dt.date, str] = {}
        for year in years:
            days.update(standard_town_holidays(year))
        return cls(holidays=days, closures=dict(extra or {}))

    def holiday_reason(self, day: dt.date) -> str | None:
        """Why ``day`` is a holiday under CCP §12a ("a weekend day", "a Town holiday: ..."), or None.

        A closure day is not one: it moves only acts done at the Town's office (CCP §12b).
        """
        if day in self.holidays:
            return say("a Town holiday: %(name)s", name=self.holidays[day])
        if day.weekday() in self.weekend:
            return say("a weekend day")
        return None

    def closure_reason(self, day: dt.date) -> str | None:
        """ "a Town closure day: 9/80 closure Friday" when the offices close on a working weekday that
        is not a holiday (CCP §12b), else None."""
        if day in self.closures and self.holiday_reason(day) is None:
            return say("a Town closure day: %(name)s", name=self.closures[day])
        return None

    def closed_reason(self, day: dt.date) -> str | None:
        """Why the offices are closed on ``day`` (a weekend day, a Town holiday, a Town closure day),
        or None when they are open (Counting days)."""
        return self.holiday_reason(day) or self.closure_reason(day)

    def is_business_day(self, day: dt.date) -> bool:
        """True when the Town's offices are open on ``day`` (Counting days; J2, M3)."""
        return self.closed_reason(day) is None

    def next_business_day_on_or_after(self, day: dt.date) -> dt.date:
        """``day`` itself if the offices are open, else the next day they are (CCP §12a)."""
        return self.roll_forward(day)[0]

    def roll_forward(self, day: dt.date, *, at_office: bool = True) -> tuple[dt.date, tuple[str, ...]]:
        """Move ``day`` to the next day the act can be done, with one reason line per day skipped.

        Counting days / CCP §12a: the last day of an act that falls on a weekend or Town holiday
        moves to the next such day that is not one. With ``at_office`` (a filing or a payment, done
        at the Town's office) closure days move it too (CCP §12b), so it lands on a business day;
        without, closure days do not count as holidays. Returns ``(day, ())`` when no move is needed.
        """
        blocked = self.closed_reason if at_office else self.holiday_reason
        reasons: list[str] = []
        current = day
        while (reason := blocked(current)) is not None:
            reasons.append(
                say(
                    "%(day)s is %(reason)s; the Town's offices are closed.",
                    day=fmt_date(current),
                    reason=reason,
                )
            )
            if len(reasons) > _MAX_CLOSED_RUN:
                raise ValueError("calendar: no business day found; check the Town's holiday list")
            current += ONE_DAY
        return current, tuple(reasons)

    def roll_back(self, day: dt.date) -> tuple[dt.date, tuple[str, ...]]:
        """The last business day on or before ``day``, with one reason line per day skipped.

        Counting days: a maximum the Town itself must meet (L2, L3, L4, P5, D8) never moves later;
        when its last day falls on a closed day, the latest date the Town may use is the business
        day before. Returns ``(day, ())`` when the offices are open on ``day``.
        """
        reasons: list[str] = []
        current = day
        while (reason := self.closed_reason(current)) is not None:
            reasons.append(
                say(
                    "%(day)s is %(reason)s; the Town's offices are closed.",
                    day=fmt_date(current),
                    reason=reason,
                )
            )
            if len(reasons) > _MAX_CLOSED_RUN:
                raise ValueError("calendar: no business day found; check the Town's holiday list")
            current -= ONE_DAY
        return current, tuple(reasons)

    def last_business_day_on_or_before(self, day: dt.date) -> dt.date:
        """``day`` itself if the offices are open, else the business day before (Counting days)."""
        return self.roll_back(day)[0]

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
