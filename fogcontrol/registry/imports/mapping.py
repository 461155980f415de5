"""The column mapping: which column of the Town's licence export feeds which registry field.

A mapping is a plain dict {field name: column header}. `propose_mapping` guesses it from the
header names (case, spacing and punctuation ignored, common synonyms known); staff can change
it before the dry run. Only mapped fields are read, compared and written.
"""

from __future__ import annotations

import dataclasses
import re

from django.core.exceptions import ValidationError


@dataclasses.dataclass(frozen=True)
class ImportField:
    name: str
    label: str
    required: bool = False
    synonyms: tuple[str, ...] = ()


# The order is the order of the mapping form.
FIELDS: tuple[ImportField, ...] = (
    ImportField(
        "licence_number",
        "Business licence number",
        required=True,
        synonyms=(
            "licence number",
            "license number",
            "licence no",
            "license no",
            "licence",
            "license",
            "business licence number",
            "business license number",
            "business license",
            "bl number",
            "bl no",
            "licence id",
            "license id",
            "account number",
            "facility id",
            "permit number",
        ),
    ),
    ImportField(
        "business_name",
        "Business name (as licensed, A1)",
        required=True,
        synonyms=(
            "business name",
            "name",
            "dba",
            "doing business as",
            "trade name",
            "establishment name",
            "restaurant name",
            "facility name",
            "business",
        ),
    ),
    ImportField(
        "site_address",
        "Site address",
        synonyms=(
            "site address",
            "address",
            "street address",
            "location address",
            "business address",
            "service address",
            "location",
            "street",
        ),
    ),
    ImportField(
        "licence_expires_on",
        "Licence expiry date",
        synonyms=(
            "licence expiry",
            "license expiry",
            "licence expires",
            "license expires",
            "expiry date",
            "expiration date",
            "expiration",
            "expires",
            "expiry",
            "licence expiration date",
            "license expiration date",
            "valid until",
        ),
    ),
    ImportField(
        "category",
        "Category",
        synonyms=("category", "business type", "business category", "type", "class", "licence type"),
    ),
    ImportField(
        "parcel_apn",
        "Parcel number (APN)",
        synonyms=("apn", "parcel", "parcel number", "assessor parcel number", "assessors parcel number"),
    ),
    ImportField("latitude", "Latitude", synonyms=("latitude", "lat", "y")),
    ImportField("longitude", "Longitude", synonyms=("longitude", "lon", "long", "lng", "x")),
    ImportField(
        "operator_name",
        "Operator (licensee) name",
        synonyms=("operator", "operator name", "owner", "owner name", "licensee", "licensee name"),
    ),
    ImportField(
        "operator_phone",
        "Operator phone",
        synonyms=("phone", "telephone", "operator phone", "owner phone", "contact phone", "phone number"),
    ),
    ImportField(
        "operator_email",
        "Operator email",
        synonyms=("email", "e-mail", "operator email", "owner email", "contact email", "email address"),
    ),
)
FIELDS_BY_NAME = {field.name: field for field in FIELDS}
REQUIRED_FIELDS = tuple(field.name for field in FIELDS if field.required)


_WORD_FORMS = {"license": "licence", "no": "number", "num": "number", "nbr": "number", "nr": "number"}


def header_key(header: str) -> str:
    """`  Business-License  No. `, `Business Licence #` and `business licence number` compare equal."""
    words = re.sub(r"[^0-9a-z]+", " ", str(header).lower().replace("#", " number ")).split()
    return " ".join(_WORD_FORMS.get(word, word) for word in words)


def propose_mapping(headers: list[str]) -> dict[str, str]:
    """Guess {field: header} from the header names; each header feeds at most one field."""
    by_key: dict[str, str] = {}
    for header in headers:
        by_key.setdefault(header_key(header), header)
    mapping: dict[str, str] = {}
    used: set[str] = set()
    for field in FIELDS:
        for synonym in (field.name.replace("_", " "), *field.synonyms):
            header = by_key.get(header_key(synonym))
            if header is not None and header not in used:
                mapping[field.name] = header
                used.add(header)
                break
    return mapping


def clean_mapping(mapping: dict, headers: list[str]) -> dict[str, str]:
    """The mapping with blanks dropped; ValidationError (field "mapping") saying what to fix."""
    if not isinstance(mapping, dict):
        raise ValidationError({"mapping": 'Give the mapping as {"field": "column header", ...}.'})
    problems: list[str] = []
    cleaned: dict[str, str] = {}
    for name, header in mapping.items():
        if header in (None, ""):
            continue
        if name not in FIELDS_BY_NAME:
            problems.append(
                f'"{name}" is not a field the import knows; use one of: {", ".join(FIELDS_BY_NAME)}.'
            )
        elif header not in headers:
            problems.append(
                f'Column "{header}" (for {name}) is not in the file; its columns are: {", ".join(headers)}.'
            )
        else:
            cleaned[name] = header
    for name in REQUIRED_FIELDS:
        if name not in cleaned:
            problems.append(f"Choose the column that holds the {FIELDS_BY_NAME[name].label.lower()}.")
    columns = list(cleaned.values())
    for header in sorted({h for h in columns if columns.count(h) > 1}):
        fields = [name for name, h in cleaned.items() if h == header]
        problems.append(f'Column "{header}" is mapped to several fields ({", ".join(fields)}); choose one.')
    if problems:
        raise ValidationError({"mapping": problems})
    return cleaned
