"""The records pages: the obligations list on the FSE portal and the staff page, forms with the
service's message beside the field, the roster signed on screen, review and correction, lists at a
fixed number of queries, another FSE's pages 404 (C2, C4, C5, D7, F3)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.models import OilPickup, RecordSubmission, TrainingAttendance, TrainingSession
from fogcontrol.records.tests.helpers import days_ago, pdf_upload, signature_data_url

ALL_SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def page_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.provision("C4")
def test_c4_obligations_page_on_the_fse_portal_and_the_staff_page_late_first(town):
    manager = town.users[Role.FOG_MANAGER]
    services.training_session_record(
        establishment=town.own_fse,
        held_on=days_ago(400),
        trainer="Ana",
        subjects=ALL_SUBJECTS,
        acting_user=manager,
    )
    services.requirement_set(
        establishment=town.own_fse, kind="waste_analysis_plan", first_due_on=days_ago(5), requested_on=days_ago(35),
        acting_user=manager,
    )  # fmt: skip
    portal = page_as(town.users[Role.FSE])
    home = portal.get("/").content.decode()
    assert f"/records/establishments/{town.own_fse.pk}/obligations/" in home
    page = portal.get(f"/records/establishments/{town.own_fse.pk}/obligations/")
    text = page.content.decode()
    assert page.status_code == 200 and "Annual employee training" in text and "Waste analysis plan" in text
    assert text.index("Late") < text.index("Upcoming") if "Upcoming" in text else "Late" in text
    staff_page = page_as(manager).get(f"/registry/establishments/{town.own_fse.pk}/").content.decode()
    assert f"/records/establishments/{town.own_fse.pk}/obligations/" in staff_page
    assert page_as(manager).get(f"/records/establishments/{town.own_fse.pk}/obligations/").status_code == 200
    assert portal.get(f"/records/establishments/{town.other_fse.pk}/obligations/").status_code == 404
    assert portal.get(f"/records/establishments/{town.other_fse.pk}/").status_code == 404


@pytest.mark.provision("C4")
def test_c4_record_a_session_then_sign_the_roster_on_screen(town):
    portal = page_as(town.users[Role.FSE])
    url = f"/records/establishments/{town.own_fse.pk}/training/"
    bad = portal.post(
        url, {"held_on": str(days_ago(1)), "trainer": "", "subjects": ALL_SUBJECTS, "language": "en"}
    )
    assert bad.status_code == 400 and TrainingSession.objects.count() == 0
    done = portal.post(
        url, {"held_on": str(days_ago(1)), "trainer": "Ana", "subjects": ALL_SUBJECTS, "language": "en"}
    )
    assert done.status_code == 302
    session = TrainingSession.objects.get()
    unsigned = portal.post(
        f"/records/training/{session.pk}/", {"employee_name": "Luis", "hire_date": str(days_ago(9))}
    )
    assert unsigned.status_code == 400 and "Sign in the box" in unsigned.content.decode()
    signed = portal.post(
        f"/records/training/{session.pk}/",
        {"employee_name": "Luis", "hire_date": str(days_ago(9)), "signature": signature_data_url()},
    )
    assert signed.status_code == 302 and TrainingAttendance.objects.get().signature
    page = portal.get(f"/records/training/{session.pk}/").content.decode()
    assert "Luis" in page and "/records/signatures/" in page and "signature.js" in page
    assert page_as(town.users[Role.HAULER]).get(f"/records/training/{session.pk}/").status_code == 404


@pytest.mark.provision("F3")
def test_f3_submit_review_and_correct_on_pages_the_fse_sees_the_outcome(town):
    manager, fse = town.users[Role.FOG_MANAGER], town.users[Role.FSE]
    staff = page_as(manager)
    set_page = staff.post(
        f"/records/establishments/{town.own_fse.pk}/requirements/",
        {"kind": "self_monitoring", "unit": "months", "every": "", "first_due_on": str(days_ago(-5))},
    )
    assert set_page.status_code == 400 and "every how many" in set_page.content.decode().lower()
    staff.post(
        f"/records/establishments/{town.own_fse.pk}/requirements/",
        {"kind": "self_monitoring", "unit": "months", "every": "1", "first_due_on": str(days_ago(-5))},
    )
    requirement = town.own_fse.record_requirements.get()
    portal = page_as(fse)
    sent = portal.post(
        f"/records/establishments/{town.own_fse.pk}/submissions/",
        {"requirement": requirement.pk, "file": pdf_upload()},
    )
    assert sent.status_code == 302
    submission = RecordSubmission.objects.get()
    queue = staff.get("/records/review/").content.decode()
    assert f"/records/submissions/{submission.pk}/" in queue
    staff.post(
        f"/records/submissions/{submission.pk}/",
        {"step": "review", "outcome": "needs_correction", "reason": "Unsigned page"},
    )
    records_page = portal.get(f"/records/establishments/{town.own_fse.pk}/").content.decode()
    assert "Needs correction" in records_page and "Unsigned page" in records_page
    corrected = portal.post(
        f"/records/submissions/{submission.pk}/", {"step": "correct", "file": pdf_upload("fixed.pdf")}
    )
    assert corrected.status_code == 302
    assert (
        RecordSubmission.objects.count() == 2
        and RecordSubmission.objects.get(pk=submission.pk).original_name == "report.pdf"
    )
    assert "Nothing to review" not in staff.get("/records/review/").content.decode()
    original_page = portal.get(f"/records/submissions/{submission.pk}/").content.decode()
    assert "Kept at least through" in original_page and "(F5)" in original_page
    assert "Corrected by" in original_page


@pytest.mark.provision("C2")
def test_c2_pickup_list_for_fse_and_hauler_with_fixed_queries(town, django_assert_num_queries):
    hauler = page_as(town.users[Role.HAULER])
    posted = hauler.post(
        "/records/pickups/",
        {
            "establishment": town.own_fse.pk,
            "picked_up_on": str(days_ago(1)),
            "gallons": "30",
            "receipt": pdf_upload(),
        },
    )
    assert posted.status_code == 302 and OilPickup.objects.get().hauler == town.hauler
    refused = hauler.post(
        "/records/pickups/",
        {"establishment": town.other_fse.pk, "picked_up_on": str(days_ago(1)), "gallons": "30"},
    )
    assert refused.status_code == 400
    staff = page_as(town.users[Role.STAFF_READONLY])
    staff.get("/records/pickups/")  # the session and the user are loaded once
    with django_assert_num_queries(6):
        assert staff.get("/records/pickups/").status_code == 200
    for _ in range(4):
        services.oil_pickup_record(
            establishment=town.other_fse, picked_up_on=days_ago(2), gallons=Decimal("8"), recycler_name="Bay Bio",
            acting_user=town.users[Role.FOG_MANAGER],
        )  # fmt: skip
    with django_assert_num_queries(6):
        assert staff.get("/records/pickups/").status_code == 200
    assert "Bay Bio" not in page_as(town.users[Role.FSE]).get("/records/pickups/").content.decode()


@pytest.mark.provision("F3")
def test_f3_review_queue_fixed_queries_and_staff_only(town, django_assert_num_queries):
    manager, fse = town.users[Role.FOG_MANAGER], town.users[Role.FSE]
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="bmp_status", unit="days", every=30, first_due_on=dt.date(2026, 1, 5),
        requested_on=dt.date(2026, 1, 1), acting_user=manager,
    )  # fmt: skip
    services.submission_submit(requirement=requirement, uploaded_file=pdf_upload(), acting_user=fse)
    staff = page_as(manager)
    staff.get("/records/review/")
    with django_assert_num_queries(5):
        assert staff.get("/records/review/").status_code == 200
    for _ in range(3):
        services.submission_submit(requirement=requirement, uploaded_file=pdf_upload(), acting_user=fse)
    with django_assert_num_queries(5):
        assert staff.get("/records/review/").status_code == 200
    assert page_as(fse).get("/records/review/").status_code == 404
