"""Completing an inspection: findings with their provisions, E6 over 25%, refused entry, the
business-hours flag, a failed submit that keeps the draft, a retried submit that makes no duplicate."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.services import inspection_complete, inspection_save_draft, photo_add
from fogcontrol.inspections.tests.helpers import depths, key, photo_bytes, ready, scheduled
from fogcontrol.servicing.models import ServiceRequirement, SludgeReading

pytestmark = pytest.mark.django_db


@pytest.fixture
def inspector(town):
    return town.users[Role.INSPECTOR]


def findings_of(inspection):
    return list(
        Finding.objects.filter(source_id=inspection.pk).order_by("pk").values_list("item", "provision")
    )


@pytest.mark.provision("D8")
def test_d8_scheduling_makes_one_assessment_per_device(town, inspector):
    inspection = scheduled(town.own_fse, inspector)
    assert inspection.status == Inspection.Status.DRAFT
    assert [a.device_id for a in inspection.assessments.all()] == [town.own_device.pk]


@pytest.mark.provision("D8")
@pytest.mark.provision("A4")
@pytest.mark.provision("E7")
def test_d8_failed_device_items_become_findings_with_their_provisions(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector)
    inspection_save_draft(
        inspection=inspection,
        acting_user=inspector,
        changes={"devices": {town.own_device.pk: {"answers": {"baffles": "fail", "tees": "fail", "covers_access": "fail", "caked_fog": "fail", "seams_pipes": "pass"}, "condition": "poor"}}},
    )  # fmt: skip
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert findings_of(inspection) == [
        ("baffles", "D8"),
        ("tees", "D8"),
        ("covers_access", "A4"),
        ("caked_fog", "E7"),
    ]
    assert set(Finding.objects.values_list("device_id", flat=True)) == {town.own_device.pk}


@pytest.mark.provision("F6")
@pytest.mark.provision("C2")
@pytest.mark.provision("C4")
@pytest.mark.provision("F3")
def test_f6_records_reviewed_on_site_make_findings(town, inspector):
    answers = {"manifests_on_site": "pass", "manifests_match": "fail", "receipts": "fail", "waste_oil_pickups": "fail",
               "training_records": "fail", "self_monitoring": "fail", "maintenance_records": "na"}  # fmt: skip
    inspection = ready(scheduled(town.own_fse, inspector), inspector, answers=answers)
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert findings_of(inspection) == [
        ("manifests_match", "F4"),
        ("receipts", "F6"),
        ("waste_oil_pickups", "C2"),
        ("training_records", "C4"),
        ("self_monitoring", "F3"),
    ]


@pytest.mark.provision("C1")
@pytest.mark.provision("C7")
def test_c1_c7_failed_bmps_make_findings(town, inspector):
    answers = {key_: "fail" for key_ in ("drain_screens", "waste_oil_receptacle", "food_waste", "training_current", "hood_filters", "signage")}  # fmt: skip
    inspection = ready(scheduled(town.own_fse, inspector), inspector, answers=answers)
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert [p for _, p in findings_of(inspection)] == ["C1", "C2", "C3", "C4", "C6", "C7"]


@pytest.mark.provision("K1")
@pytest.mark.provision("K4")
@pytest.mark.provision("K7")
def test_k1_k7_prohibited_discharges_found_make_findings(town, inspector):
    answers = {"food_grinder": "fail", "additives": "fail", "dishwasher_to_device": "fail", "hot_discharge": "fail",
               "sanitary_connection": "fail", "dilution": "fail", "waste_oil_to_sewer": "pass"}  # fmt: skip
    inspection = ready(scheduled(town.own_fse, inspector), inspector, answers=answers)
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert [p for _, p in findings_of(inspection)] == ["K1", "K2", "K4", "K4", "K5", "K7"]
    assert "140 °F" in Finding.objects.get(item="hot_discharge").description


@pytest.mark.provision("E3")
@pytest.mark.provision("E6")
def test_e6_a_device_over_25_percent_opens_the_immediate_service_requirement(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, **depths(town.own_device, "6", "8"))
    assessment = inspection.assessments.get()
    assert assessment.over_limit  # computed on the spot, at the draft save
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    finding = Finding.objects.get(source_id=inspection.pk)
    assert (finding.item, finding.provision) == ("fill", "E3")
    assert "29.2%" in finding.description and "FOG 6.00 in" in finding.reading
    requirement = ServiceRequirement.objects.get(
        device=town.own_device, kind=ServiceRequirement.Kind.IMMEDIATE_SERVICE
    )
    assert requirement.status == ServiceRequirement.Status.OPEN and requirement.provision == "E6"
    reading = SludgeReading.objects.get(device=town.own_device)
    assert reading.source == SludgeReading.Source.INSPECTION
    assert requirement.opened_by_reading == reading
    assessment.refresh_from_db()
    assert assessment.reading == reading


@pytest.mark.provision("E3")
def test_e3_a_device_within_25_percent_opens_nothing(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, **depths(town.own_device, "5", "7"))
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert not Finding.objects.exists()
    assert not ServiceRequirement.objects.filter(kind=ServiceRequirement.Kind.IMMEDIATE_SERVICE).exists()


@pytest.mark.provision("D1")
def test_d1_refused_entry_is_an_outcome_with_its_finding_and_no_fse_signature(town, inspector):
    inspection = ready(
        scheduled(town.own_fse, inspector), inspector, entry="refused", entry_note="Manager would not open the back door",
        fse_signed_name="", answers={"signage": "fail"},
    )  # fmt: skip
    inspection = inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert inspection.status == Inspection.Status.COMPLETED
    assert findings_of(inspection) == [("entry_refused", "D1")]


@pytest.mark.provision("D1")
def test_d1_delayed_entry_is_a_finding_and_the_visit_goes_on(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, entry="delayed", entry_delay_minutes=35,
                       answers={"signage": "fail"})  # fmt: skip
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert findings_of(inspection) == [("entry_delayed", "D1"), ("signage", "C7")]
    assert "35 minutes" in Finding.objects.get(item="entry_delayed").description


@pytest.mark.provision("D1")
def test_d1_a_visit_outside_business_hours_is_flagged_not_refused(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, hour=19)
    inspection = inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert inspection.status == Inspection.Status.COMPLETED
    assert inspection.outside_hours
    assert "after 17:00" in " ".join(inspection.hours_explanation["steps"])


@pytest.mark.provision("D1")
def test_d1_a_visit_within_business_hours_is_not_flagged(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, hour=9)
    assert not inspection_complete(
        inspection=inspection, acting_user=inspector, idempotency_key=key()
    ).outside_hours


@pytest.mark.provision("D4")
def test_d4_a_failed_submit_keeps_the_draft_and_creates_nothing(town, inspector):
    inspection = ready(
        scheduled(town.own_fse, inspector), inspector, fse_signed_name="", answers={"signage": "fail"}
    )
    audits = AuditEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert "fse_signed_name" in refused.value.message_dict
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.DRAFT
    assert inspection.answers == {"signage": "fail"}  # what was saved is still there
    assert not Finding.objects.exists() and AuditEntry.objects.count() == audits
    inspection_save_draft(
        inspection=inspection, acting_user=inspector, changes={"fse_signed_name": "Frank Owner"}
    )
    inspection = inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert inspection.status == Inspection.Status.COMPLETED and Finding.objects.count() == 1


@pytest.mark.provision("D4")
def test_d4_a_retried_submit_returns_the_same_inspection_and_makes_no_duplicate(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, answers={"signage": "fail"},
                       **depths(town.own_device, "6", "8"))  # fmt: skip
    submit_key = key()
    first = inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=submit_key)
    counts = (
        Finding.objects.count(),
        SludgeReading.objects.count(),
        ServiceRequirement.objects.count(),
        AuditEntry.objects.count(),
    )
    again = inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=submit_key)
    assert again.pk == first.pk
    assert (
        Finding.objects.count(),
        SludgeReading.objects.count(),
        ServiceRequirement.objects.count(),
        AuditEntry.objects.count(),
    ) == counts
    with pytest.raises(StateConflict):
        inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())


@pytest.mark.provision("D4")
def test_d4_a_key_that_completed_another_inspection_is_refused(town, inspector):
    submit_key = key()
    inspection_complete(
        inspection=ready(scheduled(town.own_fse, inspector), inspector),
        acting_user=inspector,
        idempotency_key=submit_key,
    )
    other = ready(scheduled(town.other_fse, inspector), inspector)
    with pytest.raises(ValidationError, match="another inspection"):
        inspection_complete(inspection=other, acting_user=inspector, idempotency_key=submit_key)


@pytest.mark.provision("D4")
def test_d4_corrected_on_the_spot_closes_the_finding_the_day_it_began(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector, answers={"drain_screens": "fail", "signage": "fail"},
                       corrected_items=["signage"], item_notes={"signage": "Poster put up during the visit"})  # fmt: skip
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    signage = Finding.objects.get(item="signage")
    assert signage.closed_on == signage.began_on == inspection.scheduled_on
    assert signage.closed_how == Finding.ClosedHow.ON_THE_SPOT
    assert "Poster put up" in signage.description
    assert Finding.objects.get(item="drain_screens").is_open


@pytest.mark.provision("D4")
def test_d4_a_follow_up_closes_the_findings_it_found_corrected(town, inspector):
    first = ready(scheduled(town.own_fse, inspector), inspector, answers={"drain_screens": "fail"})
    inspection_complete(inspection=first, acting_user=inspector, idempotency_key=key())
    finding = Finding.objects.get()
    follow_up = scheduled(town.own_fse, inspector, kind="follow_up", follow_up_of=first)
    follow_up = ready(follow_up, inspector, closes_findings=[finding.pk], answers={"drain_screens": "pass"})
    inspection_complete(inspection=follow_up, acting_user=inspector, idempotency_key=key())
    finding.refresh_from_db()
    assert finding.closed_how == Finding.ClosedHow.FOLLOW_UP and finding.closed_by_source_id == follow_up.pk


@pytest.mark.provision("D4")
def test_d4_photos_are_re_encoded_and_travel_with_the_finding(town, inspector, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    inspection = ready(scheduled(town.own_fse, inspector), inspector, answers={"drain_screens": "fail"})
    upload = SimpleUploadedFile(
        "IMG_0001.png", photo_bytes(size=(3000, 1000), fmt="PNG"), content_type="image/png"
    )
    photo = photo_add(inspection=inspection, acting_user=inspector, file=upload, item="drain_screens")
    assert photo.content_type == "image/jpeg" and (photo.width, photo.height) == (2000, 667)
    assert "IMG_0001" not in photo.file.name and photo.file.name.endswith(".jpg")
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert Finding.objects.get().photos == [{"id": photo.pk, "url": f"/inspections/photos/{photo.pk}/"}]


def test_a_file_that_is_not_an_image_is_refused(town, inspector, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    inspection = scheduled(town.own_fse, inspector)
    with pytest.raises(ValidationError, match="not an image"):
        photo_add(
            inspection=inspection, acting_user=inspector, file=SimpleUploadedFile("x.jpg", b"%PDF-1.4 nope")
        )


@pytest.mark.parametrize("role", [Role.FSE, Role.STAFF_READONLY, Role.HAULER])
def test_only_the_fog_manager_and_inspectors_fill_in_and_complete(town, inspector, role):
    inspection = ready(scheduled(town.own_fse, inspector), inspector)
    with pytest.raises(PermissionDenied):
        inspection_save_draft(inspection=inspection, acting_user=town.users[role], changes={"notes": "x"})
    with pytest.raises(PermissionDenied):
        inspection_complete(inspection=inspection, acting_user=town.users[role], idempotency_key=key())


def test_a_completed_inspection_no_longer_changes(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector)
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    with pytest.raises(StateConflict):
        inspection_save_draft(inspection=inspection, acting_user=inspector, changes={"notes": "later"})


def test_a_job_label_may_complete(town, inspector):
    inspection = ready(scheduled(town.own_fse, inspector), inspector)
    assert (
        inspection_complete(
            inspection=inspection, acting_user="seed_demo", idempotency_key=key()
        ).completed_by_label
        == "seed_demo"
    )
