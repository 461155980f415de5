"""F5 for people and programs: litigation holds and purges through the pages and the API."""

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.servicing.models import LitigationHold, Manifest
from fogcontrol.servicing.tests.helpers import days_ago, submit, town_approves_destruction

OUTSIDE = [Role.FSE, Role.PROPERTY_OWNER, Role.HAULER]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def old_manifest(town):
    return submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(800))


@pytest.mark.provision("F5")
def test_f5_the_fog_manager_places_a_hold_in_the_page_and_purging_is_refused(town, old_manifest):
    manager = _client(town.users[Role.FOG_MANAGER])
    holds_url = f"/servicing/devices/{town.own_device.pk}/holds/"
    response = manager.post(holds_url, {"reason": "Claim 2026-03: overflow on Main St"})
    assert response.status_code == 302
    assert "Claim 2026-03" in manager.get(holds_url).content.decode()
    assert AuditEntry.objects.filter(action="litigation_hold.place").count() == 1

    purge_page = manager.get(f"/servicing/manifests/{old_manifest.pk}/purge/").content.decode()
    assert "litigation hold" in purge_page
    refused = manager.post(f"/servicing/manifests/{old_manifest.pk}/purge/", {"reason": "retention ended"})
    assert refused.status_code == 409
    assert Manifest.objects.filter(pk=old_manifest.pk).exists()


@pytest.mark.provision("F5")
def test_f5_after_the_hold_is_released_an_old_manifest_is_purged_from_its_page(town, old_manifest):
    manager = _client(town.users[Role.FOG_MANAGER])
    manager.post(f"/servicing/devices/{town.own_device.pk}/holds/", {"reason": "Claim 2026-03"})
    hold = LitigationHold.objects.get()
    assert manager.post(f"/servicing/holds/{hold.pk}/release/").status_code == 302
    town_approves_destruction(town.users[Role.FOG_MANAGER])  # Gov. Code §34090
    response = manager.post(
        f"/servicing/manifests/{old_manifest.pk}/purge/", {"reason": "F5 retention ended"}
    )
    assert response.status_code == 302
    assert not Manifest.objects.filter(pk=old_manifest.pk).exists()


@pytest.mark.provision("F5")
def test_f5_a_young_manifest_cannot_be_purged_and_the_page_says_until_when(town):
    young = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(30))
    manager = _client(town.users[Role.FOG_MANAGER])
    page = manager.get(f"/servicing/manifests/{young.pk}/purge/").content.decode()
    assert "Kept until at least" in page
    assert "Purge the manifest" not in page
    refused = manager.post(f"/servicing/manifests/{young.pk}/purge/", {"reason": "tidy up"})
    assert refused.status_code == 409
    assert Manifest.objects.filter(pk=young.pk).exists()


def test_a_hold_needs_a_reason_named_beside_the_field(town):
    response = _client(town.users[Role.FOG_MANAGER]).post(
        f"/servicing/devices/{town.own_device.pk}/holds/", {"reason": ""}
    )
    assert response.status_code == 400
    assert LitigationHold.objects.count() == 0


@pytest.mark.parametrize("role", sorted(STAFF_ROLES - {Role.FOG_MANAGER}))
def test_other_staff_see_holds_but_cannot_place_them(town, role):
    client = _client(town.users[role])
    url = f"/servicing/devices/{town.own_device.pk}/holds/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"reason": "Claim"}).status_code == 403
    assert LitigationHold.objects.count() == 0


@pytest.mark.parametrize("role", OUTSIDE)
def test_outside_users_never_see_holds_or_purges(town, role, old_manifest):
    client = _client(town.users[role])
    assert client.get(f"/servicing/devices/{town.own_device.pk}/holds/").status_code == 404
    assert client.get(f"/servicing/manifests/{old_manifest.pk}/purge/").status_code == 404
    api = api_as(town.users[role])
    assert api.get(f"/api/v1/devices/{town.own_device.pk}/holds/").status_code == 404
    assert api.post(f"/api/v1/manifests/{old_manifest.pk}/purge/", {"reason": "x"}).status_code == 404


@pytest.mark.provision("F5")
def test_f5_api_hold_then_purge_refused_then_release_then_purge(town, old_manifest):
    api = api_as(town.users[Role.FOG_MANAGER])
    placed = api.post(
        f"/api/v1/devices/{town.own_device.pk}/holds/", {"reason": "Claim 2026-03"}, format="json"
    )
    assert placed.status_code == 201
    decision = api.get(f"/api/v1/manifests/{old_manifest.pk}/purge/").json()
    assert decision["allowed"] is False and "litigation hold" in decision["reason"]
    refused = api.post(f"/api/v1/manifests/{old_manifest.pk}/purge/", {"reason": "ended"}, format="json")
    assert refused.status_code == 409
    released = api.post(f"/api/v1/litigation-holds/{placed.json()['id']}/release/")
    assert released.status_code == 200 and released.json()["released_at"]
    again = api.post(f"/api/v1/litigation-holds/{placed.json()['id']}/release/")
    assert again.status_code == 409
    town_approves_destruction(town.users[Role.FOG_MANAGER])  # Gov. Code §34090
    purged = api.post(f"/api/v1/manifests/{old_manifest.pk}/purge/", {"reason": "ended"}, format="json")
    assert purged.status_code == 201  # answered with the purge report (was 204 No Content)
    assert not Manifest.objects.filter(pk=old_manifest.pk).exists()


def test_api_a_hold_without_a_reason_is_a_400_naming_it(town):
    response = api_as(town.users[Role.FOG_MANAGER]).post(
        f"/api/v1/devices/{town.own_device.pk}/holds/", {}, format="json"
    )
    assert response.status_code == 400
    assert "reason" in response.json()


def test_api_read_only_staff_may_look_but_not_purge(town, old_manifest):
    api = api_as(town.users[Role.STAFF_READONLY])
    assert api.get(f"/api/v1/manifests/{old_manifest.pk}/purge/").status_code == 200
    assert (
        api.post(f"/api/v1/manifests/{old_manifest.pk}/purge/", {"reason": "x"}, format="json").status_code
        == 403
    )
    assert Manifest.objects.filter(pk=old_manifest.pk).exists()


def test_staff_reach_holds_and_purge_from_the_device_and_manifest_pages(town, old_manifest):
    client = _client(town.users[Role.FOG_MANAGER])
    device_page = client.get(f"/servicing/devices/{town.own_device.pk}/").content.decode()
    assert f"/servicing/devices/{town.own_device.pk}/holds/" in device_page
    manifest_page = client.get(f"/servicing/manifests/{old_manifest.pk}/").content.decode()
    assert f"/servicing/manifests/{old_manifest.pk}/purge/" in manifest_page
