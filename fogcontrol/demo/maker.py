"""Draws the demo's names and numbers from one seeded random generator, never the same one twice."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
import unicodedata
from decimal import Decimal

from fogcontrol.demo import names


def slug(text: str) -> str:
    """ASCII letters and digits only, for email addresses: "José's Café" -> "josescafe"."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", ascii_text.lower().replace("&", "and"))[:30] or "info"


class DemoSpaceExhausted(RuntimeError):
    """Every number of one kind has been drawn: the town asked for is larger than the demo can number."""


class Maker:
    """Draws names and numbers from one random generator, never the same one twice.

    Numbers are drawn at random while that finds a new one quickly; once the random space is
    crowded they continue, in order, in a range the draws never use (parcel numbers 100-999,
    six-digit licence serials), so a large town keeps a small town's numbers. When that is used up
    too, the demo says so instead of looping forever."""

    # Random draws before a crowded space moves on to its overflow range.
    RANDOM_TRIES = 200
    APN_BOOKS = (175, 176, 189)
    APN_PAGES = range(10, 49)
    APN_PARCELS = range(1, 100)
    APN_OVERFLOW_PARCELS = range(100, 1000)
    LICENCE_SERIALS = range(1000, 100_000)
    LICENCE_OVERFLOW_SERIALS = range(100_000, 1_000_000)

    def __init__(self, rng: random.Random, today: dt.date):
        self.rng = rng
        self.today = today
        self.apns: set[str] = set()
        self.addresses: set[str] = set()
        self.business_names: set[str] = set()
        self.licence_serials: set[int] = set()
        self.plates: set[str] = set()

    def person(self) -> tuple[str, str]:
        return self.rng.choice(names.FIRST_NAMES), self.rng.choice(names.LAST_NAMES)

    def phone(self) -> str:
        # 555-0100 to 555-0199 are reserved for fiction.
        return f"({names.AREA_CODE}) 555-01{self.rng.randint(0, 99):02d}"

    def apn(self) -> str:
        for _ in range(self.RANDOM_TRIES):
            book = self.rng.choice(self.APN_BOOKS)
            page = self.rng.randint(self.APN_PAGES[0], self.APN_PAGES[-1])
            apn = f"{book}-{page:02d}-{self.rng.randint(self.APN_PARCELS[0], self.APN_PARCELS[-1]):03d}"
            if apn not in self.apns:
                self.apns.add(apn)
                return apn
        if not hasattr(self, "_overflow_apns"):
            overflow = itertools.product(self.APN_BOOKS, self.APN_PAGES, self.APN_OVERFLOW_PARCELS)
            self._overflow_apns = (f"{book}-{page:02d}-{parcel:03d}" for book, page, parcel in overflow)
        for apn in self._overflow_apns:
            if apn not in self.apns:
                self.apns.add(apn)
                return apn
        raise DemoSpaceExhausted(
            f"The demo has numbered all {len(self.apns):,} parcels it can (APNs); "
            "seed a town with fewer establishments."
        )

    def address(self, street: str | None = None) -> str:
        while True:
            chosen = street or self.rng.choice(names.STREETS)
            number = self.rng.randint(1, 49) * 100 + self.rng.randint(0, 98) // 2 * 2 + self.rng.randint(0, 1)
            address = f"{number} {chosen}"
            if address not in self.addresses:
                self.addresses.add(address)
                return address

    def point(self) -> tuple[Decimal, Decimal]:
        lat = Decimal(str(round(self.rng.uniform(*names.LATITUDE_RANGE), 6)))
        lon = Decimal(str(round(self.rng.uniform(*names.LONGITUDE_RANGE), 6)))
        return lat, lon

    def cuisine(self) -> names.Cuisine:
        return self.rng.choices(names.CUISINES, weights=[c.weight for c in names.CUISINES])[0]

    def business_name(self, cuisine: names.Cuisine, street: str) -> str:
        for _ in range(40):
            name = self.rng.choice(cuisine.templates).format(w=self.rng.choice(cuisine.words))
            if name not in self.business_names:
                self.business_names.add(name)
                return name
        # Many FSEs of one cuisine: tell them apart by street, as towns do ("Lucky Garden on Castro").
        base = self.rng.choice(cuisine.templates).format(w=self.rng.choice(cuisine.words))
        name, extra = f"{base} on {street.split()[0]}", 2
        while name in self.business_names:
            name, extra = f"{base} {extra}", extra + 1
        self.business_names.add(name)
        return name

    def licence_number(self) -> str:
        for _ in range(self.RANDOM_TRIES):
            serial = self.rng.randint(self.LICENCE_SERIALS[0], self.LICENCE_SERIALS[-1])
            if serial not in self.licence_serials:
                self.licence_serials.add(serial)
                return f"BL-{self.rng.randint(2004, self.today.year)}-{serial:05d}"
        if not hasattr(self, "_overflow_serials"):
            self._overflow_serials = iter(self.LICENCE_OVERFLOW_SERIALS)
        for serial in self._overflow_serials:
            if serial not in self.licence_serials:
                self.licence_serials.add(serial)
                return f"BL-{self.rng.randint(2004, self.today.year)}-{serial:05d}"
        raise DemoSpaceExhausted(
            f"The demo has numbered all {len(self.licence_serials):,} business licences it can; "
            "seed a town with fewer establishments."
        )

    def plate(self) -> str:
        while True:
            plate = f"{self.rng.randint(1, 9)}{self.rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{self.rng.randint(10000, 99999)}"
            if plate not in self.plates:
                self.plates.add(plate)
                return plate

    def day_between(self, first: dt.date, last: dt.date) -> dt.date:
        return first + dt.timedelta(days=self.rng.randint(0, max(0, (last - first).days)))
