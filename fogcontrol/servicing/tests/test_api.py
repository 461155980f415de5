"""The servicing API: manifests (single, batch, corrections, idempotent retries), compliance,
history, scoping and exact query counts."""

import datetime as dt
from decimal import Decimal

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.helpers import api_body, days_ago, submit
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow, assert_same_exact_queries

MANIFESTS = "/api/v1/manifests/"


@pytest.mark.provision("F1")
def test_f1_a_hauler_submits_a_manifest_through_the_api(town):
    client = api_as(town.users[Role.HAULER])
    response = client.post(MANIFESTS, api_body(town.own_device, manifest_number="API-1"), format="json")
    assert response.status_code == 201, response.data
    body = response.json()
    assert body["manifest_number"] == "API-1"
    assert body["device"] == town.own_device.identifier
    assert body["hauler_name"] == "Peninsula Pumping"
    assert body["channel"] == "api"
    assert len(body["record_hash"]) == 64
    assert body["fill_ratio"] == "0.1458"
    manifest = Manifest.objects.get(pk=body["id"])
    assert '"manifest_number":"API-1"' in manifest.submission


def test_the_api_names_the_field_of_every_refusal(town):
    client = api_as(town.users[Role.HAULER])
    future = (dt.datetime.now(dt.UTC) + dt.timedelta(days=2)).isoformat()
    response = client.post(
        MANIFESTS, api_body(town.own_device, serviced_at=future, certified_by_name=""), format="json"
    )
    assert response.status_code == 400
    assert response.json()["serviced_at"] == [
        "The date of service is in the future; enter the day and time the work was done."
    ]
    assert "must be certified" in response.json()["certified_by_name"][0]
    response = client.post(MANIFESTS, api_body(town.own_device, fog_depth_in="lots"), format="json")
    assert response.status_code == 400 and "fog_depth_in" in response.json()


def test_a_device_outside_the_haulers_customers_is_refused_by_the_api(town):
    response = api_as(town.users[Role.HAULER]).post(MANIFESTS, api_body(town.other_device), format="json")
    assert response.status_code == 400
    assert "among the devices you may report on" in response.json()["device"][0]


def test_an_idempotent_retry_returns_the_first_result_and_creates_nothing(town):
    client = api_as(town.users[Role.HAULER])
    body = api_body(town.own_device)
    first = client.post(MANIFESTS, body, format="json", HTTP_IDEMPOTENCY_KEY="retry-1")
    second = client.post(MANIFESTS, body, format="json", HTTP_IDEMPOTENCY_KEY="retry-1")
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Manifest.objects.count() == 1


def test_the_same_idempotency_key_with_another_body_is_refused_with_422(town):
    client = api_as(town.users[Role.HAULER])
    client.post(MANIFESTS, api_body(town.own_device), format="json", HTTP_IDEMPOTENCY_KEY="key-2")
    response = client.post(MANIFESTS, api_body(town.own_device), format="json", HTTP_IDEMPOTENCY_KEY="key-2")
    assert response.status_code == 422
    assert "already used for a different request" in response.json()["Idempotency-Key"][0]
    assert Manifest.objects.count() == 1


def test_a_refused_request_can_be_retried_with_the_same_key_once_fixed(town):
    client = api_as(town.users[Role.HAULER])
    body = api_body(town.own_device, certified_by_name="")
    assert client.post(MANIFESTS, body, format="json", HTTP_IDEMPOTENCY_KEY="k3").status_code == 400
    body["certified_by_name"] = "Dana Driver"
    assert client.post(MANIFESTS, body, format="json", HTTP_IDEMPOTENCY_KEY="k3").status_code == 201


