"""Importing the State's CIWQS files (I1): every row accounted for, the quirks flagged not dropped,
causes normalised with the original kept, a re-import that changes nothing, and a fixed number of
queries a batch."""

import io
import json
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.spills.imports.services import spill_import_apply, spill_import_upload
from fogcontrol.spills.models import Agency, Spill, SpillImportRow
from fogcontrol.spills.tests.ciwqs_files import REAL_DIR, plsd_row, plsd_upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_in_tmp")]


def _json(*args) -> dict:
    out = io.StringIO()
    call_command("import_spills", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.provision("I1")
def test_i1_quirks_are_flagged_not_dropped_and_causes_keep_their_words(town):
    upload = plsd_upload([
        plsd_row(1),
        plsd_row(2, SPILL_CAUSE="Grease deposition (FOG)", LONGITUDE_DECIMAL_DEGREES="117.1"),
        plsd_row(3, SPILL_CAUSE="Root Intrusion", AGENCY_NOTIFY_DT="07/28/2808 00:00", AGE_SEWER_PIPE="1920"),
        plsd_row(4, LATTITUDE_DECIMAL_DEGREES="0", LONGITUDE_DECIMAL_DEGREES="0", REACH_SURFACE="Yes", SPILL_VOL_REACH_SURF="10"),
        plsd_row(5, AGENCY_NOTIFY_DT="April 00:30"),
        plsd_row(""),
        plsd_row(1),
    ])  # fmt: skip
    manager = town.users[Role.FOG_MANAGER]
    checked = spill_import_upload(acting_user=manager, uploaded_file=upload)
    assert not Spill.objects.exists()  # a dry run writes no spill
    applied = spill_import_apply(spill_import=checked, acting_user=manager)
    assert applied.applied_counts == checked.dry_run_counts
    counts = applied.applied_counts
    assert (counts["rows"], counts["imported"], counts["rejected"], counts["fog_caused"]) == (7, 5, 2, 4)
    spills = {spill.state_spill_id: spill for spill in Spill.objects.all()}
    assert spills["1"].cause == spills["2"].cause == "grease"
    assert spills["1"].cause_original == "Grease Deposition (FOG)"
    assert spills["2"].cause_original == "Grease deposition (FOG)"
    assert spills["1"].location_name == "Café Olé"  # Latin-1 read as such
    assert (
        spills["1"].started_at.hour == 4 and spills["1"].notified_at.day == 3
    )  # 9 PM and 21:00 Pacific, in UTC
    codes = lambda spill: [flag["code"] for flag in spill.flags]  # noqa: E731
    assert codes(spills["2"]) == ["positive_longitude"] and spills["2"].longitude > 0
    assert (
        set(codes(spills["3"])) == {"impossible_date", "impossible_year"} and spills["3"].notified_at is None
    )
    assert "2808" in spills["3"].flags[0]["message"]
    assert codes(spills["4"]) == ["zero_coordinates"] and spills["4"].category == "1"
    assert codes(spills["5"]) == ["unreadable_date"]
    rejected = SpillImportRow.objects.filter(spill_import=applied, applied=True, outcome="rejected")
    assert sorted(row.reasons[0]["code"] for row in rejected) == ["duplicate_spill_id", "no_spill_id"]


@pytest.mark.provision("I1")
def test_i1_only_the_agency_asked_for_and_the_rest_accounted_as_skipped(town):
    upload = plsd_upload([plsd_row(1), plsd_row(2, WDID="1SSO10001")])
    checked = spill_import_upload(
        acting_user=town.users[Role.INSPECTOR], uploaded_file=upload, agency_wdid="1sso10001"
    )
    assert (checked.dry_run_counts["imported"], checked.dry_run_counts["skipped"]) == (1, 1)


def test_i1_only_the_fog_manager_applies_and_only_once(town):
    checked = spill_import_upload(
        acting_user=town.users[Role.INSPECTOR], uploaded_file=plsd_upload([plsd_row(1)])
    )
    with pytest.raises(PermissionDenied):
        spill_import_apply(spill_import=checked, acting_user=town.users[Role.INSPECTOR])
    spill_import_apply(spill_import=checked, acting_user=town.users[Role.FOG_MANAGER])
    with pytest.raises(StateConflict):
        spill_import_apply(spill_import=checked, acting_user=town.users[Role.FOG_MANAGER])


def test_i1_a_file_that_is_not_the_states_is_refused_naming_the_file(town):
    upload = plsd_upload([])
    upload.file = io.BytesIO(b"name,address\r\nA,B\r\n")
    upload.size = 20
    with pytest.raises(ValidationError) as refused:
        spill_import_upload(acting_user=town.users[Role.INSPECTOR], uploaded_file=upload)
    assert "file" in refused.value.message_dict


def test_i1_a_batch_costs_a_fixed_number_of_queries(town):
    """Claim the import, clear its old report, then per batch: SELECT the spills on record and the
    agencies, INSERT the spills, their audit entries and the report rows; then the counts and a
    refresh. The same 9 at 2 rows and at 7 (after a first run fills the content-type cache)."""
    manager = town.users[Role.FOG_MANAGER]
    counted = []
    for size in (1, 2, 7):
        checked = spill_import_upload(
            acting_user=manager, uploaded_file=plsd_upload([plsd_row(size * 100 + n) for n in range(size)])
        )
        with CaptureQueriesContext(connection) as queries:
            spill_import_apply(spill_import=checked, acting_user=manager)
        counted.append(len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]))
    assert counted[1:] == [9, 9]


