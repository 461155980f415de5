"""/account/: a signed-in user sees their role and bound records, and creates or rotates their token."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role


def _signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def test_signing_in_is_required(db):
    response = Client().get("/account/")

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_an_fse_user_sees_role_and_own_establishment_only(town):
    page = _signed_in(town.users[Role.FSE]).get("/account/").content.decode()

    assert "Food service establishment" in page
    assert "Blue Plate Diner" in page
    assert "Golden Wok" not in page
    assert "You have no API token." in page


def test_a_property_owner_sees_their_parcel_and_the_fses_on_it(town):
    page = _signed_in(town.users[Role.PROPERTY_OWNER]).get("/account/").content.decode()

    assert town.owned_parcel.apn in page
    assert "Plaza Pizza" in page and "Plaza Pho" in page
    assert "Blue Plate Diner" not in page


def test_a_hauler_sees_their_company(town):
    page = _signed_in(town.users[Role.HAULER]).get("/account/").content.decode()

    assert "Peninsula Pumping" in page


@pytest.mark.parametrize("role", [Role.FOG_MANAGER, Role.STAFF_READONLY], ids=lambda r: r.value)
def test_staff_are_told_they_see_the_whole_program(town, role):
    page = _signed_in(town.users[role]).get("/account/").content.decode()

    assert "you see the whole program" in page
    editable = "You may change the registry." in page
    assert editable == (role == Role.FOG_MANAGER)


def test_creating_then_rotating_a_token(town):
    user = town.users[Role.PROPERTY_OWNER]
    client = _signed_in(user)

    created = client.post("/account/token/")
    first = Token.objects.get(user=user)
    assert created.status_code == 200
    assert first.key in created.content.decode()  # shown once, right after it is made

    again = client.get("/account/").content.decode()
    assert first.key not in again and first.key[-4:] in again

    rotated = client.post("/account/token/", HTTP_HX_REQUEST="true")
    second = Token.objects.get(user=user)
    body = rotated.content.decode()
    assert second.key != first.key
    assert second.key in body
    assert "<html" not in body  # htmx gets only the token card
    assert "stopped working" in body
    assert [entry.action for entry in AuditEntry.objects.order_by("id")] == [
        "api_token.create",
        "api_token.rotate",
    ]


def test_revoking_a_token(town):
    user = town.users[Role.FSE]
    client = _signed_in(user)
    client.post("/account/token/")

    response = client.post("/account/token/revoke/")

    assert "Your API token was revoked." in response.content.decode()
    assert not Token.objects.filter(user=user).exists()


def test_the_token_forms_are_csrf_protected(town):
    client = _signed_in(town.users[Role.FSE], enforce_csrf_checks=True)

    response = client.post("/account/token/")

    assert response.status_code == 403
    assert not Token.objects.exists()


def test_the_page_carries_the_csrf_token_for_its_forms(town):
    page = _signed_in(town.users[Role.FSE]).get("/account/").content.decode()

    assert 'name="csrfmiddlewaretoken"' in page


def test_get_on_the_token_url_changes_nothing(town):
    response = _signed_in(town.users[Role.FSE]).get("/account/token/")

    assert response.status_code == 405
    assert not Token.objects.exists()
