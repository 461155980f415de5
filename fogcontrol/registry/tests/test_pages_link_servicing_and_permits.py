"""Issue 18: the registry's pages show the permit and the service status the apps above hold, and
the registry and servicing device pages lead to each other (fogcontrol.core.panels)."""

import pytest
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.helpers import submit


def page(user, url) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.provision("E1")
def test_e1_the_registry_device_page_shows_its_service_status_and_links_to_its_history(town):
    manifest = submit(town.users[Role.HAULER], town.own_device)
    next_due = manifest.device.service_state.next_due
    html = page(town.users[Role.FOG_MANAGER], f"/registry/devices/{town.own_device.pk}/")
    assert "Service (E1)" in html
    assert f"{next_due:%b} {next_due.day}, {next_due.year}" in html
    assert f'href="/servicing/devices/{town.own_device.pk}/"' in html
    history = page(town.users[Role.FOG_MANAGER], f"/servicing/devices/{town.own_device.pk}/")
    assert f'href="/registry/devices/{town.own_device.pk}/"' in history


@pytest.mark.provision("B1")
def test_b1_the_establishment_page_says_it_has_no_permit_and_shows_its_devices_service(town):
    submit(town.users[Role.HAULER], town.own_device)
    html = page(town.users[Role.FSE], f"/registry/establishments/{town.own_fse.pk}/")
    assert "FOG permit (B1, B6)" in html and "No FOG permit" in html
    assert "Service status of its devices (E1)" in html
    assert f'href="/servicing/devices/{town.own_device.pk}/"' in html


@pytest.mark.provision("B6")
def test_b6_the_establishment_page_shows_the_permit_in_force_with_a_link(town):
    from fogcontrol.permits.tests.factories import PermitFactory

    permit = PermitFactory(establishment=town.own_fse)
    html = page(town.users[Role.FOG_MANAGER], f"/registry/establishments/{town.own_fse.pk}/")
    assert f'href="/permits/{permit.pk}/"' in html and f"Permit {permit.number}" in html
