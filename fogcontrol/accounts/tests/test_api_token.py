"""POST /api/v1/auth/token/: a program trades a username and password for the user's token."""

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory


def test_a_token_is_issued_for_a_username_and_password_and_then_works(town):
    client = APIClient()

    response = client.post("/api/v1/auth/token/", {"username": "fse", "password": PASSWORD}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert (body["username"], body["role"], body["created"]) == ("fse", "fse", True)
    entry = AuditEntry.objects.get(action="api_token.create")
    assert entry.actor == town.users[Role.FSE]
    assert body["token"] not in str(entry.after)  # the trail never holds the secret

    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    rows = client.get("/api/v1/establishments/").json()["results"]
    assert [row["id"] for row in rows] == [town.own_fse.pk]


def test_asking_again_returns_the_same_token(town):
    client = APIClient()
    first = client.post("/api/v1/auth/token/", {"username": "hauler", "password": PASSWORD}).json()
    second = client.post("/api/v1/auth/token/", {"username": "hauler", "password": PASSWORD}).json()

    assert first["token"] == second["token"]
    assert second["created"] is False
    assert AuditEntry.objects.filter(action="api_token.create").count() == 1


def test_a_wrong_password_is_a_400_and_issues_nothing(town):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "fse", "password": "guess"}, format="json"
    )

    assert response.status_code == 400
    assert "Unable to log in" in response.json()["non_field_errors"][0]
    assert not Token.objects.exists()


def test_missing_fields_are_named(town):
    response = APIClient().post("/api/v1/auth/token/", {"username": "fse"}, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["password"]


def test_an_inactive_user_gets_no_token(town):
    user = town.users[Role.INSPECTOR]
    user.is_active = False
    user.save()

    response = APIClient().post("/api/v1/auth/token/", {"username": "inspector", "password": PASSWORD})

    assert response.status_code == 400
    assert not Token.objects.exists()


def test_a_bad_token_is_refused_with_401(town):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    assert client.get("/api/v1/establishments/").status_code == 401