@pytest.mark.provision("I1")
@pytest.mark.skipif(
    not Path(REAL_DIR, "PLSD.txt").exists(), reason="the State's files are not on this machine"
)
def test_i1_the_states_real_plsd_file_every_row_accounted_for_and_a_reimport_changes_nothing(db):
    agencies = _json(f"{REAL_DIR}/PRA.txt", "--apply")
    # 1,241 rows: 1,226 agencies; 5 rows with no WDID and 6 with no agency name rejected; the
    # State lists 3 agencies twice (Active and Historical): the Active record stands (1 update
    # where the Historical row came first, 2 superseded rows unchanged).
    assert (agencies["rows"], agencies["imported"], agencies["updated"], agencies["unchanged"], agencies["rejected"]) == (
        1241, 1226, 1, 3, 11
    )  # fmt: skip
    first = _json(f"{REAL_DIR}/PLSD.txt", "--apply")
    # Every one of the 5,791 rows has its own SPILL_ID and a readable start: all are kept. 780 are
    # grease (605 "Grease deposition (FOG)" + 175 "Grease Deposition (FOG)").
    assert (first["rows"], first["imported"], first["rejected"], first["fog_caused"]) == (5791, 5791, 0, 780)
    assert first["reasons"] == {
        "ends_before_start": 138,  # an estimated end before the start, kept as given
        "impossible_coordinates": 2,  # latitude 117 or 6309958: left empty
        "impossible_date": 1,  # notified 07/28/2808
        "impossible_year": 23,  # a pipe "age" of 1920 (a year)
        "no_volume": 2,
        "positive_longitude": 1077,  # a lost minus sign: kept, flagged
        "unreadable_date": 4,  # "April 00:30", "11/192015 14:13" (notified and arrived)
        "zero_coordinates": 29,
    }
    assert Spill.objects.count() == 5791 and Spill.objects.filter(cause="grease").count() == 780
    assert Spill.objects.filter(agency__isnull=False).count() == 5790  # one WDID is not in the register
    assert Agency.objects.get(wdid="2SSO10114").spills.filter(state_spill_id="815225").exists()
    audit_entries = AuditEntry.objects.count()
    again = _json(f"{REAL_DIR}/PLSD.txt", "--apply")
    assert (again["unchanged"], again["imported"], again["updated"]) == (5791, 0, 0)
    assert AuditEntry.objects.count() == audit_entries


@pytest.mark.provision("I1")
@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00S\x00P\x00I\x00L\x00L", b'SPILL_ID\tSTART_DT\r\n"unterminated\x00\tx\r\n', b"\x00" * 64],
)
def test_i1_an_unreadable_file_is_a_400_naming_the_file_never_a_server_error(town, content):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from conftest import api_as

    client = api_as(town.users[Role.INSPECTOR])
    answer = client.post(
        "/api/v1/imports/spills/",
        {"file": SimpleUploadedFile("PLSD.txt", content, content_type="text/plain")},
        format="multipart",
    )
    assert answer.status_code == 400
    assert "file" in answer.json()
    assert not SpillImportRow.objects.exists()
