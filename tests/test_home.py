"""The home page: staff see the program's size, outside users their own records and next steps."""

import pytest

from fogcontrol.core.roles import STAFF_ROLES, Role

pytestmark = pytest.mark.django_db


def test_anonymous_is_sent_to_sign_in(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.parametrize("role", sorted(STAFF_ROLES))
def test_staff_see_the_programs_size(client, town, role):
    client.force_login(town.users[role])
    page = client.get("/").content.decode()
    assert "active establishments" in page
    assert "shared devices (A2)" in page


@pytest.mark.provision("B1")
def test_an_fse_sees_its_establishment_and_that_it_has_no_permit(client, town):
    client.force_login(town.users[Role.FSE])
    page = client.get("/").content.decode()
    assert "Blue Plate Diner" in page
    assert "No FOG permit" in page
    assert "Golden Wok" not in page


def test_a_hauler_sees_its_customers_only(client, town):
    client.force_login(town.users[Role.HAULER])
    page = client.get("/").content.decode()
    assert "Your customers" in page
    assert "Blue Plate Diner" in page
    assert "Golden Wok" not in page


def test_the_stylesheet_is_served(client):
    from django.contrib.staticfiles import finders

    assert finders.find("fogcontrol/app.css")


@pytest.mark.provision("B6")
def test_b6_an_fse_is_warned_that_its_business_licence_has_lapsed(client, town):
    import datetime as dt

    from fogcontrol.program.selectors import town_today

    town.own_fse.licence_expires_on = town_today() - dt.timedelta(days=3)
    town.own_fse.save(update_fields=["licence_expires_on"])
    client.force_login(town.users[Role.FSE])
    page = client.get("/").content.decode()
    assert "The business licence of Blue Plate Diner" in page
    assert "expired on" in page and "(B6)" in page


@pytest.mark.provision("E1")
def test_e1_the_fse_home_shows_the_next_pump_out_date(client, town):
    from fogcontrol.servicing.tests.helpers import submit

    manifest = submit(town.users[Role.HAULER], town.own_device)
    next_due = manifest.device.service_state.next_due
    client.force_login(town.users[Role.FSE])
    page = client.get("/").content.decode()
    assert "Next pump-out due (E1)" in page
    assert f"{next_due:%b} {next_due.day}, {next_due.year}" in page
