"""`{{ day|day:"M j, Y" }}`: Django's `date` filter, each day written once per format and language.

A device's history writes a date on each of its timeline's rows and chart's points (about 70 on a
device with 33 manifests), and Django's `date` filter builds a formatter and translates the month's
name for each: a tenth of the page's CPU (docs/performance.md, "The pages' Python, third pass").
The same day in the same format and language is always written the same, so it is kept in the
process (at most 4,096, least recently used first out). A plain `datetime.date` is kept by its
value; an aware datetime (the manifests list writes one on each of its 50 rows) by its wall time,
its fold and its time zone (the filter receives it already in the page's zone), since equality
between aware datetimes compares instants and ignores the zone the text is written in. Anything
else (a naive datetime, a time, a string) goes to Django's filter as before.
"""

import datetime as dt
from functools import lru_cache

from django import template
from django.template.defaultfilters import date as django_date
from django.utils.translation import get_language

register = template.Library()


@lru_cache(maxsize=4096)
def _written(day: dt.date, format_string: str | None, language: str | None) -> str:
    # `language` is only the key: django_date writes in the active language, which is this one.
    return django_date(day, format_string)


@lru_cache(maxsize=4096)
def _written_at(
    wall: dt.datetime, fold: int, zone: dt.tzinfo, format_string: str | None, language: str | None
) -> str:
    # Only the key: the moment is put back together from its wall time, fold and zone.
    return django_date(wall.replace(tzinfo=zone, fold=fold), format_string)


@register.filter(expects_localtime=True, is_safe=False)
def day(value, format_string=None):
    if not isinstance(format_string, str | None):
        return django_date(value, format_string)
    format_string = None if format_string is None else str(format_string)
    if type(value) is dt.date:
        return _written(value, format_string, get_language())
    if type(value) is dt.datetime and value.tzinfo is not None:
        return _written_at(
            value.replace(tzinfo=None, fold=0), value.fold, value.tzinfo, format_string, get_language()
        )
    return django_date(value, format_string)
