"""`|day` writes what Django's `|date` writes, kept per day, format and language (issue 16)."""

import datetime as dt

from django.template import engines
from django.utils import timezone
from django.utils.translation import override

from fogcontrol.core.templatetags.days import _written, _written_at

TEMPLATE = engines["django"].from_string(
    "{% load days %}{% for v in values %}{{ v|day:fmt }}|{{ v|date:fmt }}\n{% endfor %}{{ d|day }}|{{ d|date }}"
)
VALUES = [
    dt.date(2026, 12, 1),
    dt.date(2025, 5, 31),
    dt.date(2024, 2, 29),
    dt.datetime(2026, 12, 1, 23, 30),
    timezone.make_aware(dt.datetime(2026, 12, 1, 23, 30), dt.UTC),
    None,
    "",
    "not a day",
]


def test_day_writes_what_date_writes_in_each_language():
    _written.cache_clear()
    for language in ["en", "es", "en", "es"]:  # the second round from the kept texts
        with override(language):
            for fmt in ["M j, Y", "l, M j, Y", "l, F j, Y", "M Y", "Y-m-d", "N jS, D"]:
                html = TEMPLATE.render({"values": VALUES, "fmt": fmt, "d": dt.date(2026, 1, 9)})
                for line in html.splitlines():
                    ours, djangos = line.split("|")
                    assert ours == djangos, (language, fmt, line)
    assert _written.cache_info().hits > 0


ZONES = ["UTC", "America/Los_Angeles", "Europe/Madrid"]
# One instant written in each zone, and the hour that happens twice when the clocks go back (the
# two are equal wall times with another fold and another offset).
MOMENTS = [
    timezone.make_aware(dt.datetime(2026, 7, 1, 23, 30), dt.UTC),
    dt.datetime(2026, 11, 1, 8, 30, tzinfo=dt.UTC),  # 01:30 PDT in Los Angeles
    dt.datetime(2026, 11, 1, 9, 30, tzinfo=dt.UTC),  # 01:30 PST in Los Angeles
    dt.datetime(2026, 12, 31, 23, 59, 59, tzinfo=dt.UTC),
]


def test_day_writes_a_datetime_as_date_does_in_each_zone_and_language():
    _written_at.cache_clear()
    for _round in range(2):  # the second from the kept texts
        for zone in ZONES:
            with timezone.override(zone):
                for language in ["en", "es"]:
                    with override(language):
                        for fmt in ["M j, Y H:i", "N j, Y, P T", "c O e", "U", None]:
                            html = TEMPLATE.render({"values": MOMENTS, "fmt": fmt, "d": MOMENTS[1]})
                            for line in html.splitlines():
                                ours, djangos = line.split("|")
                                assert ours == djangos, (zone, language, fmt, line)
    assert _written_at.cache_info().hits > 0
