"""Cleaning one row of a licence export: pure functions, no database.

Real exports are messy: stray spaces, inconsistent case, multi-line quoted addresses that end
in a "(lat, lon)" line, truncated street names, spreadsheet numbers such as 2801719.0. Each
function here either returns a clean value or raises `RowProblem` with a sentence a clerk can act
on. Names are kept as written (A1); only comparisons ignore case.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal, InvalidOperation

from fogcontrol.registry.models import FoodServiceEstablishment


class RowProblem(Exception):
    """A value that cannot be imported: the row is rejected with this reason."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclasses.dataclass(frozen=True)
class Doubt:
    """Something imported that a person should look at."""

    code: str
    message: str


def clean_text(value) -> str:
    """Trim and collapse every run of whitespace (including line breaks) to one space."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a spreadsheet's 2801719.0 is the licence 2801719
    return " ".join(str(value).split())


def text_key(value: str) -> str:
    """The form used to compare names: case and spacing ignored."""
    return clean_text(value).casefold()


# ---- dates -------------------------------------------------------------------------------

_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T].*)?$")


def parse_date(value) -> dt.date | None:
    """M/D/YYYY (the Town's exports), M/D/YY, ISO YYYY-MM-DD, or a spreadsheet date cell."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = clean_text(value)
    if not text:
        return None
    match = _US_DATE.match(text)
    try:
        if match:
            month, day, year = (int(part) for part in match.groups())
            if year < 100:
                year += 2000
            return dt.date(year, month, day)
        match = _ISO_DATE.match(text)
        if match:
            year, month, day = (int(part) for part in match.groups())
            return dt.date(year, month, day)
    except ValueError:
        pass
    raise RowProblem(
        "bad_date", f'"{text}" is not a date; write it as month/day/year (6/30/2027) or 2027-06-30.'
    )


# ---- coordinates -------------------------------------------------------------------------

_COORDINATES_LINE = re.compile(r"^\(\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*\)$")


def parse_number(value, *, field: str) -> Decimal | None:
    text = clean_text(value)
    if not text:
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise RowProblem(f"bad_{field}", f'{field.capitalize()} "{text}" is not a number.') from None
    if not number.is_finite():
        raise RowProblem(f"bad_{field}", f'{field.capitalize()} "{text}" is not a number.')
    return number


def check_coordinates(
    latitude: Decimal | None, longitude: Decimal | None
) -> tuple[Decimal | None, Decimal | None, list[Doubt]]:
    """Reject impossible coordinates; drop, with a doubt, those that cannot be the Town's.

    The Town is in California: west of Greenwich, so a positive longitude is a sign error or a
    swapped pair, and (0, 0) is a blank exported as zeros. Neither is stored.
    """
    if latitude is None and longitude is None:
        return None, None, []
    if latitude is None or longitude is None:
        return (
            None,
            None,
            [Doubt("coordinates_dropped", "Only one of latitude and longitude given: both dropped.")],
        )
    if not Decimal(-90) <= latitude <= Decimal(90):
        raise RowProblem(
            "latitude_out_of_range", f"Latitude {latitude} is out of range: it must be between -90 and 90."
        )
    if not Decimal(-180) <= longitude <= Decimal(180):
        raise RowProblem(
            "longitude_out_of_range",
            f"Longitude {longitude} is out of range: it must be between -180 and 180.",
        )
    if latitude == 0 and longitude == 0:
        return (
            None,
            None,
            [Doubt("coordinates_dropped", "Coordinates 0, 0 are a blank, not a place: dropped.")],
        )
    if longitude > 0:
        return (
            None,
            None,
            [
                Doubt(
                    "coordinates_dropped",
                    f"Longitude {longitude} is east of Greenwich, which cannot be in California: coordinates dropped.",
                )
            ],
        )
    # The registry keeps 6 decimal places (about 10 cm).
    quantum = Decimal("0.000001")
    return latitude.quantize(quantum), longitude.quantize(quantum), []


# ---- addresses ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Address:
    street: str
    latitude: Decimal | None = None
    longitude: Decimal | None = None


def parse_address(value) -> Address:
    """A multi-line address cell: the first line is the street; a "(lat, lon)" line gives the
    coordinates; the city/state/ZIP line is dropped (the registry holds sites in the Town)."""
    if value is None:
        return Address("")
    lines = [clean_text(line) for line in str(value).replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line]
    street = ""
    latitude = longitude = None
    for line in lines:
        match = _COORDINATES_LINE.match(line)
        if match:
            latitude, longitude = Decimal(match.group(1)), Decimal(match.group(2))
        elif not street:
            street = line
    return Address(street=street, latitude=latitude, longitude=longitude)


# USPS street suffixes (Publication 28, appendix C1), in both the abbreviation and the word; VIA
# (viaduct) is left out: in California it begins a name ("Via del Mar"), so "2801 VIA" is cut short.
STREET_TYPES = frozenset(
    """
    ALY ALLEY ANX ANNEX ARC ARCADE AVE AV AVENUE BYU BAYOU BCH BEACH BND BEND BLF BLUFF BLFS BLUFFS
    BTM BOTTOM BLVD BOULEVARD BR BRANCH BRG BRIDGE BRK BROOK BRKS BROOKS BG BURG BGS BURGS BYP BYPASS
    CP CAMP CYN CANYON CPE CAPE CSWY CAUSEWAY CTR CENTER CENTRE CTRS CENTERS CIR CIRCLE CIRS CIRCLES
    CL CLOSE CLF CLIFF CLFS CLIFFS CLB CLUB CMN COMMON CMNS COMMONS COR CORNER CORS CORNERS CRSE
    COURSE CT COURT CTS COURTS CV COVE CVS COVES CRK CREEK CRES CRESCENT CRST CREST XING CROSSING
    XRD CROSSROAD XRDS CROSSROADS CURV CURVE DL DALE DM DAM DV DIVIDE DR DRIVE DRS DRIVES EST ESTATE
    ESTS ESTATES EXPY EXPRESSWAY EXT EXTENSION EXTS EXTENSIONS FALL FLS FALLS FRY FERRY FLD FIELD
    FLDS FIELDS FLT FLAT FLTS FLATS FRD FORD FRDS FORDS FRST FOREST FRG FORGE FRGS FORGES FRK FORK
    FRKS FORKS FT FORT FWY FREEWAY GDN GARDEN GDNS GARDENS GTWY GATEWAY GLN GLEN GLNS GLENS GRN GREEN
    GRNS GREENS GRV GROVE GRVS GROVES HBR HARBOR HBRS HARBORS HVN HAVEN HTS HEIGHTS HWY HIGHWAY HL
    HILL HLS HILLS HOLW HOLLOW INLT INLET IS ISLAND ISS ISLANDS ISLE JCT JUNCTION JCTS JUNCTIONS KY
    KEY KYS KEYS KNL KNOLL KNLS KNOLLS LK LAKE LKS LAKES LAND LNDG LANDING LN LANE LGT LIGHT LGTS
    LIGHTS LF LOAF LCK LOCK LCKS LOCKS LDG LODGE LOOP MALL MNR MANOR MNRS MANORS MDW MEADOW MDWS
    MEADOWS MEWS ML MILL MLS MILLS MSN MISSION MTWY MOTORWAY MT MOUNT MTN MOUNTAIN MTNS MOUNTAINS NCK
    NECK ORCH ORCHARD OVAL OPAS OVERPASS PARK PARKS PKWY PARKWAY PKWYS PARKWAYS PASS PSGE PASSAGE
    PATH PIKE PNE PINE PNES PINES PL PLACE PLN PLAIN PLNS PLAINS PLZ PLAZA PT POINT PTS POINTS PRT
    PORT PRTS PORTS PR PRAIRIE PROMENADE RADL RADIAL RAMP RNCH RANCH RPD RAPID RPDS RAPIDS RST REST
    RDG RIDGE RDGS RIDGES RIV RIVER RD ROAD RDS ROADS RTE ROUTE ROW RUE RUN SHL SHOAL SHLS SHOALS SHR
    SHORE SHRS SHORES SKWY SKYWAY SPG SPRING SPGS SPRINGS SPUR SPURS SQ SQUARE SQS SQUARES STA STATION
    STRA STRAVENUE STRM STREAM ST STREET STS STREETS SMT SUMMIT TER TERRACE TRWY THROUGHWAY TRCE TRACE
    TRAK TRACK TRFY TRAFFICWAY TRL TRAIL TRLR TRAILER TUNL TUNNEL TPKE TURNPIKE UPAS UNDERPASS UN
    UNION UNS UNIONS VLY VALLEY VLYS VALLEYS VIADUCT VW VIEW VWS VIEWS VLG VILLAGE VLGS VILLAGES
    VL VILLE VIS VISTA WALK WALKS WALL WAY WY WAYS WL WELL WLS WELLS
    """.split()
)
# Road designators that are followed by a number: "IH 35", "US 101", "SR 82", "FM 2222".
HIGHWAY_DESIGNATORS = frozenset("IH I US SH SR CR FM RM HWY HIGHWAY ROUTE RTE".split())
# Streets that are complete without a street type.
NAMES_WITHOUT_TYPE = frozenset(
    ["BROADWAY", "SPEEDWAY", "EL CAMINO REAL", "THE ALAMEDA", "THE EMBARCADERO", "THE STRAND"]
)
_UNIT = re.compile(r"\b(?:STE|SUITE|UNIT|APT|BLDG|#)\b.*$|#.*$")


def truncation_doubt(street: str) -> Doubt | None:
    """Does the street look cut short? ("8416 N IH" lost its "35"; "2801 VIA" lost its name's end.)

    A guess, so the row is imported and flagged, never refused.
    """
    if not street:
        return None
    upper = _UNIT.sub("", street.upper()).replace(",", " ").replace(".", " ")
    tokens = upper.split()
    name_tokens = tokens[1:] if tokens and any(ch.isdigit() for ch in tokens[0]) else tokens
    if not name_tokens or all(token.isdigit() for token in name_tokens):
        return Doubt("address_truncated", f'Site address "{street}" has no street name: it looks truncated.')
    if name_tokens[-1] in HIGHWAY_DESIGNATORS - {"HWY", "HIGHWAY"}:
        return Doubt(
            "address_truncated",
            f'Site address "{street}" ends in "{name_tokens[-1]}" without a road number: it looks truncated.',
        )
    if " ".join(name_tokens) in NAMES_WITHOUT_TYPE or any(
        " ".join(name_tokens).endswith(name) for name in NAMES_WITHOUT_TYPE
    ):
        return None
    has_type = any(token in STREET_TYPES for token in name_tokens[1:] or name_tokens)
    has_route = any(
        token in HIGHWAY_DESIGNATORS
        and index + 1 < len(name_tokens)
        and any(ch.isdigit() for ch in name_tokens[index + 1])
        for index, token in enumerate(name_tokens)
    )
    if has_type or has_route:
        return None
    return Doubt(
        "address_truncated",
        f'Site address "{street}" has no street type (St, Ave, Rd…): it may be truncated.',
    )


# ---- category ----------------------------------------------------------------------------

Category = FoodServiceEstablishment.Category
_CATEGORY_WORDS: tuple[tuple[str, str], ...] = (
    ("fast food", Category.QUICK_SERVICE),
    ("quick", Category.QUICK_SERVICE),
    ("drive", Category.QUICK_SERVICE),
    ("bakery", Category.CAFE_BAKERY),
    ("cafe", Category.CAFE_BAKERY),
    ("café", Category.CAFE_BAKERY),
    ("coffee", Category.CAFE_BAKERY),
    ("brew", Category.BAR),
    ("bar", Category.BAR),
    ("tavern", Category.BAR),
    ("cater", Category.CATERER),
    ("commissary", Category.CATERER),
    ("school", Category.INSTITUTIONAL),
    ("hospital", Category.INSTITUTIONAL),
    ("care", Category.INSTITUTIONAL),
    ("institution", Category.INSTITUTIONAL),
    ("grocery", Category.GROCERY),
    ("market", Category.GROCERY),
    ("deli", Category.GROCERY),
    ("restaurant", Category.FULL_SERVICE),
    ("full", Category.FULL_SERVICE),
)


def parse_category(value) -> tuple[str | None, Doubt | None]:
    """A category value or label, or a word that names one; otherwise a doubt and no change."""
    text = clean_text(value)
    if not text:
        return None, None
    key = text.casefold()
    for choice, label in Category.choices:
        if key in (choice, label.casefold()):
            return choice, None
    for word, choice in _CATEGORY_WORDS:
        if word in key:
            return choice, None
    return None, Doubt(
        "category_unknown", f'Category "{text}" is not one the registry knows: left as it was.'
    )
