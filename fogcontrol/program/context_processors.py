import datetime as dt

from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from fogcontrol.program.selectors import ruleset_on, town_profile


def town(request):
    """`town`: the Town profile (read once per request by the middleware).
    `rules`: the ruleset in force today, so that pages state the Town's numbers, never literals;
    read only when a template uses it."""
    profile = getattr(request, "town", None) or SimpleLazyObject(town_profile)

    def rules_today():
        return ruleset_on(timezone.localdate(timezone=_zone(profile)))

    return {"town": profile, "rules": SimpleLazyObject(rules_today)}


def _zone(profile) -> dt.tzinfo:
    from zoneinfo import ZoneInfo

    return ZoneInfo(profile.time_zone)
