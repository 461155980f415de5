"""`{{ day|day:"M j, Y" }}`: Django's `date` filter, each day written once per format and language.

A device's history writes a date on each of its timeline's rows and chart's points (about 70 on a
device with 33 manifests), and Django's `date` filter builds a formatter and translates the month's
name for each: a tenth of the page's CPU (docs/performance.md, "The pages' Python, third pass").
The same day in the same format and language is always written the same, so it is kept in the
process (at most 4,096, least recently used first out). Only a plain `datetime.date` is kept:
a datetime's text depends on the time zone, which equality between datetimes ignores, so it, and
anything else, goes to Django's filter as before.
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


@register.filter(expects_localtime=True, is_safe=False)
def day(value, format_string=None):
    if type(value) is not dt.date or not isinstance(format_string, str | None):
        return django_date(value, format_string)
    return _written(value, None if format_string is None else str(format_string), get_language())
