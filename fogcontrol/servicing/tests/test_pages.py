"""The servicing pages: what a hauler, an FSE and staff do in the browser."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import FrequencyChange, FrequencyChangeRequest, Manifest, ManifestFlag
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def portal_post(device, **changes) -> dict:
    data = {
        "device": device.pk,
        "manifest_number": "P-100",
        "serviced_at": days_ago(1).strftime("%Y-%m-%dT%H:%M"),
        "full_pumpout": "on",
        "baffles_cleaned": "on",
        "fog_depth_in": "4",
        "solids_depth_in": "3",
        "gallons_removed": "900",
        "driver_name": "Dana Driver",
        "vehicle_plate": "8TRK001",
        "certified_by_name": "Dana Driver",
        "certify": "on",
        "certification_version": certification.CURRENT_VERSION,
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.provision("F1")
def test_f1_a_hauler_submits_a_manifest_in_the_portal(town):
    client = login(town.users[Role.HAULER])
    form = client.get(f"/servicing/manifests/new/?device={town.own_device.pk}")
    assert form.status_code == 200
    assert town.own_device.identifier.encode() in form.content
    assert town.other_device.identifier.encode() not in form.content  # only its customers' devices
    response = client.post("/servicing/manifests/new/", portal_post(town.own_device), follow=True)
    manifest = Manifest.objects.get()
    assert manifest.channel == "portal" and manifest.manifest_number == "P-100"
    assert b"Manifest P-100 received." in response.content
    assert manifest.record_hash.encode() in response.content


@pytest.mark.provision("F1")
def test_f1_a_spanish_speaking_hauler_is_told_in_spanish_that_the_manifest_was_received(town):
    hauler = town.users[Role.HAULER]
    hauler.preferred_language = "es"
    hauler.save(update_fields=["preferred_language"])
    client = login(hauler)
    response = client.post("/servicing/manifests/new/", portal_post(town.own_device), follow=True)
    assert "Manifiesto P-100 recibido." in response.content.decode()


def test_the_portal_remembers_the_haulers_vehicle_and_driver(town):
    client = login(town.users[Role.HAULER])
    client.post("/servicing/manifests/new/", portal_post(town.own_device))
    page = client.get("/servicing/manifests/new/").content.decode()
    assert 'value="8TRK001"' in page and 'value="Dana Driver"' in page


def test_a_refusal_is_shown_beside_the_field_and_nothing_is_lost(town):
    client = login(town.users[Role.HAULER])
    response = client.post(
        "/servicing/manifests/new/", portal_post(town.own_device, fog_depth_in="40", solids_depth_in="20")
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_fog_depth_in_error"' in page and "deeper than device" in page
    assert 'value="P-100"' in page  # what was typed is still there
    assert Manifest.objects.count() == 0


@pytest.mark.provision("F7")
def test_f7_the_certification_box_must_be_ticked(town):
    client = login(town.users[Role.HAULER])
    response = client.post("/servicing/manifests/new/", portal_post(town.own_device, certify=None))
    assert "Tick the box to certify the manifest" in response.content.decode()
    assert Manifest.objects.count() == 0


@pytest.mark.provision("F7")
def test_f7_a_correction_in_the_portal_keeps_the_original(town):
    manifest = submit(town.users[Role.HAULER], town.own_device)
    client = login(town.users[Role.HAULER])
    page = client.get(f"/servicing/manifests/{manifest.pk}/correct/")
    assert f'value="{manifest.manifest_number}"'.encode() in page.content
    data = portal_post(
        town.own_device, manifest_number=manifest.manifest_number, gallons_removed="950", reason="Volume"
    )
    response = client.post(f"/servicing/manifests/{manifest.pk}/correct/", data, follow=True)
    correction = Manifest.objects.get(corrects=manifest)
    assert correction.gallons_removed == Decimal("950")
    assert b"Correction filed" in response.content
    original_page = client.get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    assert "This manifest was replaced by" in original_page


def test_pages_outside_the_users_scope_are_not_found(town):
    manifest = submit(town.users[Role.FOG_MANAGER], town.other_device)
    client = login(town.users[Role.FSE])
    assert client.get(f"/servicing/manifests/{manifest.pk}/").status_code == 404
    assert client.get(f"/servicing/devices/{town.other_device.pk}/").status_code == 404
    assert client.get("/servicing/flags/").status_code == 404
    assert (
        login(town.users[Role.HAULER]).get(f"/servicing/devices/{town.other_device.pk}/").status_code == 404
    )


def test_anonymous_visitors_are_sent_to_sign_in(db):
    response = Client().get("/servicing/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_status_and_manifest_lists_take_the_same_exact_queries_for_3_rows_and_30(town):
    days = iter(range(1, 31))

    def add_rows(count):
        for _ in range(count):
            device = factories.DeviceFactory(establishments=[town.own_fse])
            submit(town.users[Role.HAULER], device, serviced_at=days_ago(next(days)))

    client = login(town.users[Role.FOG_MANAGER])
    responses = assert_queries_do_not_grow(
        client, add_rows, {"/servicing/": 11, "/servicing/manifests/": 5}, small=3, large=30
    )
    for rows, response in zip((3, 30), responses["/servicing/manifests/"], strict=True):
        assert f"{rows} manifest".encode() in response.content


def test_the_device_history_page_takes_the_same_exact_queries_for_3_manifests_and_30(town):
    days = iter(range(0, 450, 15))

    def add_rows(count):
        for _ in range(count):
            submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(next(days) + 1))

    url = f"/servicing/devices/{town.own_device.pk}/"
    # 15: the frequency card finds the pending change among the history's changes (issue 16).
    responses = assert_queries_do_not_grow(
        login(town.users[Role.FSE]), add_rows, {url: 15}, small=3, large=30
    )
    for rows, response in zip((3, 30), responses[url], strict=True):
        assert response.content.decode().count("Full pump-out") == rows


def test_the_status_page_filters_by_status_with_htmx(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(100))
    client = login(town.users[Role.FOG_MANAGER])
    response = client.get("/servicing/?status=overdue", HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "<html" not in page
    assert town.own_device.identifier in page and town.other_device.identifier not in page


@pytest.mark.provision("E1")
def test_e1_the_fog_manager_changes_a_frequency_in_the_page_with_its_b7_date(town):
    client = login(town.users[Role.FOG_MANAGER])
    response = client.post(
        f"/servicing/devices/{town.own_device.pk}/frequency/",
        {"to_days": "60", "reason": "Heavy fryer use"},
        follow=True,
    )
    change = FrequencyChange.objects.get()
    assert change.effective_on - change.notice_date == dt.timedelta(days=10)
    assert b"Frequency set to every 60 days" in response.content
    refused = client.post(
        f"/servicing/devices/{town.own_device.pk}/frequency/",
        {"to_days": "60", "reason": "x", "effective_on": timezone.localdate().isoformat()},
    )
    assert refused.status_code == 400
    assert "B7 requires at least 10 days" in refused.content.decode()


@pytest.mark.provision("E5")
def test_e5_the_fse_files_a_request_and_the_fog_manager_decides_with_the_assessment_in_view(town):
    fse = login(town.users[Role.FSE])
    response = fse.post(
        f"/servicing/devices/{town.own_device.pk}/frequency-request/",
        {"requested_days": "180", "justification": "We scrape plates and the trap stays clean."},
        follow=True,
    )
    assert b"Your request was filed" in response.content
    filed = FrequencyChangeRequest.objects.get()
    manager = login(town.users[Role.FOG_MANAGER])
    page = manager.get(f"/servicing/frequency-requests/{filed.pk}/").content.decode()
    assert "Not supported" in page and "E5" in page
    refused = manager.post(f"/servicing/frequency-requests/{filed.pk}/", {"grant": "1", "note": ""})
    assert "differs from the rules engine" in refused.content.decode()
    manager.post(f"/servicing/frequency-requests/{filed.pk}/", {"grant": "0", "note": ""})
    filed.refresh_from_db()
    assert filed.status == "refused"


def test_staff_review_a_flag_in_place_with_htmx(town):
    manifest = submit(town.users[Role.HAULER], town.own_device, baffles_cleaned=False)
    flag = manifest.flags.get(code="baffles_not_cleaned")
    client = login(town.users[Role.INSPECTOR])
    assert flag.message.encode() in client.get("/servicing/flags/").content
    refused = client.post(
        f"/servicing/flags/{flag.pk}/review/", {"outcome": "referred"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 400 and b"Say why the manifest is referred" in refused.content
    response = client.post(
        f"/servicing/flags/{flag.pk}/review/",
        {"outcome": "cleared", "note": "Baffles checked"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and b"Reviewed: no action" in response.content
    assert ManifestFlag.objects.get(pk=flag.pk).review == "cleared"


def test_an_inspector_records_a_reading_from_the_device_page(town):
    client = login(town.users[Role.INSPECTOR])
    response = client.post(
        f"/servicing/devices/{town.own_device.pk}/readings/",
        {
            "taken_on": days_ago(1).date().isoformat(),
            "fog_depth_in": "9",
            "solids_depth_in": "5",
            "source": "inspection",
        },
        follow=True,
    )
    assert b"Reading recorded." in response.content
    assert b"Service now (E6)" in response.content


@pytest.mark.provision("E5")
def test_e5_a_request_projected_at_21_3_percent_is_supported_and_the_margin_is_shown_apart_as_advice(town):
    from conftest import api_as

    hauler = town.users[Role.HAULER]
    # 48 in deep. Pump-outs 30, 60 and 90 days apart: 2.27, 5.4 and 8.1 in; average 0.0852 in/day.
    submit(
        hauler,
        town.own_device,
        serviced_at=days_ago(220),
        fog_depth_in=Decimal("1"),
        solids_depth_in=Decimal("1"),
    )
    for days, fog, solids in ((190, "1.27", "1"), (130, "2.4", "3"), (40, "3.6", "4.5")):
        submit(hauler, town.own_device, serviced_at=days_ago(days), fog_depth_in=Decimal(fog), solids_depth_in=Decimal(solids))  # fmt: skip
    fse = login(town.users[Role.FSE])
    fse.post(
        f"/servicing/devices/{town.own_device.pk}/frequency-request/",
        {"requested_days": "120", "justification": "Our average over three pump-outs."},
    )
    filed = FrequencyChangeRequest.objects.get()
    assert filed.assessment["granted"] is True
    assert filed.assessment["projected_fill_ratio"] == "0.2131"

    page = (
        login(town.users[Role.FOG_MANAGER]).get(f"/servicing/frequency-requests/{filed.pk}/").content.decode()
    )
    finding, advice = page.split("Advice (not a ground for the decision)")
    assert (
        "Supported by the data" in finding
        and "21.3% of the 48.00 in total depth: within the 25.0% limit" in finding
    )
    assert "26.6%" not in finding and "26.6%" in advice

    body = api_as(town.users[Role.FSE]).get(f"/api/v1/frequency-requests/{filed.pk}/").json()
    assert body["assessment"]["granted"] is True
    assert any("26.6%" in line and "not a ground" in line for line in body["assessment"]["advice"])
    assert all("26.6%" not in reason for reason in body["assessment"]["reasons"])
