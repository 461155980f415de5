"""Cleaning the cells of a licence export: pure functions, no database."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.registry.imports.mapping import propose_mapping
from fogcontrol.registry.imports.normalise import (
    RowProblem,
    check_coordinates,
    clean_text,
    parse_address,
    parse_category,
    parse_date,
    truncation_doubt,
)
from fogcontrol.registry.imports.reading import detect_delimiter, detect_encoding


def test_whitespace_is_trimmed_and_collapsed_but_case_is_kept():
    assert clean_text("  McDonald's   #14774 \n") == "McDonald's #14774"
    assert clean_text(2801719.0) == "2801719"
    assert clean_text(None) == ""


@pytest.mark.parametrize(
    "text, expected",
    [
        ("8/15/2018", dt.date(2018, 8, 15)),
        ("06/30/27", dt.date(2027, 6, 30)),
        ("2027-06-30", dt.date(2027, 6, 30)),
        ("2027-06-30 00:00:00", dt.date(2027, 6, 30)),
        (dt.datetime(2027, 6, 30, 0, 0), dt.date(2027, 6, 30)),
        ("", None),
    ],
)
def test_dates_in_us_and_iso_forms(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize("text", ["31/12/2027", "June 30", "2027-02-30", "n/a"])
def test_an_unparseable_date_is_a_problem_that_says_how_to_write_it(text):
    with pytest.raises(RowProblem) as problem:
        parse_date(text)
    assert problem.value.code == "bad_date"
    assert "month/day/year" in problem.value.message


def test_a_multiline_address_gives_the_street_and_the_coordinates():
    address = parse_address("2030 E OLTORF ST\nAUSTIN, TX 78741\n(30.230384, -97.732366)")
    assert address.street == "2030 E OLTORF ST"
    assert (address.latitude, address.longitude) == (Decimal("30.230384"), Decimal("-97.732366"))
    assert parse_address("  915   N LAMAR BLVD \r\nAUSTIN, TX").street == "915 N LAMAR BLVD"


@pytest.mark.parametrize("street", ["8416 N IH", "24900 W SH", "1 2", "2801 VIA", "6448 E US", "403 FM"])
def test_truncated_streets_are_doubtful(street):
    doubt = truncation_doubt(street)
    assert doubt is not None and doubt.code == "address_truncated"


@pytest.mark.parametrize(
    "street",
    [
        "1600 S FM 620 RD",
        "9401 S US 183 HWY",
        "5770 N MOPAC EXPY",
        "100 El Camino Real",
        "3901 SPEEDWAY",
        "8416 N IH 35",
        "216 E Parsons St Ste 4",
        "12 Main Street #5",
        # Issue 18: the demo's own streets were flagged; USPS C1 names them all.
        "1919 Loyola Corners",
        "40 Orchard Commons",
        "7 Mission Village",
        "55 Harbor Landing",
    ],
)
def test_complete_streets_are_not_doubtful(street):
    assert truncation_doubt(street) is None


def test_coordinates_out_of_range_are_a_problem():
    with pytest.raises(RowProblem) as problem:
        check_coordinates(Decimal("91"), Decimal("-122"))
    assert problem.value.code == "latitude_out_of_range"


@pytest.mark.parametrize("lat, lon", [("0", "0"), ("37.4", "122.1")])
def test_coordinates_that_cannot_be_in_california_are_dropped_with_a_doubt(lat, lon):
    latitude, longitude, doubts = check_coordinates(Decimal(lat), Decimal(lon))
    assert (latitude, longitude) == (None, None)
    assert [d.code for d in doubts] == ["coordinates_dropped"]


def test_category_by_value_label_or_word():
    assert parse_category("quick_service")[0] == "quick_service"
    assert parse_category("Bar or brewpub")[0] == "bar"
    assert parse_category("RESTAURANT")[0] == "full_service"
    value, doubt = parse_category("Tattoo parlour")
    assert value is None and doubt.code == "category_unknown"


def test_mapping_is_proposed_from_header_names_ignoring_case_and_spacing():
    headers = [
        "Restaurant Name",
        "Zip Code",
        "Inspection Date",
        "Score",
        "Address",
        "Facility ID",
        "Process Description",
    ]
    assert propose_mapping(headers) == {
        "licence_number": "Facility ID",
        "business_name": "Restaurant Name",
        "site_address": "Address",
    }
    assert propose_mapping(["  BUSINESS-LICENSE  NO. ", "DBA", "Lat", "Lng"]) == {
        "licence_number": "  BUSINESS-LICENSE  NO. ",
        "business_name": "DBA",
        "latitude": "Lat",
        "longitude": "Lng",
    }


@pytest.mark.parametrize(
    "data, expected",
    [
        ("Café".encode(), "utf-8-sig"),
        (b"\xef\xbb\xbfCaf\xc3\xa9", "utf-8-sig"),
        ("Café – ’".encode("cp1252"), "cp1252"),
        (b"Caf\xe9 \x81", "latin-1"),
        ("Café".encode("utf-16"), "utf-16"),
    ],
)
def test_encoding_is_detected(data, expected):
    assert detect_encoding(io.BytesIO(data)) == expected


def test_delimiter_is_read_from_the_header_line():
    assert detect_delimiter("Licence;Name;Address\r\n") == ";"
    assert detect_delimiter("Licence\tName\n") == "\t"
    assert detect_delimiter('"Name, as licensed",Licence\n') == ","
    assert detect_delimiter("Licence\n") == ","


@given(st.text())
def test_any_address_text_parses_without_error(text):
    address = parse_address(text)
    assert "\n" not in address.street
    truncation_doubt(address.street)


@given(st.text())
def test_cleaning_text_is_idempotent(text):
    assert clean_text(clean_text(text)) == clean_text(text)


_cells = st.one_of(st.none(), st.text(), st.integers(), st.floats(allow_nan=True), st.dates())


@given(st.fixed_dictionaries({name: _cells for name in ("L", "N", "A", "E", "C", "P", "Y", "X")}))
def test_any_row_is_either_cleaned_or_rejected_with_a_reason(values):
    from fogcontrol.registry.imports.rows import clean_row

    mapping = dict(
        zip(
            [
                "licence_number",
                "business_name",
                "site_address",
                "licence_expires_on",
                "category",
                "parcel_apn",
                "latitude",
                "longitude",
            ],
            "LNAECPYX",
            strict=True,
        )
    )
    try:
        row = clean_row(values, mapping)
    except RowProblem as problem:
        assert problem.code and problem.message
    else:
        assert row.licence_number and row.business_name
