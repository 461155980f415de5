"""Reading the program's settings: the profile, the calendar, the rules in force on a day."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.utils import timezone

from fogcontrol.program.models import Holiday, RulesetVersion, TownProfile
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset


def town_profile() -> TownProfile:
    profile = TownProfile.objects.order_by("pk").first()
    if profile is None:
        profile = TownProfile.objects.create(name="The Town")
    return profile


def town_zone() -> ZoneInfo:
    return ZoneInfo(town_profile().time_zone)


def town_today() -> dt.date:
    """Today in the Town's time zone: the date every deadline is judged on."""
    return timezone.localdate(timezone=town_zone())


def ruleset_version_on(day: dt.date) -> RulesetVersion | None:
    return RulesetVersion.objects.filter(effective_from__lte=day).order_by("-effective_from").first()


def ruleset_on(day: dt.date) -> Ruleset:
    """The rules in force on `day`. Before the first version, the ordinance as adopted."""
    version = ruleset_version_on(day)
    return version.as_ruleset() if version else CHAPTER_10_02


def town_calendar() -> TownCalendar:
    """The Town's business-day calendar: weekends plus every holiday and closure day on record."""
    holidays = {day: name for day, name in Holiday.objects.values_list("date", "name")}
    return TownCalendar(holidays=holidays)
