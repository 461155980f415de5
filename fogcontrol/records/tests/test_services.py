"""What the FSE records and staff review: training with signed rosters (C4), waste-oil pickups (C2),
required reports and requests (C5, D7, E9, F2, F3, F6), review and correction, copies of record (F5)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import RecordImmutable, StateConflict
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.models import RecordSubmission, SubmissionReview, TrainingAttendance
from fogcontrol.records.tests.helpers import days_ago, pdf_upload, signature_data_url
from fogcontrol.testing import factories

ALL_SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


@pytest.fixture
def fse(town):
    return town.users[Role.FSE]


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


@pytest.mark.provision("C4")
def test_c4_a_session_with_the_four_subjects_and_an_on_screen_signature_is_kept_as_a_png(town, fse):
    session = services.training_session_record(
        establishment=town.own_fse, held_on=days_ago(1), trainer="Ana Ruiz", subjects=ALL_SUBJECTS,
        language="es", acting_user=fse,
    )  # fmt: skip
    line = services.training_attendance_sign(
        session=session, employee_name="Luis  Perez", hire_date=days_ago(30), signature=signature_data_url(),
        acting_user=fse,
    )  # fmt: skip
    assert session.covers_all_subjects and line.employee.name == "Luis Perez"
    stored = line.signature.read()
    assert stored.startswith(b"\x89PNG") and line.signature.name.startswith("records/signatures/")
    assert "Luis" not in line.signature.name  # a random name
    assert AuditEntry.objects.filter(action="training.sign").count() == 1
    with pytest.raises(StateConflict):
        services.training_attendance_sign(
            session=session, employee_name="Luis Perez", hire_date=days_ago(30),
            signature=signature_data_url(), acting_user=fse,
        )  # fmt: skip


@pytest.mark.provision("C4")
def test_c4_a_roster_line_needs_a_signature_unless_the_signed_sheet_was_uploaded(town, fse):
    session = services.training_session_record(
        establishment=town.own_fse, held_on=days_ago(1), trainer="Ana", subjects=ALL_SUBJECTS, acting_user=fse
    )
    with pytest.raises(ValidationError) as error:
        services.training_attendance_sign(
            session=session, employee_name="Kim", hire_date=days_ago(3), acting_user=fse
        )
    assert "signature" in error.value.message_dict
    with pytest.raises(ValidationError):
        services.training_attendance_sign(
            session=session, employee_name="Kim", hire_date=days_ago(3), signature="data:image/png;base64,AAAA",
            acting_user=fse,
        )  # fmt: skip
    sheet = services.training_session_record(
        establishment=town.own_fse, held_on=days_ago(1), trainer="Ana", subjects=ALL_SUBJECTS, acting_user=fse,
        signed_sheet=pdf_upload("roster.pdf"),
    )  # fmt: skip
    assert sheet.signed_sheet_type == "application/pdf"
    services.training_attendance_sign(
        session=sheet, employee_name="Kim", hire_date=days_ago(3), acting_user=fse
    )
    assert TrainingAttendance.objects.filter(session=sheet).count() == 1


@pytest.mark.provision("C4")
def test_c4_subjects_must_be_the_ordinance_subjects_and_another_fse_is_refused(town, fse):
    with pytest.raises(ValidationError) as error:
        services.training_session_record(
            establishment=town.own_fse,
            held_on=days_ago(1),
            trainer="Ana",
            subjects=["juggling"],
            acting_user=fse,
        )
    assert "subjects" in error.value.message_dict
    with pytest.raises(PermissionDenied):
        services.training_session_record(
            establishment=town.other_fse,
            held_on=days_ago(1),
            trainer="Ana",
            subjects=ALL_SUBJECTS,
            acting_user=fse,
        )


@pytest.mark.provision("C2")
def test_c2_a_pickup_by_the_fse_or_by_its_recycler_in_the_hauler_portal(town, fse):
    pickup = services.oil_pickup_record(
        establishment=town.own_fse, picked_up_on=days_ago(2), gallons=Decimal("55"), recycler_name="Bay Biofuel",
        receipt=pdf_upload("receipt.pdf"), acting_user=fse,
    )  # fmt: skip
    assert pickup.collector == "Bay Biofuel" and pickup.receipt_type == "application/pdf"
    hauler_user = town.users[Role.HAULER]
    by_hauler = services.oil_pickup_record(
        establishment=town.own_fse, picked_up_on=days_ago(1), gallons=Decimal("40"), acting_user=hauler_user
    )
    assert by_hauler.hauler == town.hauler
    other = factories.HaulerCompanyFactory(name="Other Oil")
    with pytest.raises(PermissionDenied):
        services.oil_pickup_record(
            establishment=town.own_fse, picked_up_on=days_ago(1), gallons=Decimal("40"), hauler=other,
            acting_user=hauler_user,
        )  # fmt: skip
    with pytest.raises(ValidationError) as error:
        services.oil_pickup_record(
            establishment=town.own_fse, picked_up_on=days_ago(1), gallons=Decimal("0"), recycler_name="X",
            acting_user=fse,
        )  # fmt: skip
    assert "gallons" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.oil_pickup_record(
            establishment=town.own_fse, picked_up_on=days_ago(1), gallons=Decimal("5"), recycler_name="X",
            receipt=pdf_upload("fake.pdf", b"MZ not a pdf"), acting_user=fse,
        )  # fmt: skip
    assert "receipt" in error.value.message_dict


@pytest.mark.provision("C5")
def test_c5_only_the_fog_manager_requires_reports_and_a_request_defaults_to_the_ruleset_days(
    town, manager, fse
):
    with pytest.raises(PermissionDenied):
        services.requirement_set(
            establishment=town.own_fse, kind="bmp_status", unit="months", every=3, first_due_on=days_ago(-10),
            acting_user=fse,
        )  # fmt: skip
    request = services.requirement_set(
        establishment=town.own_fse,
        kind="contingency_plan",
        requested_on=dt.date(2026, 5, 1),
        acting_user=manager,
    )
    assert request.first_due_on == dt.date(2026, 6, 1)  # 30 days lands on Sunday May 31 (D7, Counting days)
    with pytest.raises(ValidationError) as error:
        services.requirement_set(
            establishment=town.own_fse, kind="self_monitoring", unit="months", acting_user=manager
        )
    assert "every" in error.value.message_dict


@pytest.mark.provision("F3")
def test_f3_a_submission_is_a_copy_of_record_reviewed_and_corrected_without_overwriting(town, manager, fse):
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="self_monitoring", unit="months", every=1,
        first_due_on=days_ago(40), requested_on=days_ago(60), acting_user=manager,
    )  # fmt: skip
    first = services.submission_submit(
        requirement=requirement, uploaded_file=pdf_upload("jan.pdf"), acting_user=fse
    )
    assert first.period_number == 1 and first.record_hash
    second = services.submission_submit(
        requirement=requirement, uploaded_file=pdf_upload("feb.pdf"), acting_user=fse
    )
    assert second.period_number == 2
    with pytest.raises(RecordImmutable):
        first.note = "changed"
        first.save()
    with pytest.raises(StateConflict):
        services.submission_correct(original=first, uploaded_file=pdf_upload(), acting_user=fse)
    with pytest.raises(ValidationError) as error:
        services.submission_review(submission=first, outcome="needs_correction", acting_user=manager)
    assert "reason" in error.value.message_dict
    with pytest.raises(PermissionDenied):
        services.submission_review(submission=first, outcome="accepted", acting_user=fse)
    services.submission_review(
        submission=first, outcome="needs_correction", reason="Page 2 missing", acting_user=manager
    )
    correction = services.submission_correct(
        original=first, uploaded_file=pdf_upload("jan-v2.pdf"), acting_user=fse
    )
    assert correction.corrects == first and correction.period_number == 1
    first = RecordSubmission.objects.get(pk=first.pk)
    assert (
        first.original_name == "jan.pdf" and first.review.outcome == SubmissionReview.Outcome.NEEDS_CORRECTION
    )
    with pytest.raises(StateConflict):
        services.submission_correct(original=first, uploaded_file=pdf_upload(), acting_user=fse)
    services.submission_review(submission=correction, outcome="accepted", acting_user=manager)
    with pytest.raises(StateConflict):
        services.submission_review(submission=correction, outcome="accepted", acting_user=manager)
    report = verify_chain(RecordSubmission)
    assert report.ok and report.records == 3


@pytest.mark.provision("F5")
def test_f5_a_submission_cannot_be_deleted_before_its_retention(town, manager, fse):
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="cctv", first_due_on=days_ago(-5), requested_on=days_ago(5),
        acting_user=manager,
    )  # fmt: skip
    submission = services.submission_submit(
        requirement=requirement, uploaded_file=pdf_upload(), acting_user=fse
    )
    with pytest.raises(RecordImmutable):
        submission.delete()
