"""Sessions: a new one at sign-in, ended by sign-out and by deactivation, and by an idle timeout
(staff sooner than outside users)."""

import pytest
from django.contrib.sessions.models import Session
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fogcontrol.accounts.models import UserSession
from fogcontrol.accounts.services import api_token_rotate, user_deactivate
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.testing.auth import idle_for

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory


def test_signing_in_gives_a_new_session_key_and_the_old_one_is_gone(town):
    client = Client()
    session = client.session  # a session from before signing in (e.g. a planted cookie)
    session["planted"] = True
    session.save()
    before = session.session_key

    client.post("/login/", {"username": "fse", "password": PASSWORD})

    after = client.session.session_key
    assert after and after != before
    assert not Session.objects.filter(session_key=before).exists()
    assert UserSession.objects.get(session_key=after).user == town.users[Role.FSE]


def test_signing_out_ends_the_session(town):
    client = Client()
    client.post("/login/", {"username": "fse", "password": PASSWORD})
    key = client.session.session_key

    client.post("/logout/")

    assert not Session.objects.filter(session_key=key).exists()
    assert not UserSession.objects.filter(session_key=key).exists()
    assert client.get("/account/")["Location"].startswith("/login/")


def test_deactivating_a_user_ends_every_session_and_revokes_the_api_token(town):
    inspector = town.users[Role.INSPECTOR]
    desk, phone = Client(), Client()
    desk.force_login(inspector)
    phone.force_login(inspector)
    token = api_token_rotate(user=inspector, acting_user=inspector)
    assert desk.get("/account/").status_code == 200

    result = user_deactivate(user=inspector, acting_user=town.users[Role.FOG_MANAGER], reason="Left the Town")

    assert result == {"sessions_ended": 2, "api_token_revoked": True}
    for client in (desk, phone):
        assert client.get("/account/")["Location"].startswith("/login/")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/establishments/").status_code == 401
    assert not Token.objects.filter(user=inspector).exists()
    inspector.refresh_from_db()
    assert not inspector.is_active
    entry = AuditEntry.objects.get(action="user.deactivate")
    assert entry.after == {"is_active": False, "sessions_ended": 2, "api_token_revoked": True}
    assert entry.note == "Left the Town"


def test_only_the_fog_manager_deactivates_someone_else(town):
    with pytest.raises(PermissionDenied):
        user_deactivate(user=town.users[Role.FSE], acting_user=town.users[Role.INSPECTOR])
    assert town.users[Role.FSE].is_active


def test_unticking_active_in_the_admin_ends_the_users_sessions(admin_client, town):
    fse = town.users[Role.FSE]
    session_of_fse = Client()
    session_of_fse.force_login(fse)
    form = admin_client.get(f"/admin/accounts/user/{fse.pk}/change/").context["adminform"].form
    data = {key: value for key, value in form.initial.items() if value is not None and key != "is_active"}
    data.update(
        {
            "date_joined_0": fse.date_joined.strftime("%Y-%m-%d"),
            "date_joined_1": fse.date_joined.strftime("%H:%M:%S"),
            "groups": [],
            "user_permissions": [],
        }
    )
    data.pop("date_joined", None)
    data.pop("last_login", None)

    response = admin_client.post(f"/admin/accounts/user/{fse.pk}/change/", data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert session_of_fse.get("/account/")["Location"].startswith("/login/")
    assert AuditEntry.objects.filter(action="user.deactivate", object_id=str(fse.pk)).exists()


def test_the_admin_action_deactivates_the_selected_users(admin_client, town):
    fse = town.users[Role.FSE]
    session_of_fse = Client()
    session_of_fse.force_login(fse)

    admin_client.post("/admin/accounts/user/", {"action": "deactivate", "_selected_action": [fse.pk]})

    fse.refresh_from_db()
    assert not fse.is_active
    assert session_of_fse.get("/account/")["Location"].startswith("/login/")


def test_staff_are_signed_out_after_thirty_idle_minutes_and_told_why(town):
    client = Client()
    client.force_login(town.users[Role.INSPECTOR])
    idle_for(client, 29)
    assert client.get("/registry/establishments/").status_code == 200  # and the clock restarts

    idle_for(client, 31)
    response = client.get("/registry/establishments/", follow=True)

    assert response.redirect_chain[0][0] == "/login/?next=%2Fregistry%2Festablishments%2F"
    assert "You were signed out after 30 minutes of inactivity" in response.content.decode()
    assert client.get("/account/")["Location"].startswith("/login/")


def test_outside_users_have_a_longer_idle_timeout_set_in_the_settings(town, settings):
    settings.FOGCONTROL_IDLE_MINUTES = 45
    client = Client()
    client.force_login(town.users[Role.HAULER])
    idle_for(client, 31)
    assert client.get("/account/").status_code == 200
    idle_for(client, 46)
    response = client.get("/account/", follow=True)
    assert "signed out after 45 minutes of inactivity" in response.content.decode()


def test_an_idle_session_on_the_api_is_a_401_saying_why(town):
    client = APIClient()
    client.force_login(town.users[Role.FOG_MANAGER])
    idle_for(client, 31)
    response = client.get("/api/v1/establishments/")
    assert response.status_code == 401
    assert "signed out after 30 minutes of inactivity" in response.json()["detail"]


def test_an_htmx_request_after_the_timeout_sends_the_whole_page_to_sign_in(town):
    client = Client()
    client.force_login(town.users[Role.INSPECTOR])
    idle_for(client, 31)
    response = client.get("/registry/establishments/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["HX-Redirect"] == "/login/?next=%2Fregistry%2Festablishments%2F"
