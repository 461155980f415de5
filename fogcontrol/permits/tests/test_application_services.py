"""Applications through the services: draft, submit once, review, issue (B3, B4, B5, A1, B2)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.permits import services
from fogcontrol.permits.models import (
    ApplicationStatus,
    FeeCharge,
    PermitNotice,
    PermitStatus,
)
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.tests.conftest import B3_ANSWERS, pay_fees

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def pdf_upload(name="building-permit.pdf", content=PDF):
    return SimpleUploadedFile(name, content, content_type="application/pdf")


@pytest.mark.provision("B3")
def test_b3_new_application_is_prefilled_from_the_registry_and_saved_as_a_draft(town, fse_user, fees):
    application = services.application_create(acting_user=fse_user, establishment=town.own_fse)
    assert application.status == ApplicationStatus.DRAFT
    assert application.reference.startswith("FA-")
    assert application.applicant_name == "Blue Plate Diner"
    assert application.device == town.own_device
    assert application.device_kind == "gravity_interceptor"
    assert audit_entries_for(application).filter(action="application.create").exists()


@pytest.mark.provision("B3")
def test_b3_submission_refused_until_every_item_is_given_and_the_draft_is_kept(town, fse_user, fees):
    application = services.application_create(
        acting_user=fse_user, establishment=town.own_fse, applicant_name="Blue Plate Diner LLC"
    )
    with pytest.raises(ValidationError) as error:
        services.application_submit(application=application, acting_user=fse_user)
    missing = error.value.message_dict
    for field in (
        "wastewater_volume_gpd",
        "cleaning_hours",
        "clean_up_procedures",
        "kitchen_size_sqft",
        "fixtures",
    ):
        assert field in missing
    assert "B3 asks for" in missing["kitchen_size_sqft"][0]
    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT
    assert application.applicant_name == "Blue Plate Diner LLC"
    assert not FeeCharge.objects.exists()


@pytest.mark.provision("A5")
def test_a5_sink_without_compartment_dimensions_cannot_be_submitted(town, fse_user, fees):
    application = services.application_create(
        acting_user=fse_user,
        establishment=town.own_fse,
        fixtures=[{"kind": "sink_three_compartment", "count": 1, "compartments": 3}],
        **B3_ANSWERS,
    )
    with pytest.raises(ValidationError) as error:
        services.application_submit(application=application, acting_user=fse_user)
    assert "Three-compartment sink" in error.value.message_dict["fixtures"][0]


@pytest.mark.provision("B3")
def test_b3_submitted_application_is_a_copy_of_record_and_the_fee_is_owed(draft, fse_user):
    application = services.application_submit(application=draft, acting_user=fse_user)
    assert application.status == ApplicationStatus.SUBMITTED
    copy = application.submitted_copy
    assert copy["application"]["dining_capacity"] == 60
    assert copy["submitted_by"] == "fse"
    assert len(copy["fixtures"]) == 4
    assert len(application.submitted_digest) == 64
    fee = FeeCharge.objects.get(application=application)
    assert (fee.kind, fee.amount, fee.status) == ("new_permit", Decimal("350.00"), "owed")
    assert fee.fee_schedule.label == "Resolution 2023-14"
    assert fee.establishment == application.establishment
    with pytest.raises(TransitionNotAllowed, match="copy of record"):
        services.application_update(application=application, acting_user=fse_user, dining_capacity=99)
    with pytest.raises(TransitionNotAllowed):
        services.application_submit(application=application, acting_user=fse_user)
    application.refresh_from_db()
    assert application.dining_capacity == 60


@pytest.mark.provision("B3")
def test_b3_fee_comes_from_the_schedule_in_force_on_the_day(draft, fse_user):
    from fogcontrol.permits.tests.factories import fee_schedule

    fee_schedule(
        effective_from=dt.date(2024, 7, 1),
        amounts={k: Decimal("500") for k in ("new_permit", "renewal", "reissue", "plan_review")},
    )
    services.application_submit(application=draft, acting_user=fse_user)
    assert FeeCharge.objects.get(application=draft).amount == Decimal("500.00")


@pytest.mark.provision("B3")
def test_b3_no_fee_schedule_refuses_submission_saying_what_to_do(town, fse_user, profile):
    from fogcontrol.permits.tests.conftest import FIXTURES

    application = services.application_create(
        acting_user=fse_user, establishment=town.own_fse, fixtures=FIXTURES, **B3_ANSWERS
    )
    with pytest.raises(ValidationError) as error:
        services.application_submit(application=application, acting_user=fse_user)
    assert "fee schedule" in error.value.message_dict["fee"][0]
    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT


@pytest.mark.provision("B5")
@pytest.mark.provision("A1")
@pytest.mark.provision("B2")
def test_b5_new_application_to_issued_permit(accepted, manager, town):
    permit = services.permit_issue(application=accepted, acting_user=manager, issued_on=dt.date(2025, 7, 1))
    accepted.refresh_from_db()
    assert accepted.status == ApplicationStatus.ISSUED and accepted.permit == permit
    assert permit.status == PermitStatus.ISSUED
    assert permit.number == f"FOG-2025-{permit.pk:05d}"
    assert permit.device == town.own_device
    assert permit.service_frequency_days == 90  # E2: interceptor default
    assert permit.valid_until == dt.date(2026, 7, 1)  # B6: the anniversary, a Wednesday
    version = permit.versions.get()
    assert version.business_name == "Blue Plate Diner"  # A1
    assert version.contacts["after_hours_emergency_phone"] == "(650) 555-0911"  # B2, J1
    assert "Town Hall" in version.contacts["fog_manager_address"]  # J2
    assert [e.to_status for e in accepted.events.all()] == [
        "draft", "submitted", "accepted", "issued"
    ]  # fmt: skip
    assert PermitNotice.objects.filter(permit=permit, kind="permit_issued").exists()
    town.own_device.refresh_from_db()
    assert town.own_device.assigned_frequency_days == 90


@pytest.mark.provision("B2")
def test_b2_permit_is_not_issued_without_the_spill_contacts_on_file(accepted, manager, profile):
    profile.after_hours_emergency_phone = ""
    profile.save()
    with pytest.raises(ValidationError) as error:
        services.permit_issue(application=accepted, acting_user=manager)
    assert "after-hours emergency" in error.value.message_dict["town_profile"][0]


@pytest.mark.provision("E1")
def test_e1_permit_frequency_must_be_an_allowed_one(accepted, manager):
    with pytest.raises(ValidationError) as error:
        services.permit_issue(application=accepted, acting_user=manager, service_frequency_days=45)
    assert "30, 60, 90, 120, 180" in error.value.message_dict["service_frequency_days"][0]


@pytest.mark.provision("B5")
def test_b5_cannot_issue_before_acceptance(draft, fse_user, manager):
    application = services.application_submit(application=draft, acting_user=fse_user)
    with pytest.raises(TransitionNotAllowed, match="cannot issue a permit"):
        services.permit_issue(application=application, acting_user=manager)


@pytest.mark.provision("B5")
def test_b5_only_the_fog_manager_accepts_and_issues(draft, fse_user, inspector):
    application = services.application_submit(application=draft, acting_user=fse_user)
    with pytest.raises(PermissionDenied):
        services.application_accept(application=application, acting_user=inspector)
    with pytest.raises(PermissionDenied):
        services.application_accept(application=application, acting_user=fse_user)


@pytest.mark.provision("B5")
def test_b5_optional_inspection_must_pass_before_issue(accepted, manager, inspector):
    when = dt.datetime(2025, 6, 20, 10, tzinfo=dt.UTC)
    application = services.application_schedule_inspection(
        application=accepted, acting_user=inspector, scheduled_for=when
    )
    assert application.status == ApplicationStatus.INSPECTION_SCHEDULED
    with pytest.raises(TransitionNotAllowed, match="record its result"):
        services.permit_issue(application=application, acting_user=manager)
    with pytest.raises(ValidationError) as error:
        services.application_record_inspection(
            application=application, acting_user=inspector, inspected_on=dt.date(2025, 6, 20), passed=False
        )
    assert "notes" in error.value.message_dict
    application = services.application_record_inspection(
        application=application, acting_user=inspector, inspected_on=dt.date(2025, 6, 20), passed=True,
        notes="Interceptor and baffles in good order",
    )  # fmt: skip
    assert application.status == ApplicationStatus.ACCEPTED and application.inspection_passed
    permit = services.permit_issue(application=application, acting_user=manager)
    assert permit.status == PermitStatus.ISSUED


@pytest.mark.provision("B3")
def test_b3_information_requested_and_answered_keeps_the_thread(draft, fse_user, manager):
    application = services.application_submit(application=draft, acting_user=fse_user)
    application = services.application_request_information(
        application=application, acting_user=manager, message="Send the interceptor's last pump-out manifest."
    )
    assert application.status == ApplicationStatus.INFORMATION_REQUESTED
    assert PermitNotice.objects.filter(application=application, kind="information_requested").exists()
    application = services.application_respond(
        application=application, acting_user=fse_user, message="Attached.", files=[pdf_upload("manifest.pdf")]
    )
    assert application.status == ApplicationStatus.UNDER_REVIEW
    thread = [(m.kind, m.author_label) for m in application.messages.all()]
    assert thread == [("request", "fog_manager"), ("response", "fse")]
    assert application.documents.get().kind == "information"
    with pytest.raises(TransitionNotAllowed, match="has not asked"):
        services.application_respond(application=application, acting_user=fse_user, message="More")


@pytest.mark.provision("B5")
def test_b5_rejected_with_reasons_and_the_applicant_is_told(draft, fse_user, manager):
    application = services.application_submit(application=draft, acting_user=fse_user)
    with pytest.raises(ValidationError):
        services.application_reject(application=application, acting_user=manager, reasons="  ")
    application = services.application_reject(
        application=application, acting_user=manager, reasons="No grease control device is installed (A3)."
    )
    assert application.status == ApplicationStatus.REJECTED
    notice = PermitNotice.objects.get(application=application)
    assert "No grease control device" in notice.body
    with pytest.raises(TransitionNotAllowed, match="closed"):
        services.application_accept(application=application, acting_user=manager)


@pytest.mark.provision("B4")
def test_b4_building_and_safety_documents_in_lieu_of_the_application(town, fse_user, manager, fees, profile):
    application = services.application_create(
        acting_user=fse_user,
        establishment=town.own_fse,
        route="in_lieu",
        applicant_name="Blue Plate Diner LLC",
    )
    with pytest.raises(ValidationError) as error:
        services.application_submit(application=application, acting_user=fse_user)
    assert {"building_permit_number", "documents"} <= set(error.value.message_dict)
    services.application_update(
        application=application, acting_user=fse_user, building_permit_number="B-2024-1187"
    )
    services.application_add_document(
        application=application, acting_user=fse_user, uploaded_file=pdf_upload(), kind="building_permit"
    )
    application = services.application_submit(application=application, acting_user=fse_user)
    assert application.submitted_copy["documents"][0]["name"] == "building-permit.pdf"
    pay_fees(application, manager)  # B3: the fee accompanies the B4 route too
    application = services.application_accept(application=application, acting_user=manager)
    permit = services.permit_issue(application=application, acting_user=manager)
    assert permit.device_capacity_gallons == 1000


@pytest.mark.provision("B4")
def test_b4_uploads_are_checked_for_type_and_size(town, fse_user, settings, fees):
    application = services.application_create(
        acting_user=fse_user, establishment=town.own_fse, route="in_lieu"
    )
    with pytest.raises(ValidationError, match="only PDF, PNG and JPEG"):
        services.application_add_document(
            application=application, acting_user=fse_user, uploaded_file=SimpleUploadedFile("x.exe", b"MZ")
        )
    with pytest.raises(ValidationError, match="not a real PDF"):
        services.application_add_document(
            application=application,
            acting_user=fse_user,
            uploaded_file=SimpleUploadedFile("x.pdf", b"<html>"),
        )
    settings.FOGCONTROL_MAX_UPLOAD_BYTES = 10
    with pytest.raises(ValidationError, match="largest file accepted"):
        services.application_add_document(
            application=application, acting_user=fse_user, uploaded_file=pdf_upload()
        )


@pytest.mark.provision("B3")
def test_b3_one_open_application_per_establishment(draft, town, fse_user):
    with pytest.raises(ValidationError) as error:
        services.application_create(acting_user=fse_user, establishment=town.own_fse)
    assert draft.reference in error.value.message_dict["establishment"][0]


@pytest.mark.provision("B3")
def test_b3_an_fse_user_cannot_apply_for_another_establishment(town, fse_user, fees):
    with pytest.raises(PermissionDenied):
        services.application_create(acting_user=fse_user, establishment=town.other_fse)


@pytest.mark.provision("B1")
def test_b1_new_application_refused_while_a_permit_is_in_force(issued, town, fse_user):
    with pytest.raises(ValidationError) as error:
        services.application_create(acting_user=fse_user, establishment=town.own_fse)
    assert "renew" in error.value.message_dict["kind"][0]


def test_withdrawn_draft_frees_the_establishment_for_a_new_application(draft, town, fse_user):
    services.application_withdraw(application=draft, acting_user=fse_user, reason="Started again")
    again = services.application_create(acting_user=fse_user, establishment=town.own_fse)
    assert again.status == ApplicationStatus.DRAFT
