"""The records API: every kind written and read through it, scoped (another FSE: 404), lists at a
fixed number of queries, and the obligations list (C2, C4, C5, D7, F3, F4)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.models import RecordSubmission, TrainingSession
from fogcontrol.records.tests.helpers import days_ago, pdf_upload, signature_data_url


def page_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


ALL_SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def _sessions(fse, user, count):
    for number in range(count):
        services.training_session_record(
            establishment=fse, held_on=days_ago(number + 1), trainer=f"T{number}", subjects=ALL_SUBJECTS,
            acting_user=user,
        )  # fmt: skip


@pytest.mark.provision("C4")
def test_c4_training_by_api_with_a_roster_signed_on_screen(town):
    client = api_as(town.users[Role.FSE])
    response = client.post(
        "/api/v1/training-sessions/",
        {"establishment": town.own_fse.pk, "held_on": str(days_ago(1)), "trainer": "Ana", "subjects": ALL_SUBJECTS,
         "language": "es"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    pk = response.json()["id"]
    signed = client.post(
        f"/api/v1/training-sessions/{pk}/sign/",
        {"employee_name": "Luis", "hire_date": str(days_ago(20)), "signature": signature_data_url()},
        format="json",
    )
    assert signed.status_code == 201 and signed.json()["signed_on_screen"] is True
    detail = client.get(f"/api/v1/training-sessions/{pk}/").json()
    assert [line["employee_name"] for line in detail["roster"]] == ["Luis"]
    image = page_as(town.users[Role.FSE]).get(detail["roster"][0]["signature_url"])
    assert image.status_code == 200 and b"".join(image.streaming_content).startswith(b"\x89PNG")
    bad = client.post(
        f"/api/v1/training-sessions/{pk}/sign/",
        {"employee_name": "Kim", "hire_date": str(days_ago(2)), "signature": "not a drawing"},
        format="json",
    )
    assert bad.status_code == 400 and "signature" in bad.json()
    stranger = town.users[Role.FSE].__class__.objects.create(username="fse2", role=Role.FSE)
    assert api_as(stranger).get(f"/api/v1/training-sessions/{pk}/").status_code == 404
    assert page_as(stranger).get(detail["roster"][0]["signature_url"]).status_code == 404


@pytest.mark.provision("C4")
def test_c4_training_list_queries_do_not_grow_with_the_rows(town, django_assert_num_queries):
    manager = town.users[Role.FOG_MANAGER]
    client = api_as(manager)
    _sessions(town.own_fse, manager, 2)
    with django_assert_num_queries(3):
        assert client.get("/api/v1/training-sessions/").json()["count"] == 2
    _sessions(town.other_fse, manager, 5)
    with django_assert_num_queries(3):
        assert client.get("/api/v1/training-sessions/").json()["count"] == 7


@pytest.mark.provision("C2")
def test_c2_pickups_scoped_fse_its_own_hauler_its_company_and_fixed_queries(town, django_assert_num_queries):
    fse, hauler = town.users[Role.FSE], town.users[Role.HAULER]
    response = api_as(hauler).post(
        "/api/v1/oil-pickups/",
        {"establishment": town.own_fse.pk, "picked_up_on": str(days_ago(1)), "gallons": "45.5",
         "receipt": pdf_upload("receipt.pdf")},
        format="multipart",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    assert response.json()["collector"] == "Peninsula Pumping"
    services.oil_pickup_record(
        establishment=town.other_fse, picked_up_on=days_ago(2), gallons=Decimal("10"), recycler_name="Bay Bio",
        acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    assert api_as(fse).get("/api/v1/oil-pickups/").json()["count"] == 1
    assert api_as(hauler).get("/api/v1/oil-pickups/").json()["count"] == 1
    other_pk = (
        api_as(town.users[Role.FOG_MANAGER])
        .get(f"/api/v1/oil-pickups/?establishment={town.other_fse.pk}")
        .json()["results"][0]["id"]
    )
    assert api_as(fse).get(f"/api/v1/oil-pickups/{other_pk}/").status_code == 404
    missing = api_as(fse).post(
        "/api/v1/oil-pickups/",
        {"establishment": town.own_fse.pk, "picked_up_on": str(days_ago(1)), "gallons": "5"},
    )
    assert missing.status_code == 400 and "hauler" in missing.json()
    client = api_as(town.users[Role.STAFF_READONLY])
    with django_assert_num_queries(3):
        assert client.get("/api/v1/oil-pickups/").json()["count"] == 2
    for _ in range(4):
        services.oil_pickup_record(
            establishment=town.other_fse, picked_up_on=days_ago(3), gallons=Decimal("10"), recycler_name="Bay Bio",
            acting_user=town.users[Role.FOG_MANAGER],
        )  # fmt: skip
    with django_assert_num_queries(3):
        assert client.get("/api/v1/oil-pickups/").json()["count"] == 6


@pytest.mark.provision("F3")
def test_f3_requirement_submission_review_and_correction_by_api(town, django_assert_num_queries):
    manager, fse = api_as(town.users[Role.FOG_MANAGER]), api_as(town.users[Role.FSE])
    created = manager.post(
        "/api/v1/record-requirements/",
        {"establishment": town.own_fse.pk, "kind": "self_monitoring", "unit": "months", "every": 1,
         "first_due_on": str(days_ago(10)), "requested_on": str(days_ago(40))},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    requirement = created.json()["id"]
    assert created.json()["provision"] == "F3"
    refused = fse.post(
        "/api/v1/record-requirements/",
        {"establishment": town.own_fse.pk, "kind": "bmp_status", "unit": "months", "every": 1,
         "first_due_on": str(days_ago(-10))},
        format="json",
    )  # fmt: skip
    assert refused.status_code == 403
    submitted = fse.post(
        "/api/v1/record-submissions/",
        {"requirement": requirement, "file": pdf_upload("june.pdf")},
        format="multipart",
    )
    assert submitted.status_code == 201, submitted.content
    pk = submitted.json()["id"]
    assert submitted.json()["period_number"] == 1 and submitted.json()["review"] is None
    assert fse.post(f"/api/v1/record-submissions/{pk}/review/", {"outcome": "accepted"}).status_code == 403
    no_reason = manager.post(f"/api/v1/record-submissions/{pk}/review/", {"outcome": "needs_correction"})
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    reviewed = manager.post(
        f"/api/v1/record-submissions/{pk}/review/", {"outcome": "needs_correction", "reason": "Unsigned"}
    )
    assert reviewed.json()["review"]["outcome"] == "needs_correction"
    correction = fse.post(
        f"/api/v1/record-submissions/{pk}/correct/",
        {"file": pdf_upload("june-signed.pdf")},
        format="multipart",
    )
    assert correction.status_code == 201 and correction.json()["corrects"] == pk
    assert (
        fse.post(
            f"/api/v1/record-submissions/{pk}/correct/", {"file": pdf_upload()}, format="multipart"
        ).status_code
        == 409
    )
    assert RecordSubmission.objects.get(pk=pk).original_name == "june.pdf"
    with django_assert_num_queries(3):
        assert manager.get("/api/v1/record-submissions/").json()["count"] == 2
    services.submission_submit(
        requirement=RecordSubmission.objects.get(pk=pk).requirement, uploaded_file=pdf_upload(),
        acting_user=town.users[Role.FSE],
    )  # fmt: skip
    with django_assert_num_queries(3):
        assert manager.get("/api/v1/record-submissions/").json()["count"] == 3
    stranger = town.users[Role.FSE].__class__.objects.create(username="fse3", role=Role.FSE)
    assert api_as(stranger).get(f"/api/v1/record-submissions/{pk}/").status_code == 404
    assert page_as(stranger).get(f"/records/submissions/{pk}/file/").status_code == 404
    assert page_as(town.users[Role.FSE]).get(f"/records/submissions/{pk}/file/").status_code == 200


@pytest.mark.provision("D7")
def test_d7_obligations_api_lists_late_first_with_provision_and_explanation_and_404_outside(town):
    manager = town.users[Role.FOG_MANAGER]
    services.requirement_set(
        establishment=town.own_fse, kind="waste_analysis_plan", first_due_on=dt.date(2026, 3, 2),
        requested_on=dt.date(2026, 2, 1), acting_user=manager,
    )  # fmt: skip
    services.requirement_set(
        establishment=town.own_fse, kind="bmp_status", unit="months", every=6, first_due_on=dt.date(2026, 6, 1),
        requested_on=dt.date(2026, 2, 1), acting_user=manager,
    )  # fmt: skip
    client = api_as(town.users[Role.FSE])
    items = client.get(f"/api/v1/establishments/{town.own_fse.pk}/obligations/?on=2026-05-20").json()
    by_title = {item["title"]: item for item in items}
    plan = by_title["Waste analysis plan (D7)"]
    assert plan["status"] == "late" and plan["due_on"] == "2026-03-02" and plan["provision"] == "D7"
    assert "Counting days" in plan["explanation"]
    bmp = by_title["BMP status report (C5), report 1"]
    assert bmp["status"] == "due" and bmp["provision"] == "C5"
    statuses = [item["status"] for item in items]
    assert statuses == sorted(statuses, key=["late", "due", "upcoming", "done"].index)
    assert {"kind", "due_on", "status", "provision", "explanation"} <= set(items[0])
    assert client.get(f"/api/v1/establishments/{town.other_fse.pk}/obligations/").status_code == 404
    assert client.get("/api/v1/establishments/99999999999999999999/obligations/").status_code == 404
    bad = client.get(f"/api/v1/establishments/{town.own_fse.pk}/obligations/?on=May")
    assert bad.status_code == 400 and "on" in bad.json()
    assert (
        api_as(town.users[Role.HAULER])
        .get(f"/api/v1/establishments/{town.own_fse.pk}/obligations/")
        .status_code
        == 404
    )


def test_records_writes_are_audited(town):
    before = AuditEntry.objects.count()
    services.training_session_record(
        establishment=town.own_fse, held_on=days_ago(1), trainer="Ana", subjects=ALL_SUBJECTS,
        acting_user=town.users[Role.INSPECTOR],
    )  # fmt: skip
    assert AuditEntry.objects.count() == before + 1 and TrainingSession.objects.count() == 1
