"""The inspections and findings API: the due list (D8, risk order with reasons), scheduling,
autosave (drafts only, 409 otherwise), completing with an Idempotency-Key, photos, scoping
(an FSE never sees drafts or another FSE's inspections: 404) and fixed query counts."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.services import inspection_complete
from fogcontrol.inspections.tests.helpers import key, photo_bytes, ready, scheduled, signature_data_url
from fogcontrol.program.selectors import town_today
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db
DUE = "/api/v1/inspections/due/"
INSPECTIONS = "/api/v1/inspections/"
FINDINGS = "/api/v1/findings/"


def completed(town, establishment, answers=None):
    user = town.users[Role.INSPECTOR]
    inspection = ready(scheduled(establishment, user), user, answers=answers or {})
    return inspection_complete(inspection=inspection, acting_user=user, idempotency_key=key())


@pytest.mark.provision("D8")
def test_d8_the_due_list_gives_due_on_explanation_priority_and_reasons(town):
    on = town_today()
    body = api_as(town.users[Role.FOG_MANAGER]).get(DUE, {"on": on.isoformat()}).json()
    names = [row["business_name"] for row in body]
    assert "Blue Plate Diner" in names  # installed 2015, never inspected: long due
    row = body[names.index("Blue Plate Diner")]
    # Installed 2015-05-01; the anniversary, 2016-05-01, is a Sunday: the Town's maximum moves earlier.
    assert row["due_on"] == "2016-04-29"
    assert "D8" in row["explanation"]["provisions"]
    assert row["priority"] == sum(reason["points"] for reason in row["reasons"])
    assert row["reasons"][0]["factor"] == "never_inspected" and row["reasons"][0]["provision"] == "D8"


@pytest.mark.provision("D8")
def test_d8_an_inspection_this_year_takes_the_establishment_off_the_list(town):
    completed(town, town.own_fse)
    body = api_as(town.users[Role.FOG_MANAGER]).get(DUE).json()
    assert "Blue Plate Diner" not in [row["business_name"] for row in body]
    later = town_today() + dt.timedelta(days=370)
    body = api_as(town.users[Role.FOG_MANAGER]).get(DUE, {"on": later.isoformat()}).json()
    assert "Blue Plate Diner" in [row["business_name"] for row in body]


@pytest.mark.provision("D8")
def test_d8_risk_order_puts_open_findings_first_with_the_reason(town):
    completed(town, town.own_fse, answers={"drain_screens": "fail", "signage": "fail"})
    later = town_today() + dt.timedelta(days=400)
    body = api_as(town.users[Role.FOG_MANAGER]).get(DUE, {"on": later.isoformat()}).json()
    assert body[0]["business_name"] == "Blue Plate Diner"
    texts = [reason["text"] for reason in body[0]["reasons"]]
    assert any(text.startswith("2 open findings") for text in texts)
    assert body[0]["priority"] > body[1]["priority"]


def test_the_due_list_is_for_town_staff(town):
    # A staff list: an outside user is told it does not exist, as on the page.
    assert api_as(town.users[Role.FSE]).get(DUE).status_code == 404
    assert api_as(town.users[Role.FOG_MANAGER]).get(DUE, {"on": "soon"}).status_code == 400


@pytest.mark.provision("D8")
@pytest.mark.parametrize("extra", [0, 6])
def test_d8_the_due_list_takes_a_fixed_number_of_queries(town, extra, django_assert_num_queries):
    for _ in range(extra):
        fse = factories.EstablishmentFactory()
        factories.DeviceFactory(establishments=[fse], parcel=fse.parcel)
    client = api_as(town.users[Role.FOG_MANAGER])
    # 13: the spills linked to each establishment are counted in one more query (J1, issue #13).
    with django_assert_num_queries(13):
        response = client.get(DUE)
    assert len(response.json()) == 4 + extra


def test_schedule_autosave_and_complete_through_the_api(town):
    inspector = town.users[Role.INSPECTOR]
    client = api_as(inspector)
    day = town_today().isoformat()
    created = client.post(
        INSPECTIONS,
        {"establishment": town.own_fse.pk, "scheduled_on": day, "inspector": inspector.pk},
        format="json",
    )
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert (
        created.json()["status"] == "draft"
        and created.json()["assessments"][0]["device_id"] == town.own_device.pk
    )
    url = f"{INSPECTIONS}{pk}/"
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    saved = client.patch(url, {
        "started_at": (now - dt.timedelta(minutes=30)).isoformat(),
        "answers": {"signage": "fail"},
        "devices": {str(town.own_device.pk): {"fog_depth_in": "6", "solids_depth_in": "8", "answers": {"baffles": "pass"}}},
        "inspector_signed_name": "Ines", "inspector_signature": signature_data_url(),
        "fse_signed_name": "Frank", "fse_signature": signature_data_url(),
    }, format="json")  # fmt: skip
    assert saved.status_code == 200, saved.json()
    assert saved.json()["assessments"][0]["over_limit"] is True
    bad = client.patch(url, {"answers": {"signage": "maybe"}}, format="json")
    assert bad.status_code == 400 and "answers" in bad.json()
    assert client.patch(url, {"devices": {"abc": {"fog_depth_in": "1"}}}, format="json").status_code == 400
    assert (
        client.patch(url, {"inspector_signature": "data:image/png;base64,AAAA"}, format="json").status_code
        == 400
    )
    assert client.post(f"{url}complete/").status_code == 400  # no Idempotency-Key
    submit_key = key()
    done = client.post(f"{url}complete/", headers={"Idempotency-Key": submit_key})
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "completed"
    again = client.post(f"{url}complete/", headers={"Idempotency-Key": submit_key})
    assert again.status_code == 200 and again.json()["id"] == pk
    assert Finding.objects.filter(source_id=pk).count() == 2  # E3 and C7, not doubled
    assert client.patch(url, {"notes": "late"}, format="json").status_code == 409
    assert client.post(f"{url}complete/", headers={"Idempotency-Key": key()}).status_code == 409


def test_photos_are_uploaded_as_multipart_and_served_through_an_access_check(town, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    inspector = town.users[Role.INSPECTOR]
    inspection = ready(scheduled(town.own_fse, inspector), inspector)
    client = api_as(inspector)
    upload = SimpleUploadedFile("kitchen.jpg", photo_bytes(), content_type="image/jpeg")
    response = client.post(
        f"{INSPECTIONS}{inspection.pk}/photos/", {"file": upload, "item": "drain_screens"}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    photo_url = response.json()["url"]
    client.force_login(inspector)
    assert client.get(photo_url).status_code == 200
    fse = api_as(town.users[Role.FSE])
    fse.force_login(town.users[Role.FSE])
    assert fse.get(photo_url).status_code == 404  # a draft's photo
    inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    assert fse.get(photo_url).status_code == 200
    other = api_as(town.users[Role.PROPERTY_OWNER])
    other.force_login(town.users[Role.PROPERTY_OWNER])
    assert other.get(photo_url).status_code == 404
    not_image = SimpleUploadedFile("x.jpg", b"GIF89a nope", content_type="image/jpeg")
    refused = client.post(f"{INSPECTIONS}{inspection.pk}/photos/", {"file": not_image}, format="multipart")
    assert refused.status_code == 409  # completed: no more photos


@pytest.mark.provision("D8")
def test_d8_an_fse_sees_only_its_completed_inspections(town):
    inspector = town.users[Role.INSPECTOR]
    draft = scheduled(town.own_fse, inspector)
    done = completed(town, town.own_fse)
    others = completed(town, town.other_fse)
    fse = api_as(town.users[Role.FSE])
    assert [row["id"] for row in fse.get(INSPECTIONS).json()["results"]] == [done.pk]
    assert fse.get(f"{INSPECTIONS}{draft.pk}/").status_code == 404
    assert fse.get(f"{INSPECTIONS}{others.pk}/").status_code == 404
    assert fse.get(f"{INSPECTIONS}{done.pk}/").status_code == 200
    assert fse.patch(f"{INSPECTIONS}{done.pk}/", {"notes": "x"}, format="json").status_code == 403
    assert api_as(town.users[Role.HAULER]).get(f"{INSPECTIONS}{done.pk}/").status_code == 404


def test_findings_filter_by_establishment_and_open(town):
    completed(town, town.own_fse, answers={"drain_screens": "fail"})
    completed(town, town.other_fse, answers={"signage": "fail"})
    manager = api_as(town.users[Role.FOG_MANAGER])
    body = manager.get(FINDINGS, {"establishment": town.own_fse.pk, "open": "true"}).json()
    assert [(row["provision"], row["evidence"]["item"]) for row in body["results"]] == [
        ("C1", "drain_screens")
    ]
    row = body["results"][0]
    assert row["began_on"] and row["closed_on"] is None
    closed = manager.post(
        f"{FINDINGS}{row['id']}/close/",
        {"closed_on": row["began_on"], "how": "other", "evidence": "Screens fitted"},
        format="json",
    )
    assert closed.status_code == 200 and closed.json()["closed_on"] == row["began_on"]
    assert manager.get(FINDINGS, {"establishment": town.own_fse.pk, "open": "true"}).json()["count"] == 0
    fse = api_as(town.users[Role.FSE])
    assert fse.get(FINDINGS, {"establishment": town.other_fse.pk}).status_code == 400  # not one it may name
    assert [r["provision"] for r in fse.get(FINDINGS).json()["results"]] == ["C1"]
    assert fse.post(f"{FINDINGS}{row['id']}/close/", {}, format="json").status_code == 403


@pytest.mark.parametrize("extra", [1, 5])
def test_inspection_and_finding_lists_take_a_fixed_number_of_queries(town, extra, django_assert_num_queries):
    for _ in range(extra):
        completed(town, town.own_fse, answers={"drain_screens": "fail"})
    for user in (town.users[Role.FOG_MANAGER], town.users[Role.FSE]):
        client = api_as(user)
        # The Town profile (time zone), the count, the page: the same for staff and an FSE.
        with django_assert_num_queries(3):
            assert client.get(INSPECTIONS).json()["count"] == extra
        with django_assert_num_queries(3):
            assert client.get(FINDINGS).json()["count"] == extra
