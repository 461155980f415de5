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


def test_a_trucks_last_stop_of_the_day_is_still_that_day():
    """The seeder gives a truck at most STOPS_A_DAY stops; further visits go to unlisted trucks, so
    yesterday's visits are never in the future, however large the town (issue 19, 20,000 FSEs)."""
    from fogcontrol.servicing.demo import STOPS_A_DAY

    at, delivered_on = stop_times(dt.date(2026, 3, 2), 30, STOPS_A_DAY - 1, ZONE)
    assert at.date() == delivered_on == dt.date(2026, 3, 2) and at.hour < 20
