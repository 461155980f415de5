"""Staff certifying a manifest on a hauler's or an FSE's behalf must have authenticated within the
last few minutes (fogcontrol/core/fresh_auth.py): the page asks and returns to the form with
nothing lost; the API answers 403 "fresh authentication required"."""

import pytest
from django.test import Client

from conftest import api_as, api_signed_in
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest, ManifestImport
from fogcontrol.servicing.tests.helpers import api_body, submit
from fogcontrol.servicing.tests.test_imports import csv_file, row
from fogcontrol.servicing.tests.test_pages import portal_post
from fogcontrol.testing.auth import authenticated_minutes_ago, give_authenticator, unused_code

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory
MANIFESTS = "/api/v1/manifests/"
NEW = "/servicing/manifests/new/"


def _stale(client) -> None:
    authenticated_minutes_ago(client, 6)  # the default window is 5 minutes


@pytest.mark.provision("F1")
def test_f1_staff_certifying_after_the_window_confirm_their_password_and_lose_nothing(town):
    client = Client()
    client.force_login(town.users[Role.FOG_MANAGER])
    _stale(client)

    asked = client.post(NEW, portal_post(town.own_device, manifest_number="P-777", driver_name="Ana Ruiz"))

    assert (
        asked.status_code == 302
        and asked["Location"] == "/account/confirm/?next=%2Fservicing%2Fmanifests%2Fnew%2F"
    )
    assert not Manifest.objects.exists()
    page = client.get(asked["Location"]).content.decode()
    assert "Confirm it is you" in page and "within the last 5 minutes" in page
    wrong = client.post(asked["Location"], {"password": "not it", "next": NEW})
    assert wrong.status_code == 400 and "did not match" in wrong.content.decode()

    back = client.post(asked["Location"], {"password": PASSWORD, "next": NEW})
    assert back["Location"] == NEW
    form = client.get(NEW).content.decode()
    assert 'value="P-777"' in form and 'value="Ana Ruiz"' in form
    assert "Your form is as you left it" in form

    done = client.post(NEW, portal_post(town.own_device, manifest_number="P-777"))
    assert done.status_code == 302
    assert Manifest.objects.get().manifest_number == "P-777"


def test_staff_may_confirm_with_an_authenticator_code_instead(town):
    manager = town.users[Role.FOG_MANAGER]
    device = give_authenticator(manager)
    client = Client()
    client.force_login(manager)
    _stale(client)
    client.post(NEW, portal_post(town.own_device))
    assert client.post("/account/confirm/", {"code": unused_code(device), "next": NEW})["Location"] == NEW
    assert client.post(NEW, portal_post(town.own_device)).status_code == 302
    assert Manifest.objects.count() == 1


def test_a_correction_by_staff_asks_too(town):
    manifest = submit(town.users[Role.HAULER], town.own_device)
    client = Client()
    client.force_login(town.users[Role.INSPECTOR])
    _stale(client)
    url = f"/servicing/manifests/{manifest.pk}/correct/"
    response = client.post(url, portal_post(town.own_device, reason="Wrong depth"))
    assert response["Location"].startswith("/account/confirm/")


def test_a_hauler_certifying_its_own_manifest_is_not_asked(town):
    client = Client()
    client.force_login(town.users[Role.HAULER])
    _stale(client)
    assert client.post(NEW, portal_post(town.own_device)).status_code == 302
    assert Manifest.objects.count() == 1


def test_the_api_answers_403_fresh_authentication_required(town):
    client = api_signed_in(town.users[Role.INSPECTOR])
    _stale(client)

    response = client.post(MANIFESTS, api_body(town.own_device), format="json")

    assert response.status_code == 403
    body = response.json()
    assert (
        body["detail"].startswith("fresh authentication required")
        and body["code"] == "fresh_authentication_required"
    )
    assert (
        client.post(
            f"{MANIFESTS}batch/", {"manifests": [api_body(town.own_device)]}, format="json"
        ).status_code
        == 403
    )
    # A program with a token and no session has no recent sign-in to show either.
    assert (
        api_as(town.users[Role.INSPECTOR])
        .post(MANIFESTS, api_body(town.own_device), format="json")
        .status_code
        == 403
    )
    assert not Manifest.objects.exists()


def test_a_program_proves_it_with_a_current_code_in_the_header(town, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # no wait after the wrong code: the test types fast
    inspector = town.users[Role.INSPECTOR]
    device = give_authenticator(inspector)
    client = api_as(inspector)  # a token, no session

    wrong = client.post(MANIFESTS, api_body(town.own_device), format="json", HTTP_X_OTP_TOKEN="000000")
    assert wrong.status_code == 403
    ok = client.post(
        MANIFESTS, api_body(town.own_device), format="json", HTTP_X_OTP_TOKEN=unused_code(device)
    )
    assert ok.status_code == 201


def test_a_recent_sign_in_passes_and_the_hauler_is_never_asked(town):
    assert (
        api_signed_in(town.users[Role.FOG_MANAGER])
        .post(MANIFESTS, api_body(town.own_device), format="json")
        .status_code
        == 201
    )
    hauler = api_signed_in(town.users[Role.HAULER])
    _stale(hauler)
    assert hauler.post(MANIFESTS, api_body(town.own_device), format="json").status_code == 201


def test_a_csv_import_by_staff_signs_every_row_so_it_asks_too_but_a_dry_run_does_not(town):
    rows = [row(town.own_device, "CSV-1")]
    client = Client()
    client.force_login(town.users[Role.INSPECTOR])
    _stale(client)

    asked = client.post("/servicing/imports/", {"file": csv_file(rows)})
    assert asked["Location"] == "/account/confirm/?next=%2Fservicing%2Fimports%2F"
    assert not ManifestImport.objects.exists()
    client.post("/account/confirm/", {"password": PASSWORD, "next": "/servicing/imports/"})
    assert "Attach the files again" in client.get("/servicing/imports/").content.decode()

    dry = Client()
    dry.force_login(town.users[Role.INSPECTOR])
    _stale(dry)
    assert dry.post("/servicing/imports/", {"file": csv_file(rows), "dry_run": "on"}).status_code == 302
    assert ManifestImport.objects.get().dry_run

    api = api_signed_in(town.users[Role.INSPECTOR])
    _stale(api)
    refused = api.post("/api/v1/manifest-imports/", {"file": csv_file(rows)}, format="multipart")
    assert refused.status_code == 403 and refused.json()["code"] == "fresh_authentication_required"
