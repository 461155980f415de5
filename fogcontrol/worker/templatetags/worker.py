"""`{{ timedelta|duration_words }}`: "4 minutes", "2 hours 5 minutes", "3 days 1 hour"."""

from __future__ import annotations

import datetime as dt

from django import template

register = template.Library()


def _words(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


@register.filter
def duration_words(value: dt.timedelta | None) -> str:
    if value is None:
        return ""
    seconds = max(0, int(value.total_seconds()))
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    if days:
        return " ".join([_words(days, "day")] + ([_words(hours, "hour")] if hours else []))
    if hours:
        return " ".join([_words(hours, "hour")] + ([_words(minutes, "minute")] if minutes else []))
    if minutes:
        return _words(minutes, "minute")
    return _words(seconds, "second")