def test_a_batch_accepts_and_rejects_each_manifest_on_its_own(town):
    client = api_as(town.users[Role.HAULER])
    batch = {
        "manifests": [
            api_body(town.own_device),
            api_body(town.other_device),
            api_body(town.own_device, gallons_removed="-1"),
        ]
    }
    response = client.post(MANIFESTS + "batch/", batch, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    assert response.status_code == 200
    body = response.json()
    assert (body["accepted"], body["rejected"]) == (1, 2)
    assert [r["status"] for r in body["results"]] == ["accepted", "rejected", "rejected"]
    assert "device" in body["results"][1]["errors"]
    assert "gallons_removed" in body["results"][2]["errors"]
    again = client.post(MANIFESTS + "batch/", batch, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    assert again.json() == body and Manifest.objects.count() == 1


@pytest.mark.provision("F7")
def test_f7_a_correction_through_the_api_points_to_the_original(town):
    client = api_as(town.users[Role.HAULER])
    original = client.post(MANIFESTS, api_body(town.own_device, manifest_number="C-1"), format="json").json()
    body = api_body(town.own_device, manifest_number="C-1", gallons_removed="950", reason="Gallons mistyped")
    response = client.post(f"{MANIFESTS}{original['id']}/correct/", body, format="json")
    assert response.status_code == 201, response.data
    assert response.json()["corrects"] == original["id"]
    again = client.post(f"{MANIFESTS}{original['id']}/correct/", body, format="json")
    assert again.status_code == 409


def test_manifests_outside_the_users_scope_are_not_found(town):
    manifest = submit(town.users[Role.FOG_MANAGER], town.other_device)
    for role in (Role.HAULER, Role.FSE, Role.PROPERTY_OWNER):
        client = api_as(town.users[role])
        assert client.get(f"{MANIFESTS}{manifest.pk}/").status_code == 404
        assert client.get(MANIFESTS).json()["count"] == 0
    assert api_as(town.users[Role.STAFF_READONLY]).get(f"{MANIFESTS}{manifest.pk}/").status_code == 200


def test_read_only_staff_cannot_submit(town):
    response = api_as(town.users[Role.STAFF_READONLY]).post(
        MANIFESTS, api_body(town.own_device), format="json"
    )
    assert response.status_code == 403


def test_the_manifest_list_takes_the_same_exact_queries_for_3_rows_and_30(town):
    days = iter(range(1, 31))

    def add_rows(count):
        for _ in range(count):
            submit(town.users[Role.FOG_MANAGER], town.own_device, serviced_at=days_ago(next(days)),
                   hauler=town.hauler)  # fmt: skip

    client = api_as(town.users[Role.FOG_MANAGER])
    # Town profile, count, page, and the prefetches of what each manifest shows.
    few, many = assert_queries_do_not_grow(client, add_rows, {MANIFESTS: 5}, small=3, large=30)[MANIFESTS]
    assert few.json()["count"] == 3 and many.json()["count"] == 30


# --- compliance (issue 3) and history ----------------------------------------------------------


@pytest.mark.provision("E1")
def test_e1_device_compliance_on_a_day(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(100))
    client = api_as(town.users[Role.FSE])
    url = f"/api/v1/devices/{town.own_device.pk}/compliance/"
    now = client.get(url).json()
    assert now["status"] == "overdue"
    assert now["last_service"] == days_ago(100).date().isoformat()
    assert now["recommended_frequency_days"] == 90
    assert "E1" in now["explanation"]["provisions"]
    earlier = client.get(url, {"on": (days_ago(100) + dt.timedelta(days=30)).date().isoformat()}).json()
    assert earlier["status"] == "compliant"
    assert earlier["next_due"] == now["next_due"]
    assert earlier["fill_ratio"] is None


def test_compliance_with_a_bad_date_is_a_400_naming_on(town):
    response = api_as(town.users[Role.FSE]).get(
        f"/api/v1/devices/{town.own_device.pk}/compliance/", {"on": "31/02/2025"}
    )
    assert response.status_code == 400
    assert "on" in response.json()


def test_compliance_of_a_device_outside_scope_is_404(town):
    response = api_as(town.users[Role.FSE]).get(f"/api/v1/devices/{town.other_device.pk}/compliance/")
    assert response.status_code == 404


@pytest.mark.provision("E3")
def test_e3_compliance_reports_the_fill_ratio_of_a_reading_since_the_pumpout(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(40))
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(2), full_pumpout=False,
           fog_depth_in=Decimal("8"), solids_depth_in=Decimal("6"))  # fmt: skip
    body = (
        api_as(town.users[Role.FOG_MANAGER]).get(f"/api/v1/devices/{town.own_device.pk}/compliance/").json()
    )
    assert body["status"] == "over_limit"
    assert body["fill_ratio"] == "0.2917"


def test_device_history_takes_the_same_exact_queries_for_3_manifests_and_30(town):
    days = iter(range(0, 600, 20))

    def add_rows(count):
        for _ in range(count):
            submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(next(days) + 1))

    url = f"/api/v1/devices/{town.own_device.pk}/history/"
    # Town profile, the device, then one query per kind of event the history shows, whatever their number.
    responses = assert_queries_do_not_grow(
        api_as(town.users[Role.FSE]), add_rows, {url: 10}, small=3, large=30
    )
    for rows, response in zip((3, 30), responses[url], strict=True):
        body = response.json()
        assert len([e for e in body["events"] if e["kind"] == "manifest"]) == rows
        assert len(body["fill_ratio"]) == rows


