"""One row of a licence export, cleaned: pure, no database.

`clean_row` turns the raw cells of a row into a `CleanRow` (values for the mapped fields, plus
the doubts found on the way) or raises `RowProblem` with the reason the row is rejected.
`fingerprint` is what two rows for the same licence are compared by (case and spacing ignored).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from fogcontrol.registry.imports.mapping import FIELDS_BY_NAME
from fogcontrol.registry.imports.normalise import (
    Doubt,
    RowProblem,
    check_coordinates,
    clean_text,
    parse_address,
    parse_category,
    parse_date,
    parse_number,
    text_key,
    truncation_doubt,
)


@dataclasses.dataclass
class CleanRow:
    licence_number: str
    business_name: str
    site_address: str = ""
    licence_expires_on: dt.date | None = None
    category: str | None = None
    parcel_apn: str = ""
    latitude: Decimal | None = None
    longitude: Decimal | None = None
    operator_name: str = ""
    operator_phone: str = ""
    operator_email: str = ""
    doubts: list[Doubt] = dataclasses.field(default_factory=list)

    @property
    def licence_key(self) -> str:
        return self.licence_number.upper()


# The fields two rows for one licence are compared on, with how a clerk names them.
COMPARED = (
    ("business_name", "business name"),
    ("site_address", "site address"),
    ("licence_expires_on", "licence expiry"),
    ("category", "category"),
    ("parcel_apn", "parcel number"),
    ("latitude", "latitude"),
    ("longitude", "longitude"),
    ("operator_name", "operator"),
    ("operator_phone", "operator phone"),
    ("operator_email", "operator email"),
)


def fingerprint(row: CleanRow) -> tuple:
    """Names compare without regard to case or spacing; everything else as cleaned."""
    return tuple(
        text_key(v) if isinstance(v, str) else v for v in (getattr(row, name) for name, _ in COMPARED)
    )


def differences(a: tuple, b: tuple) -> list[str]:
    return [label for (_, label), x, y in zip(COMPARED, a, b, strict=True) if x != y]


def _cell(values: dict, mapping: dict, field: str):
    header = mapping.get(field)
    return values.get(header) if header else None


def clean_row(values: dict, mapping: dict) -> CleanRow:
    """Clean a row's mapped cells; RowProblem says why the row cannot be imported."""
    if "__error__" in values:
        raise RowProblem("unreadable", str(values["__error__"]))
    licence_number = clean_text(_cell(values, mapping, "licence_number"))
    if not licence_number:
        raise RowProblem(
            "licence_number_missing", "No licence number: the row cannot be matched to a licence."
        )
    business_name = clean_text(_cell(values, mapping, "business_name"))
    if not business_name:
        raise RowProblem(
            "business_name_missing", "No business name: an establishment is known by its licensed name (A1)."
        )
    row = CleanRow(licence_number=licence_number, business_name=business_name)

    address = parse_address(_cell(values, mapping, "site_address"))
    row.site_address = address.street
    if doubt := truncation_doubt(address.street):
        row.doubts.append(doubt)

    row.licence_expires_on = parse_date(_cell(values, mapping, "licence_expires_on"))

    category, doubt = parse_category(_cell(values, mapping, "category"))
    row.category = category
    if doubt:
        row.doubts.append(doubt)

    row.parcel_apn = clean_text(_cell(values, mapping, "parcel_apn"))

    # Separate latitude/longitude columns win over a "(lat, lon)" line in the address.
    latitude = parse_number(_cell(values, mapping, "latitude"), field="latitude")
    longitude = parse_number(_cell(values, mapping, "longitude"), field="longitude")
    if latitude is None and longitude is None:
        latitude, longitude = address.latitude, address.longitude
    row.latitude, row.longitude, doubts = check_coordinates(latitude, longitude)
    row.doubts.extend(doubts)

    row.operator_name = clean_text(_cell(values, mapping, "operator_name"))
    row.operator_phone = clean_text(_cell(values, mapping, "operator_phone"))
    row.operator_email = clean_text(_cell(values, mapping, "operator_email"))
    if (row.operator_phone or row.operator_email) and not row.operator_name and "operator_name" in mapping:
        row.doubts.append(
            Doubt("operator_missing", "Operator phone or email given without a name: not used.")
        )
    return row


def json_cell(value):
    """A raw cell as JSON can keep it (the report shows the row as read)."""
    if value is None or isinstance(value, str | int | bool):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, list):
        return [json_cell(item) for item in value]
    return str(value)


def field_label(name: str) -> str:
    field = FIELDS_BY_NAME.get(name)
    return field.label if field else name.replace("_", " ")
