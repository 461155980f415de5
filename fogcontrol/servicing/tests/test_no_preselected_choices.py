"""Issue 18, risky defaults: a form that decides something starts with an empty choice."""

import re

import pytest
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.testing import factories


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def selected_options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"[^>]*selected', select)


@pytest.mark.provision("E1")
def test_e1_no_frequency_is_preselected_and_submitting_none_says_to_choose_one(town):
    manager = login(town.users[Role.FOG_MANAGER])
    page = manager.get(f"/servicing/devices/{town.own_device.pk}/").content.decode()
    assert 'name="to_days"' in page and "Choose a frequency" in page
    assert selected_options(page, "to_days") in ([], [""])
    refused = manager.post(
        f"/servicing/devices/{town.own_device.pk}/frequency/", {"to_days": "", "reason": "x"}
    )
    assert refused.status_code == 400 and "This field is required" in refused.content.decode()


@pytest.mark.provision("E5")
def test_e5_the_fse_request_form_preselects_no_frequency(town):
    page = login(town.users[Role.FSE]).get(f"/servicing/devices/{town.own_device.pk}/").content.decode()
    assert 'name="requested_days"' in page
    assert selected_options(page, "requested_days") in ([], [""])


@pytest.mark.provision("B3")
def test_b3_a_staff_application_starts_with_no_establishment_chosen(town):
    factories.EstablishmentFactory()
    page = login(town.users[Role.FOG_MANAGER]).get("/permits/applications/new/").content.decode()
    assert "Choose the establishment" in page
    assert selected_options(page, "establishment") in ([], [""])


@pytest.mark.provision("B3")
def test_b3_an_fse_with_one_establishment_is_given_it(town):
    page = login(town.users[Role.FSE]).get("/permits/applications/new/").content.decode()
    assert selected_options(page, "establishment") == [str(town.own_fse.pk)]