def test_device_history_outside_scope_is_404(town):
    assert (
        api_as(town.users[Role.FSE]).get(f"/api/v1/devices/{town.other_device.pk}/history/").status_code
        == 404
    )


def test_service_status_lists_every_visible_device_with_its_state(town):
    submit(town.users[Role.HAULER], town.own_device)
    client = api_as(town.users[Role.FOG_MANAGER])
    # Town profile, count, page, the devices' establishments (the same for many rows:
    # test_list_queries.py).
    (response,) = assert_same_exact_queries(client, ["/api/v1/service-status/"], 4)
    body = response.json()
    statuses = {row["identifier"]: row["status"] for row in body["results"]}
    assert statuses[town.own_device.identifier] == "compliant"
    assert statuses[town.other_device.identifier] == "never_serviced"
    overdue = client.get("/api/v1/service-status/", {"status": "never_serviced"}).json()
    assert town.own_device.identifier not in {row["identifier"] for row in overdue["results"]}


@pytest.mark.provision("E1")
def test_e1_the_fog_manager_changes_a_frequency_through_the_api(town):
    url = f"/api/v1/devices/{town.own_device.pk}/frequency/"
    response = api_as(town.users[Role.FOG_MANAGER]).post(
        url, {"to_days": 60, "reason": "Heavy fryer use"}, format="json"
    )
    assert response.status_code == 201, response.data
    assert response.json()["to_days"] == 60
    refused = api_as(town.users[Role.FOG_MANAGER]).post(url, {"to_days": 45, "reason": "x"}, format="json")
    assert refused.status_code == 400 and "not an allowed frequency" in refused.json()["to_days"][0]
    assert (
        api_as(town.users[Role.INSPECTOR])
        .post(url, {"to_days": 60, "reason": "x"}, format="json")
        .status_code
        == 403
    )


def test_a_manifest_with_a_scanned_ticket(town):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = api_as(town.users[Role.HAULER])
    body = api_body(town.own_device)
    body["attachments"] = SimpleUploadedFile(
        "ticket.pdf", b"%PDF-1.4 scanned ticket", content_type="application/pdf"
    )
    response = client.post(MANIFESTS, body, format="multipart")
    assert response.status_code == 201, response.data
    assert response.json()["attachments"][0]["name"] == "ticket.pdf"
    body = api_body(town.own_device)
    body["attachments"] = SimpleUploadedFile("ticket.exe", b"MZ\x90\x00", content_type="application/pdf")
    response = client.post(MANIFESTS, body, format="multipart")
    assert response.status_code == 400
    assert "is not a PDF, JPEG or PNG" in response.json()["attachments"][0]


def test_another_haulers_user_cannot_see_or_correct(town):
    other_user = factories.UserFactory(role=Role.HAULER)
    factories.HaulerCompanyFactory().users.add(other_user)
    manifest = submit(town.users[Role.HAULER], town.own_device)
    client = api_as(other_user)
    assert client.get(f"{MANIFESTS}{manifest.pk}/").status_code == 404
    assert client.post(f"{MANIFESTS}{manifest.pk}/correct/", {}, format="json").status_code == 404
