"""Every submission is a copy of record (C2, C4, F5): training sessions, roster lines and waste-oil
pickups are on the keyed chain like reports and manifests, unchangeable, verified by
``verify_records``, and purged only after F5's retention under the Town's recorded approval."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from fogcontrol.core.errors import RecordImmutable
from fogcontrol.core.records import protection_installed, record_purge, verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.models import OilPickup, TrainingAttendance, TrainingSession
from fogcontrol.records.tests.helpers import days_ago, pdf_upload, signature_data_url
from fogcontrol.servicing.models import RetentionApproval
from fogcontrol.servicing.services.retention import retention_approval_record

ALL_SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def _session(town, *, held_days_ago=1):
    fse = town.users[Role.FSE]
    session = services.training_session_record(
        establishment=town.own_fse, held_on=days_ago(held_days_ago), trainer="Ana Ruiz",
        subjects=ALL_SUBJECTS, signed_sheet=pdf_upload("roster.pdf"), acting_user=fse,
    )  # fmt: skip
    line = services.training_attendance_sign(
        session=session, employee_name="Luis Perez", hire_date=days_ago(held_days_ago + 30),
        signature=signature_data_url(), acting_user=fse,
    )  # fmt: skip
    return session, line


def _pickup(town, *, days=3):
    return services.oil_pickup_record(
        establishment=town.own_fse, picked_up_on=days_ago(days), gallons=Decimal("40"),
        recycler_name="Bay Area Biofuel", receipt=pdf_upload("receipt.pdf"), acting_user=town.users[Role.FSE],
    )  # fmt: skip


@pytest.mark.provision("C4")
def test_c4_a_training_session_and_each_signed_roster_line_are_copies_of_record(town):
    session, line = _session(town)
    assert session.record_sequence == 1 and line.record_sequence == 1
    assert session.submitted_by == town.users[Role.FSE] and session.received_at is not None
    assert '"trainer":"Ana Ruiz"' in session.submission and "sha256" in session.submission
    assert "Luis Perez" in line.submission and '"signature":{"sha256"' in line.submission
    assert verify_chain(TrainingSession).ok and verify_chain(TrainingAttendance).ok
    session.trainer = "Someone else"
    with pytest.raises(RecordImmutable):
        session.save()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute('UPDATE "records_trainingattendance" SET signed_at = NULL WHERE id = %s', [line.pk])


@pytest.mark.provision("C2")
def test_c2_a_waste_oil_pickup_is_a_copy_of_record_with_its_receipt_hashed(town):
    first, second = _pickup(town, days=10), _pickup(town)
    assert (first.record_sequence, second.record_sequence) == (1, 2)
    assert second.previous_hash == first.record_hash
    assert first.receipt_sha256 in first.submission and '"gallons":"40"' in first.submission
    with pytest.raises(RecordImmutable):
        first.delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        OilPickup.objects.filter(pk=first.pk).update(gallons=Decimal("4"))
    with pytest.raises(DatabaseError), transaction.atomic():
        OilPickup.objects.filter(pk=first.pk)._raw_delete(OilPickup.objects.db)
    assert verify_chain(OilPickup).ok


@pytest.mark.provision("F5")
def test_f5_verify_records_walks_the_training_roster_and_pickup_chains(town):
    _session(town)
    _pickup(town)
    assert all(
        protection_installed(table)
        for table in ("records_trainingsession", "records_trainingattendance", "records_oilpickup")
    )
    out = StringIO()
    call_command("verify_records", stdout=out)
    text = out.getvalue()
    for table in ("records_trainingsession", "records_trainingattendance", "records_oilpickup"):
        assert f"{table}: 1 record(s), 0 purged: intact." in text
    assert "All records verify." in text


@pytest.mark.provision("F5")
def test_f5_an_old_pickup_is_purged_only_under_the_towns_approval_and_the_chain_still_verifies(town):
    old, newer = _pickup(town, days=800), _pickup(town)
    manager = town.users[Role.FOG_MANAGER]

    def purge():
        with transaction.atomic():
            record_purge(
                old, record_date=old.picked_up_on, acting_user=manager, reason="F5 retention ended",
                retention_approval_id=approval.pk,
            )  # fmt: skip

    # An approval for manifests does not cover the FSE's records.
    approval = retention_approval_record(
        acting_user=manager, record_class=RetentionApproval.RecordClass.MANIFESTS,
        records_from=days_ago(2000), records_to=days_ago(760), council_resolution_number="2026-41",
        council_resolution_date=days_ago(5), city_attorney_name="J. Counsel", city_attorney_consent_date=days_ago(4),
    )  # fmt: skip
    with pytest.raises(DatabaseError):
        purge()
    approval = retention_approval_record(
        acting_user=manager, record_class=RetentionApproval.RecordClass.FSE_RECORDS,
        records_from=days_ago(2000), records_to=days_ago(760), council_resolution_number="2026-42",
        council_resolution_date=days_ago(5), city_attorney_name="J. Counsel", city_attorney_consent_date=days_ago(4),
    )  # fmt: skip
    purge()
    assert not OilPickup.objects.filter(pk=old.pk).exists()
    report = verify_chain(OilPickup)
    assert report.ok and report.purged == 1 and report.records == 1
    # A record still inside F5's period is kept, approval or not.
    approval = retention_approval_record(
        acting_user=manager, record_class=RetentionApproval.RecordClass.FSE_RECORDS,
        records_from=days_ago(30), records_to=days_ago(0), council_resolution_number="2026-43",
        council_resolution_date=days_ago(5), city_attorney_name="J. Counsel", city_attorney_consent_date=days_ago(4),
    )  # fmt: skip
    old = newer
    with pytest.raises(DatabaseError):
        purge()
    assert OilPickup.objects.filter(pk=newer.pk).exists()
