"""`|day` writes what Django's `|date` writes, kept per day, format and language (issue 16)."""

import datetime as dt

from django.template import engines
from django.utils import timezone
from django.utils.translation import override

from fogcontrol.core.templatetags.days import _written

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
