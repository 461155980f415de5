"""A real, messy export: Austin's food establishment inspections (one row per inspection).

`data/austin_sample.csv` is 266 rows copied from it: multi-line quoted addresses ending in a
"(lat, lon)" line, the same facility on many rows, exact duplicate rows, truncated highway
addresses ("8416 N IH") and a facility with no address. The full file (25,393 rows) is used when
present beside the clone (../shared), and skipped otherwise.
"""

import csv
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.models import AuditEntry
from fogcontrol.registry.imports.testing import codes, import_upload, report
from fogcontrol.registry.models import FoodServiceEstablishment, LicenceImportRow

pytestmark = pytest.mark.django_db
SAMPLE = Path(__file__).parent / "data" / "austin_sample.csv"
FULL = (
    Path(settings.BASE_DIR).parent
    / "shared/research_data/austin_food_inspections/Food_Establishment_Inspection_Scores.csv"
)
MAPPING = {"licence_number": "Facility ID", "business_name": "Restaurant Name", "site_address": "Address"}
Outcome = LicenceImportRow.Outcome


def _upload(path: Path) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, path.read_bytes(), content_type="text/csv")


def _records(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _fse_audits() -> int:
    return AuditEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(FoodServiceEstablishment)
    ).count()


def _assert_every_row_accounted_for(licence_import, records):
    counts = licence_import.counts
    assert counts["rows"] == len(records)
    assert sum(counts[outcome] for outcome in Outcome.values) == len(records)
    numbers = list(licence_import.rows.filter(applied=True).values_list("row_number", flat=True))
    assert sorted(numbers) == list(range(2, len(records) + 2))


def test_the_proposed_mapping_fits_the_austin_columns():
    licence_import = import_upload(_upload(SAMPLE))
    assert licence_import.mapping == MAPPING


@pytest.mark.provision("A1")
def test_a1_the_austin_sample_is_imported_row_by_row_and_reimport_changes_nothing():
    records = _records(SAMPLE)
    facilities = {record["Facility ID"] for record in records}
    licence_import = import_upload(_upload(SAMPLE), mapping=MAPPING, apply=True)
    _assert_every_row_accounted_for(licence_import, records)
    rows = report(licence_import)

    # One establishment per facility, except the one whose rows have no address at all.
    no_address = {r["Facility ID"] for r in records if not r["Address"].strip()}
    assert FoodServiceEstablishment.objects.count() == len(facilities - no_address) == len(facilities) - 1
    rejected = [row for row in rows.values() if row.outcome == Outcome.REJECTED]
    assert {row.licence_number for row in rejected} == no_address
    assert all(codes(row) == ["site_address_missing"] for row in rejected)

    # The same facility on later rows: reported, counted once.
    repeats = sum(n - 1 for n in Counter(r["Facility ID"] for r in records).values()) - (len(rejected) - 1)
    duplicates = [row for row in rows.values() if row.effect == LicenceImportRow.Effect.COUNTED_ONCE]
    assert len(duplicates) == repeats
    assert all(codes(row) == ["duplicate_row"] for row in duplicates)

    # Multi-line address: the street, and the coordinates from the "(lat, lon)" line.
    oltorf = FoodServiceEstablishment.objects.get(site_address="2030 E OLTORF ST")
    assert oltorf.latitude == Decimal("30.230384") and oltorf.longitude == Decimal("-97.732366")
    # A1: names as written, spaces collapsed.
    assert FoodServiceEstablishment.objects.filter(business_name="Austin Golf Club").exists()

    # Truncated highway addresses: imported, doubtful.
    cedar = next(row for row in rows.values() if row.licence_number == "10118311")
    assert cedar.outcome == Outcome.DOUBTFUL and codes(cedar) == ["address_truncated"]
    assert "8416 N IH" in cedar.reason_text

    audits = _fse_audits()
    again = import_upload(_upload(SAMPLE), mapping=MAPPING, apply=True)
    _assert_every_row_accounted_for(again, records)
    assert again.counts["created"] == again.counts["updated"] == 0
    assert again.counts["unchanged"] == licence_import.counts["created"]
    assert again.counts["doubtful"] == licence_import.counts["doubtful"]
    assert again.counts["rejected"] == licence_import.counts["rejected"]
    assert _fse_audits() == audits


def test_the_dry_run_of_the_sample_reports_what_applying_then_does():
    dry = import_upload(_upload(SAMPLE), mapping=MAPPING, apply=False)
    assert not FoodServiceEstablishment.objects.exists()
    applied = import_upload(_upload(SAMPLE), mapping=MAPPING, apply=True)
    assert {k: v for k, v in dry.counts.items()} == {k: v for k, v in applied.counts.items()}
    dry_rows = list(dry.rows.filter(applied=False).values_list("row_number", "outcome", "effect", "reasons"))
    applied_rows = list(
        applied.rows.filter(applied=True).values_list("row_number", "outcome", "effect", "reasons")
    )
    assert dry_rows == applied_rows


@pytest.mark.skipif(not FULL.exists(), reason="the full Austin file is not beside the clone")
def test_the_full_austin_file_every_row_accounted_for_and_reimport_changes_nothing():
    records = _records(FULL)
    assert len(records) == 25_393
    licence_import = import_upload(_upload(FULL), mapping=MAPPING, apply=True)
    _assert_every_row_accounted_for(licence_import, records)
    facilities = {record["Facility ID"] for record in records}
    assert FoodServiceEstablishment.objects.count() == len(facilities) - 1 == 6_199

    audits = _fse_audits()
    again = import_upload(_upload(FULL), mapping=MAPPING, apply=True)
    _assert_every_row_accounted_for(again, records)
    assert again.counts["created"] == again.counts["updated"] == 0
    assert _fse_audits() == audits
