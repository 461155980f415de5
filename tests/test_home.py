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
