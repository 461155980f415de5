"""The program's calendar and rules, read once per job instead of once per manifest.

A CSV import of 100,000 rows would otherwise read the ruleset and the holiday list 100,000 times.
"""

from __future__ import annotations

import datetime as dt

from fogcontrol.program.selectors import ruleset_timeline, town_calendar, town_today, town_zone
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.ruleset import Ruleset


class ProgramContext:
    def __init__(self, *, today: dt.date | None = None) -> None:
        self._today = today
        self._rulesets: dict[dt.date, Ruleset] = {}
        self._calendar: TownCalendar | None = None
        self._timeline = None
        self._zone = None

    def today(self) -> dt.date:
        if self._today is None:
            self._today = town_today()
        return self._today

    def ruleset(self, day: dt.date | None = None) -> Ruleset:
        day = day or self.today()
        if day not in self._rulesets:
            if len(self._rulesets) > 4096:  # an import spanning many years: keep memory bounded
                self._rulesets.clear()
            if self._timeline is None:  # every version at once: one query, not one a day
                self._timeline = ruleset_timeline()
            self._rulesets[day] = self._timeline(day)
        return self._rulesets[day]

    def calendar(self) -> TownCalendar:
        if self._calendar is None:
            self._calendar = town_calendar()
        return self._calendar

    def zone(self):
        if self._zone is None:
            self._zone = town_zone()
        return self._zone

    def local_date(self, moment: dt.datetime) -> dt.date:
        return moment.astimezone(self.zone()).date()
