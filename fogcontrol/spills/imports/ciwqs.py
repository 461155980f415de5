"""Cleaning one row of the State's CIWQS flat files: pure, no database.

The State publishes tab-separated, Latin-1 files with one header row and a trailing empty column
(read by the registry import's streaming reader, ``registry/imports/reading.py``). Their quirks are
handled here, each kept visible:

- two date formats, ``01-MAY-14 09.00.00.000000 PM`` (start and end) and ``05/02/2014 21:00``
  (notified, arrived), with strays (``10/4/2010 10:22``, ``11-26-2008 14:00``); a date that cannot
  be read, or whose year is impossible (``07/28/2808``), is flagged with the text given and left
  empty, never guessed;
- a pipe "age" that is a year (``1920``) is flagged;
- zero and positive-longitude coordinates (California lies west of Greenwich) are flagged and kept;
- the cause vocabulary changes case and spelling over time: normalised to the controlled list
  (``rules/spills.py``), the original words kept.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from fogcontrol.registry.imports.normalise import RowProblem, clean_text
from fogcontrol.rules import spills as rules

# The State's timestamps are California's local time.
STATE_ZONE = ZoneInfo("America/Los_Angeles")
# Spills before the State's reporting began, or after the file was made, are impossible.
FIRST_YEAR, LAST_YEAR = 2000, 2030
MAX_PIPE_AGE = 150

SPILL_HEADERS = {"WDID", "SPILL_ID", "SPILL_VOL", "START_DT", "SPILL_CAUSE"}
AGENCY_HEADERS = {"WDID", "Agency", "Collection System"}

_ORACLE = re.compile(r"^(\d{1,2})-([A-Z]{3})-(\d{2}) (\d{1,2})\.(\d{2})\.(\d{2})(?:\.\d+)? ?(AM|PM)$")
_US = re.compile(r"^(\d{1,2})[/-](\d{1,2})[/-](\d{4}) (\d{1,2}):(\d{2})(?::\d{2})?$")
_MONTHS = {m: i for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split(), start=1)}


@dataclasses.dataclass
class Flag:
    code: str
    message: str

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


def file_kind(headers) -> str | None:
    """ "spills" (PLSD, SSO), "agencies" (PRA) or None, from the header row."""
    names = set(headers)
    if SPILL_HEADERS <= names:
        return "spills"
    if AGENCY_HEADERS <= names:
        return "agencies"
    return None


def parse_state_datetime(text: str, field: str, flags: list[Flag]) -> dt.datetime | None:
    """Either of the State's formats, as an aware datetime; a flag (and None) for text that is no
    date or a year that cannot be."""
    value = clean_text(text).upper()
    if not value:
        return None
    parts = None
    match = _ORACLE.match(value)
    if match and match.group(2) in _MONTHS:
        day, month, year = int(match.group(1)), _MONTHS[match.group(2)], 2000 + int(match.group(3))
        hour = int(match.group(4)) % 12 + (12 if match.group(7) == "PM" else 0)
        parts = (year, month, day, hour, int(match.group(5)))
    match = None if parts else _US.match(value)
    if match:
        parts = (
            int(match.group(3)),
            int(match.group(1)),
            int(match.group(2)),
            int(match.group(4)),
            int(match.group(5)),
        )
    if parts is None:
        flags.append(Flag("unreadable_date", f"{field}: “{clean_text(text)}” is not a date; left empty."))
        return None
    year = parts[0]
    if not FIRST_YEAR <= year <= LAST_YEAR:
        flags.append(
            Flag(
                "impossible_date",
                f"{field}: “{clean_text(text)}” has the impossible year {year}; left empty.",
            )
        )
        return None
    try:
        return dt.datetime(*parts, tzinfo=STATE_ZONE)
    except ValueError:
        flags.append(
            Flag("unreadable_date", f"{field}: “{clean_text(text)}” is no day of the calendar; left empty.")
        )
        return None


def parse_gallons(text: str, field: str, flags: list[Flag]) -> Decimal | None:
    value = clean_text(text).replace(",", "")
    if not value:
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        flags.append(Flag("unreadable_volume", f"{field}: “{value}” is not a number of gallons; left empty."))
        return None
    if number < 0 or not number.is_finite():
        flags.append(Flag("unreadable_volume", f"{field}: “{value}” is not a volume; left empty."))
        return None
    return number.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def parse_coordinates(
    lat_text: str, lon_text: str, flags: list[Flag]
) -> tuple[Decimal | None, Decimal | None]:
    """Kept as the State gave them, flagged when zero or east of Greenwich (California's longitudes
    are negative: a positive one has most likely lost its minus sign)."""
    lat_value, lon_value = clean_text(lat_text), clean_text(lon_text)
    if not lat_value and not lon_value:
        return None, None
    try:
        latitude = Decimal(lat_value).quantize(Decimal("0.000001"))
        longitude = Decimal(lon_value).quantize(Decimal("0.000001"))
    except InvalidOperation:
        flags.append(
            Flag(
                "unreadable_coordinates",
                f"Coordinates “{lat_value}, {lon_value}” are not numbers; left empty.",
            )
        )
        return None, None
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        flags.append(
            Flag(
                "impossible_coordinates",
                f"Coordinates {lat_value}, {lon_value} lie off the globe; left empty.",
            )
        )
        return None, None
    if latitude == 0 or longitude == 0:
        flags.append(
            Flag(
                "zero_coordinates", f"Coordinates {lat_value}, {lon_value}: a zero is no place in California."
            )
        )
    elif longitude > 0:
        flags.append(
            Flag(
                "positive_longitude",
                f"Longitude {lon_value} is east of Greenwich: its minus sign is probably lost.",
            )
        )
    return latitude, longitude


def destination(final_dest: str, reached_surface: bool, reached_storm_drain: bool) -> str:
    """The controlled destination for the State's words; the State's yes/no answers decide first."""
    words = clean_text(final_dest).lower()
    if reached_surface or re.search(
        r"surface water|beach|creek|river|\bbay\b|ocean|lake|drainage channel", words
    ):
        return rules.DEST_SURFACE_WATER
    if reached_storm_drain or "storm drain" in words:
        return rules.DEST_STORM_DRAIN
    for needle, dest in (("street", rules.DEST_STREET), ("curb", rules.DEST_STREET), ("unpaved", rules.DEST_UNPAVED),
                         ("paved", rules.DEST_PAVED), ("building", rules.DEST_BUILDING)):  # fmt: skip
        if needle in words:
            return dest
    return rules.DEST_OTHER


def _yes(text: str) -> bool:
    return clean_text(text).lower() == "yes"


def clean_spill(values: dict, *, kind: str) -> tuple[dict, list[Flag]]:
    """The Spill fields of one State row, and its flags; RowProblem when the row cannot be kept."""
    get = lambda name: clean_text(values.get(name))  # noqa: E731
    spill_id = get("SPILL_ID")
    if not spill_id:
        raise RowProblem("no_spill_id", "The row has no SPILL_ID: it cannot be told apart from others.")
    if not spill_id.isdigit() or len(spill_id) > 20:
        raise RowProblem("bad_spill_id", f"SPILL_ID “{spill_id}” is not the State's number.")
    flags: list[Flag] = []
    started = parse_state_datetime(values.get("START_DT"), "START_DT", flags)
    ended = parse_state_datetime(values.get("EST_END_DT"), "EST_END_DT", flags)
    notified = parse_state_datetime(values.get("AGENCY_NOTIFY_DT"), "AGENCY_NOTIFY_DT", flags)
    arrived = parse_state_datetime(values.get("OPRTOR_ARRVL_DT"), "OPRTOR_ARRVL_DT", flags)
    if started and ended and ended < started:
        flags.append(Flag("ends_before_start", "EST_END_DT is before START_DT: kept as given."))
    spilled = parse_gallons(values.get("SPILL_VOL"), "SPILL_VOL", flags)
    if spilled is None:
        flags.append(Flag("no_volume", "SPILL_VOL is empty: the category reads it as 0 gallons."))
    recovered = parse_gallons(values.get("SPILL_VOL_RECOVER"), "SPILL_VOL_RECOVER", flags)
    reached = parse_gallons(values.get("SPILL_VOL_REACH_SURF"), "SPILL_VOL_REACH_SURF", flags)
    latitude, longitude = parse_coordinates(
        values.get("LATTITUDE_DECIMAL_DEGREES"), values.get("LONGITUDE_DECIMAL_DEGREES"), flags
    )
    age = get("AGE_SEWER_PIPE")
    if age.isdigit() and int(age) > MAX_PIPE_AGE:
        flags.append(
            Flag("impossible_year", f"AGE_SEWER_PIPE “{age}” is a year, not an age: left as it was given.")
        )
    reached_surface = _yes(values.get("REACH_SURFACE"))
    reached_drain = _yes(values.get("REACH_STORM_DRAINPIPE"))
    dest = destination(values.get("FINAL_SPILL_DEST"), reached_surface, reached_drain)
    fully_recovered = None
    if dest == rules.DEST_STORM_DRAIN:
        fully_recovered = (
            _yes(values.get("RETURN_TO_SSS")) and spilled is not None and (recovered or 0) >= spilled
        )
    cause_text = get("SPILL_CAUSE")
    cause, recognised = rules.normalise_cause(cause_text)
    if not recognised:
        flags.append(Flag("unknown_cause", f"SPILL_CAUSE “{cause_text}” is in no list: recorded as Other."))
    dest_text = "; ".join(text for text in (get("FINAL_SPILL_DEST"), get("FINAL_SPILL_DEST_EXPL")) if text)
    fields = {
        "kind": kind,
        "agency_wdid": get("WDID")[:20],
        "state_spill_id": spill_id,
        "location_name": get("SPILL_LOC_NAME")[:200],
        "address": get("ADDRESS")[:300],
        "city": get("CITY")[:100],
        "zip_code": get("ZIP")[:10],
        "latitude": latitude,
        "longitude": longitude,
        "location_description": get("SPILL_LOC_DESC"),
        "started_at": started,
        "ended_at": ended,
        "notified_at": notified,
        "arrived_at": arrived,
        "volume_spilled": spilled,
        "volume_recovered": recovered,
        "volume_reached_surface_water": reached,
        "destination": dest,
        "destination_text": dest_text,
        "storm_drain_fully_recovered": fully_recovered,
        "cause": cause,
        "cause_explanation": get("SPILL_CAUSE_EXPLAIN"),
        "cause_original": cause_text[:200],
        "response": "; ".join(
            text for text in (get("RESPONSE_ACTIVITIES"), get("RESPONSE_ACTIVITIES_EXPL")) if text
        ),
        "flags": [flag.as_dict() for flag in flags],
    }
    fields["category"] = rules.spill_category(
        volume_spilled=spilled,
        volume_reached_surface_water=reached,
        destination=dest,
        storm_drain_fully_recovered=fully_recovered,
    ).category
    return fields, flags


def clean_agency(values: dict) -> dict:
    """One agency of the register (PRA); the register lists an agency once per address type."""
    get = lambda name: clean_text(values.get(name))  # noqa: E731
    wdid = get("WDID")
    if not wdid:
        raise RowProblem("no_wdid", "The row has no WDID.")
    if len(wdid) > 20:
        raise RowProblem("bad_wdid", f"WDID “{wdid[:30]}” is longer than the State's ids.")
    if not get("Agency"):
        raise RowProblem("no_agency_name", "The row names no agency.")
    address = ", ".join(text for text in (get("Street"), get("City"), get("Zip")) if text)
    return {
        "wdid": wdid,
        "name": get("Agency")[:200],
        "collection_system": get("Collection System")[:200],
        "region": get("Region")[:8],
        "county": get("County")[:100],
        "status": get("Status")[:20],
        "address": address[:300],
        "address_type": get("Address Type"),
    }


# The register's address types, best first: an agency takes the address of its best row.
ADDRESS_PREFERENCE = ("AGENCY Mailing", "AGENCY Physical", "AGENCY Billing", "AGENCY Contact")


def address_rank(address_type: str) -> int:
    try:
        return ADDRESS_PREFERENCE.index(address_type)
    except ValueError:
        return len(ADDRESS_PREFERENCE)
