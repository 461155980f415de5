"""Each reason a row is rejected or doubtful, on tiny hand-made CSV and XLSX files."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.models import AuditEntry
from fogcontrol.registry.imports.testing import (
    HEADER,
    codes,
    csv_bytes,
    csv_upload,
    import_upload,
    report,
    xlsx_upload,
)
from fogcontrol.registry.models import FoodServiceEstablishment, LicenceImportRow, Party
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db
Outcome = LicenceImportRow.Outcome


def _fse_audits() -> int:
    return AuditEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(FoodServiceEstablishment)
    ).count()


def _rows(*rows):
    return [HEADER, *rows]


GOOD = ["BL-1001", "Blue Plate Diner", "120 Main St", "6/30/2027", "37.3861", "-122.0839"]


@pytest.fixture(params=["csv", "xlsx"])
def upload(request):
    """Build the same table as CSV or as XLSX: every reason is proved on both."""

    def make(rows):
        return csv_upload(rows) if request.param == "csv" else xlsx_upload(rows)

    return make


@pytest.mark.provision("A1")
def test_a1_a_clean_row_creates_the_establishment_with_its_licensed_name(upload):
    licence_import = import_upload(upload(_rows(GOOD)), apply=True)
    row = report(licence_import)[2]
    assert row.outcome == Outcome.CREATED and row.reasons == []
    fse = FoodServiceEstablishment.objects.get(licence_number="BL-1001")
    assert fse.business_name == "Blue Plate Diner"
    assert fse.licence_expires_on == dt.date(2027, 6, 30)
    assert (fse.latitude, fse.longitude) == (Decimal("37.386100"), Decimal("-122.083900"))
    assert row.establishment == fse


@pytest.mark.parametrize(
    "cells, code, words",
    [
        (["", "Blue Plate Diner", "120 Main St", "", "", ""], "licence_number_missing", "No licence number"),
        (["BL-1", "   ", "120 Main St", "", "", ""], "business_name_missing", "No business name"),
        (["BL-1", "Diner", "120 Main St", "31/12/2027", "", ""], "bad_date", "is not a date"),
        (
            ["BL-1", "Diner", "120 Main St", "", "95.1", "-122.1"],
            "latitude_out_of_range",
            "between -90 and 90",
        ),
        (["BL-1", "Diner", "120 Main St", "", "north", "-122.1"], "bad_latitude", "is not a number"),
        (["BL-1", "Diner", "", "", "", ""], "site_address_missing", "new establishment needs one"),
        (["BL-1", "D" * 201, "120 Main St", "", "", ""], "invalid", "at most 200 characters"),
    ],
)
def test_a_row_is_rejected_with_its_reason_and_nothing_is_created(upload, cells, code, words):
    licence_import = import_upload(upload(_rows(cells)), apply=True)
    row = report(licence_import)[2]
    assert row.outcome == Outcome.REJECTED
    assert codes(row) == [code]
    assert words in row.reason_text
    assert row.raw["Business Name"] is not None
    assert not FoodServiceEstablishment.objects.exists()


def test_a_rejected_row_keeps_its_licence_and_name_as_written_in_the_report(upload):
    """Issue 18: the report hid the licence and the name of rejected rows, so staff could not find them."""
    licence_import = import_upload(
        upload(_rows(["BL-77", "Taqueria  Sol", "120 Main St", "31/12/2027", "", ""])), apply=True
    )
    row = report(licence_import)[2]
    assert row.outcome == Outcome.REJECTED
    assert (row.licence_number, row.business_name) == ("BL-77", "Taqueria Sol")


def test_a_later_row_for_the_same_licence_with_other_data_is_rejected_naming_what_differs(upload):
    other = ["bl-1001", "Blue Plate Cafe", "120 Main St", "6/30/2027", "37.3861", "-122.0839"]
    licence_import = import_upload(upload(_rows(GOOD, other)), apply=True)
    rows = report(licence_import)
    assert rows[2].outcome == Outcome.CREATED
    assert rows[3].outcome == Outcome.REJECTED and codes(rows[3]) == ["conflicting_duplicate"]
    assert "row 2" in rows[3].reason_text and "business name" in rows[3].reason_text
    assert FoodServiceEstablishment.objects.get().business_name == "Blue Plate Diner"


@pytest.mark.provision("A1")
def test_a1_an_exact_duplicate_differing_only_in_case_and_spacing_is_counted_once(upload):
    same = [" BL-1001 ", "BLUE  PLATE diner", "120  MAIN ST", "2027-06-30", "37.3861", "-122.0839"]
    licence_import = import_upload(upload(_rows(GOOD, same)), apply=True)
    rows = report(licence_import)
    assert rows[3].outcome == Outcome.DOUBTFUL
    assert rows[3].effect == LicenceImportRow.Effect.COUNTED_ONCE
    assert "Same licence and data as row 2: counted once" in rows[3].reason_text
    assert FoodServiceEstablishment.objects.count() == 1
    # A1: the name is kept as the first row wrote it, not as the duplicate's shouting.
    assert FoodServiceEstablishment.objects.get().business_name == "Blue Plate Diner"
    assert licence_import.counts["created"] == 1 and licence_import.counts["doubtful"] == 1


def test_a_truncated_street_is_imported_but_doubtful(upload):
    cells = ["BL-7", "Cedar Academy", "8416 N IH", "", "", ""]
    licence_import = import_upload(upload(_rows(cells)), apply=True)
    row = report(licence_import)[2]
    assert row.outcome == Outcome.DOUBTFUL and row.effect == LicenceImportRow.Effect.CREATED
    assert codes(row) == ["address_truncated"]
    assert FoodServiceEstablishment.objects.get().site_address == "8416 N IH"


@pytest.mark.parametrize("lat, lon", [("0", "0"), ("37.3861", "122.0839")])
def test_impossible_coordinates_are_dropped_and_said_so(upload, lat, lon):
    cells = ["BL-8", "Golden Wok", "55 Castro St", "", lat, lon]
    licence_import = import_upload(upload(_rows(cells)), apply=True)
    row = report(licence_import)[2]
    assert row.outcome == Outcome.DOUBTFUL and codes(row) == ["coordinates_dropped"]
    fse = FoodServiceEstablishment.objects.get()
    assert fse.latitude is None and fse.longitude is None


def test_the_dry_run_writes_nothing_and_reports_what_applying_will_do(upload):
    before = _fse_audits()
    licence_import = import_upload(upload(_rows(GOOD)), apply=False)
    assert report(licence_import)[2].outcome == Outcome.CREATED
    assert licence_import.status == "checked"
    assert not FoodServiceEstablishment.objects.exists()
    assert _fse_audits() == before


def test_reimport_of_the_same_file_changes_nothing_and_writes_no_audit(upload):
    table = _rows(GOOD, ["BL-7", "Cedar Academy", "8416 N IH", "", "", ""])
    import_upload(upload(table), apply=True)
    audits = _fse_audits()
    updated_at = list(FoodServiceEstablishment.objects.order_by("pk").values_list("updated_at", flat=True))
    again = import_upload(upload(table), apply=True)
    rows = report(again)
    assert rows[2].outcome == Outcome.UNCHANGED
    assert rows[3].outcome == Outcome.DOUBTFUL and rows[3].effect == LicenceImportRow.Effect.UNCHANGED
    assert again.counts["created"] == again.counts["updated"] == 0
    assert _fse_audits() == audits
    assert (
        list(FoodServiceEstablishment.objects.order_by("pk").values_list("updated_at", flat=True))
        == updated_at
    )


@pytest.mark.provision("A1")
def test_a1_an_update_lists_the_changed_fields_and_is_audited(town):
    fse = town.own_fse
    table = [
        ["Licence", "Business name", "Address", "Expires"],
        [fse.licence_number.lower(), "Blue Plate Diner & Grill", fse.site_address, "12/31/2028"],
    ]
    before = _fse_audits()
    licence_import = import_upload(csv_upload(table), apply=True, acting_user=town.users["fog_manager"])
    row = report(licence_import)[2]
    assert row.outcome == Outcome.UPDATED
    assert row.changed_fields == ["business name", "licence expiry"]
    fse.refresh_from_db()
    assert fse.business_name == "Blue Plate Diner & Grill" and fse.licence_expires_on == dt.date(2028, 12, 31)
    assert _fse_audits() == before + 1
    entry = AuditEntry.objects.filter(action="establishment.update").first()
    assert entry.actor == town.users["fog_manager"]


def test_a_blank_cell_never_erases_what_the_registry_holds(town):
    fse = town.own_fse
    table = [
        ["Licence", "Business name", "Address", "Expires"],
        [fse.licence_number, fse.business_name, "", ""],
    ]
    licence_import = import_upload(csv_upload(table), apply=True)
    assert report(licence_import)[2].outcome == Outcome.UNCHANGED
    fse.refresh_from_db()
    assert fse.site_address and fse.licence_expires_on == dt.date(2027, 6, 30)


def test_parcel_category_and_operator_columns(town):
    parcel = factories.ParcelFactory(apn="175-99-001")
    table = [
        ["Licence", "DBA", "Address", "APN", "Business type", "Owner name", "Phone", "Email"],
        [
            "BL-9",
            "Plaza Tacos",
            "400 Plaza Way",
            "175-99-001",
            "Fast food",
            "Ruiz Family LLC",
            "650-555-0101",
            "r@example.org",
        ],
        ["BL-10", "Plaza Books", "402 Plaza Way", "175-00-000", "Tattoo parlour", "Ruiz Family LLC", "", ""],
    ]
    licence_import = import_upload(csv_upload(table), apply=True)
    assert (
        licence_import.mapping["parcel_apn"] == "APN"
        and licence_import.mapping["operator_name"] == "Owner name"
    )
    rows = report(licence_import)
    assert rows[2].outcome == Outcome.CREATED
    assert rows[3].outcome == Outcome.DOUBTFUL and codes(rows[3]) == ["category_unknown", "parcel_unknown"]
    tacos = FoodServiceEstablishment.objects.get(licence_number="BL-9")
    assert tacos.parcel == parcel and tacos.category == "quick_service"
    assert tacos.operator.name == "Ruiz Family LLC" and tacos.operator.phone == "650-555-0101"
    books = FoodServiceEstablishment.objects.get(licence_number="BL-10")
    assert books.operator == tacos.operator and books.parcel is None
    assert Party.objects.filter(name="Ruiz Family LLC").count() == 1


def test_a_latin1_file_is_read():
    data = csv_bytes(_rows(["BL-2", "Café Olé", "12 Peña St", "", "", ""]), encoding="latin-1")
    licence_import = import_upload(SimpleUploadedFile("l.csv", data, content_type="text/csv"), apply=True)
    assert licence_import.encoding in ("cp1252", "latin-1")
    assert FoodServiceEstablishment.objects.get().business_name == "Café Olé"


def test_a_utf8_file_with_a_bom_and_semicolons_is_read():
    data = csv_bytes(_rows(["BL-3", "Crêperie Ÿ", "9 Rue St", "", "", ""]), bom=True, delimiter=";")
    licence_import = import_upload(SimpleUploadedFile("l.csv", data, content_type="text/csv"), apply=True)
    assert licence_import.headers[0] == "Licence No"  # the BOM is not part of the first header
    assert licence_import.delimiter == ";"
    assert FoodServiceEstablishment.objects.get().business_name == "Crêperie Ÿ"


def test_a_broken_row_is_reported_and_the_rest_imported():
    text = 'Licence No,Business Name,Site Address\r\nBL-4,Diner,"1 Main St"x\r\nBL-5,Cafe,2 Main St,extra\r\n'
    upload = SimpleUploadedFile("l.csv", text.encode(), content_type="text/csv")
    licence_import = import_upload(upload, apply=True)
    rows = report(licence_import)
    assert set(rows) == {2, 3}
    assert rows[3].raw["__extra__"] == ["extra"]
    assert FoodServiceEstablishment.objects.filter(licence_number="BL-5").exists()


def test_xlsx_numbers_and_dates_are_read_as_a_clerk_means_them():
    rows = [HEADER, [2801719, "Austin Golf Club", "24900 W SH 71", dt.datetime(2027, 6, 30), 30.3, -98.0]]
    licence_import = import_upload(xlsx_upload(rows), apply=True)
    assert report(licence_import)[2].outcome == Outcome.CREATED
    fse = FoodServiceEstablishment.objects.get()
    assert fse.licence_number == "2801719" and fse.licence_expires_on == dt.date(2027, 6, 30)


@pytest.mark.parametrize(
    "name, content_type, data, words",
    [
        ("l.pdf", "application/pdf", b"%PDF-1.4", "not a CSV or XLSX"),
        ("l.xls", "application/vnd.ms-excel", b"\xd0\xcf\x11\xe0rest", "old Excel"),
        (
            "l.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            b"a,b\n",
            "not an Excel",
        ),
        ("l.csv", "text/csv", b"", "empty"),
        ("l.csv", "image/png", b"a,b\n1,2\n", "image/png"),
        ("l.csv", "text/csv", b"\x89PNG\x00\x00\x00", "not text"),
    ],
)
def test_a_bad_file_is_refused_with_a_message_on_the_file_field(name, content_type, data, words):
    with pytest.raises(ValidationError) as error:
        import_upload(SimpleUploadedFile(name, data, content_type=content_type))
    assert words in " ".join(error.value.message_dict["file"])


def test_a_file_over_the_size_limit_is_refused(settings):
    settings.FOGCONTROL_MAX_UPLOAD_BYTES = 100
    with pytest.raises(ValidationError) as error:
        import_upload(csv_upload(_rows(*[GOOD] * 5)))
    assert "largest accepted" in " ".join(error.value.message_dict["file"])


def test_a_mapping_without_the_licence_column_is_refused_saying_which():
    with pytest.raises(ValidationError) as error:
        import_upload(
            csv_upload(_rows(GOOD)), mapping={"business_name": "Business Name", "site_address": "Nope"}
        )
    messages = " ".join(error.value.message_dict["mapping"])
    assert "licence number" in messages and '"Nope"' in messages
