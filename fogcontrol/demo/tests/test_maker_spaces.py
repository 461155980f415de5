"""The demo's numbers never loop forever (issue 19, item 5): a crowded space continues in its
overflow range, and a used-up one says so."""

import datetime as dt
import random

import pytest

from fogcontrol.demo.maker import DemoSpaceExhausted, Maker


class TinyMaker(Maker):
    RANDOM_TRIES = 20
    APN_BOOKS = (175,)
    APN_PAGES = range(10, 11)
    APN_PARCELS = range(1, 4)
    APN_OVERFLOW_PARCELS = range(100, 102)
    LICENCE_SERIALS = range(1000, 1003)
    LICENCE_OVERFLOW_SERIALS = range(100_000, 100_002)


def maker() -> TinyMaker:
    return TinyMaker(random.Random(7), dt.date(2026, 11, 30))


def test_apns_continue_past_the_random_space_then_say_it_is_used_up():
    tiny = maker()
    apns = [tiny.apn() for _ in range(5)]
    assert len(set(apns)) == 5
    assert {"175-10-100", "175-10-101"} <= set(apns)
    with pytest.raises(DemoSpaceExhausted, match="numbered all 5 parcels"):
        tiny.apn()


def test_licence_numbers_continue_past_the_random_space_then_say_it_is_used_up():
    tiny = maker()
    numbers = [tiny.licence_number() for _ in range(5)]
    assert len(set(numbers)) == 5
    assert any(number.endswith("-100000") for number in numbers)
    with pytest.raises(DemoSpaceExhausted, match="all 5 business licences"):
        tiny.licence_number()


def test_the_real_apn_space_numbers_a_town_of_twenty_thousand_parcels():
    real = Maker(random.Random(1), dt.date(2026, 11, 30))
    assert len({real.apn() for _ in range(20_000)}) == 20_000
