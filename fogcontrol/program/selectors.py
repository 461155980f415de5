"""Reading the program's settings: the profile, the calendar, the rules in force on a day."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from zoneinfo import ZoneInfo

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import QuerySet
from django.utils import timezone

from fogcontrol.program.models import Holiday, RulesetVersion, TownProfile
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset

# --- Read once a page (issue 16) -------------------------------------------------------------------
# A page asks for today, the rules and the calendar from many places (the view, its selectors, its
# template tags, the `rules` context processor): inside ``read_once()`` (``@program_read_once`` on a
# view that changes none of them) each is read from the database once, the first time it is asked
# for. Outside it (jobs, commands, a POST that may change the profile, the rules or the calendar)
# each call reads afresh, as before.

_read_once: ContextVar[dict | None] = ContextVar("fogcontrol_program_read_once", default=None)


@contextlib.contextmanager
def read_once(*, profile: TownProfile | None = None) -> Iterator[None]:
    """``profile``: the Town profile the request has read already (TownTimezoneMiddleware's)."""
    token = _read_once.set({} if profile is None else {"profile": profile})
    try:
        yield
    finally:
        _read_once.reset(token)


def program_read_once(view):
    """A view whose page reads the Town profile, the rules and the calendar once (issue 16)."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        with read_once(profile=getattr(request, "town", None)):
            return view(request, *args, **kwargs)

    return wrapped


def _once(key, read: Callable):
    cache = _read_once.get()
    if cache is None:
        return read()
    if key not in cache:
        cache[key] = read()
    return cache[key]


def _read_town_profile() -> TownProfile:
    profile = TownProfile.objects.order_by("pk").first()
    if profile is None:
        profile = TownProfile.objects.create(name="The Town")
    return profile


def town_profile() -> TownProfile:
    return _once("profile", _read_town_profile)


def town_zone() -> ZoneInfo:
    return ZoneInfo(town_profile().time_zone)


def town_today() -> dt.date:
    """Today in the Town's time zone: the date every deadline is judged on."""
    return timezone.localdate(timezone=town_zone())


def ruleset_version_on(day: dt.date) -> RulesetVersion | None:
    return RulesetVersion.objects.filter(effective_from__lte=day).order_by("-effective_from").first()


def ruleset_on(day: dt.date) -> Ruleset:
    """The rules in force on `day`. Before the first version, the ordinance as adopted."""
    if _read_once.get() is not None:
        return ruleset_timeline()(day)
    version = ruleset_version_on(day)
    return version.as_ruleset() if version else CHAPTER_10_02


def _read_versions() -> list[tuple[dt.date, Ruleset]]:
    return [
        (version.effective_from, version.as_ruleset())
        for version in RulesetVersion.objects.order_by("-effective_from")
    ]


def ruleset_timeline() -> Callable[[dt.date], Ruleset]:
    """``ruleset_on`` for any day, from one query: for a job that judges many days at once (an
    import, the demo's history). It sees the versions on record when it was made."""
    versions = _once("versions", _read_versions)

    def on(day: dt.date) -> Ruleset:
        return next((ruleset for effective_from, ruleset in versions if effective_from <= day), CHAPTER_10_02)

    return on


def town_calendar() -> TownCalendar:
    """The Town's business-day calendar: weekends plus every holiday and closure day on record.

    Closure days (9/80 Fridays) are kept apart from holidays: they move only acts done at the
    Town's office (CCP §12b), while holidays move the last day of any act (CCP §12a).
    """
    return _once("calendar", _read_town_calendar)


def _read_town_calendar() -> TownCalendar:
    holidays: dict = {}
    closures: dict = {}
    for day, name, kind in Holiday.objects.values_list("date", "name", "kind"):
        (closures if kind == Holiday.Kind.CLOSURE else holidays)[day] = name
    return TownCalendar(holidays=holidays, closures=closures)


# --- The program settings pages and API: reads scoped to the user ---------------------------------
# Town staff read the program's settings; anyone else is told they do not exist (404), as for any
# record outside a user's scope.


class ProgramSettingsNotFound(ObjectDoesNotExist):
    """The user may not see the program's settings: answered as not found (404)."""


def program_settings_visible(user) -> bool:
    return bool(user.is_authenticated and user.is_program_staff)


def _require_program_staff(user) -> None:
    if not program_settings_visible(user):
        raise ProgramSettingsNotFound("No program settings here.")


def town_profile_for(user) -> TownProfile:
    """The Town profile (B2, J1, J2), for staff."""
    _require_program_staff(user)
    return town_profile()


def holidays_visible_to(user) -> QuerySet[Holiday]:
    return Holiday.objects.visible_to(user)


def holiday_list(user, *, year: int | None = None) -> QuerySet[Holiday]:
    """The closed days of ``year`` (every year when None), in date order: one query."""
    queryset = holidays_visible_to(user).order_by("date")
    if year is not None:
        queryset = queryset.filter(date__year=year)
    return queryset


def holiday_detail(user, pk) -> Holiday:
    return holidays_visible_to(user).get(pk=pk)


def holiday_years(user) -> list[int]:
    """The years that have at least one closed day on the calendar."""
    return [day.year for day in holidays_visible_to(user).dates("date", "year")]


def ruleset_versions_visible_to(user) -> QuerySet[RulesetVersion]:
    return RulesetVersion.objects.visible_to(user).select_related("created_by")


def ruleset_version_list(user) -> QuerySet[RulesetVersion]:
    """Every version, newest effective date first: one query."""
    return ruleset_versions_visible_to(user).order_by("-effective_from")


def ruleset_version_detail(user, pk) -> RulesetVersion:
    return ruleset_versions_visible_to(user).get(pk=pk)


def ruleset_in_force_for(user, day: dt.date) -> tuple[RulesetVersion | None, Ruleset]:
    """The version in force on ``day`` and its values (the ordinance as adopted before any version)."""
    _require_program_staff(user)
    version = ruleset_version_on(day)
    return version, (version.as_ruleset() if version else CHAPTER_10_02)
