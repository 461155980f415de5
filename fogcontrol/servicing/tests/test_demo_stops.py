"""The demo's busy trucks: a stop past midnight is delivered the day it was pumped, never before
(issue 19, item 5: a 10,000-establishment seed failed on its 15th stop)."""

import datetime as dt
from zoneinfo import ZoneInfo

from fogcontrol.servicing.demo import stop_times

ZONE = ZoneInfo("America/Los_Angeles")


def test_an_early_stop_is_delivered_the_same_day():
    at, delivered_on = stop_times(dt.date(2026, 3, 2), 30, 0, ZONE)
    assert at == dt.datetime(2026, 3, 2, 6, 30, tzinfo=ZONE) and delivered_on == dt.date(2026, 3, 2)


def test_the_fifteenth_stop_passes_midnight_and_is_delivered_on_the_next_day():
    at, delivered_on = stop_times(dt.date(2026, 3, 2), 30, 14, ZONE)
    assert at.date() == dt.date(2026, 3, 3)
    assert delivered_on == dt.date(2026, 3, 3) and delivered_on >= at.date()
