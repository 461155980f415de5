"""Issue 15, finding 6: password guessing is stopped on the sign-in page and the token endpoint.

Policy (docs/security.md): after AXES_FAILURE_LIMIT wrong passwords for one username from one
address, that username is refused from that address for the cool-off, even with the right
password; X-Forwarded-For is ignored unless FOGCONTROL_TRUSTED_PROXIES says otherwise; the same
user from another address still signs in (no lockout by address or by username alone).
"""

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from fogcontrol.accounts.api.views import TokenThrottle

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory
TOKEN = "/api/v1/auth/token/"


@pytest.fixture(autouse=True)
def _throttle_out_of_the_way(monkeypatch):
    """The endpoint's own throttle (a per-minute rate) is not what these tests prove: the lockout is."""
    monkeypatch.setattr(TokenThrottle, "rate", "10000/minute")
    cache.clear()
    yield
    cache.clear()


def _sign_in(client, username, password, **headers):
    return client.post("/login/", {"username": username, "password": password}, **headers)


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_thirty_wrong_passwords_lock_the_sign_in_page_even_for_the_right_one(town):
    client = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        assert _sign_in(client, "fse", "guess").status_code in (200, 429)
    response = _sign_in(client, "fse", PASSWORD)
    assert response.status_code == 429
    assert not _signed_in(client)
    page = response.content.decode()
    assert "Signing in is locked for 15 minutes" in page
    assert '<header class="topbar">' in page  # the product's frame, not a bare message


def test_thirty_wrong_passwords_lock_the_token_endpoint_with_a_429_saying_so(town):
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        client.post(TOKEN, {"username": "hauler", "password": "guess"}, format="json")
    response = client.post(TOKEN, {"username": "hauler", "password": PASSWORD}, format="json")
    assert response.status_code == 429
    body = response.json()
    assert "token" not in body
    assert body["locked_minutes"] == 15 and "locked for 15 minutes" in body["detail"]
    assert response["Retry-After"] == "900"


def test_the_page_and_the_token_endpoint_share_one_count(town, settings):
    settings.AXES_FAILURE_LIMIT = 5
    page, api = Client(REMOTE_ADDR="203.0.113.7"), APIClient(REMOTE_ADDR="203.0.113.7")
    for _ in range(3):
        _sign_in(page, "fse", "guess")
    for _ in range(2):
        api.post(TOKEN, {"username": "fse", "password": "guess"}, format="json")
    assert api.post(TOKEN, {"username": "fse", "password": PASSWORD}, format="json").status_code == 429


def test_rotating_x_forwarded_for_does_not_reset_the_count(town):
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    for n in range(100):
        response = client.post(
            TOKEN, {"username": "fse", "password": f"guess-{n}"}, format="json",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )  # fmt: skip
    assert response.status_code == 429
    page = Client(REMOTE_ADDR="203.0.113.7")
    assert _sign_in(page, "fse", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 429


def test_the_real_user_from_another_address_still_signs_in(town):
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        _sign_in(attacker, "fse", "guess")
    assert _sign_in(attacker, "fse", PASSWORD).status_code == 429

    user = Client(REMOTE_ADDR="192.0.2.44")
    assert _sign_in(user, "fse", PASSWORD).status_code == 302 and _signed_in(user)
    token = APIClient(REMOTE_ADDR="192.0.2.44").post(TOKEN, {"username": "fse", "password": PASSWORD})
    assert token.status_code == 200 and token.json()["token"]


def test_an_address_guessing_at_one_name_can_still_sign_in_as_another(town):
    office = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        _sign_in(office, "fse", "guess")
    assert _sign_in(office, "hauler", PASSWORD).status_code == 302


def test_behind_one_trusted_proxy_the_address_is_the_one_it_appended(town, settings):
    """With FOGCONTROL_TRUSTED_PROXIES=1, the rightmost X-Forwarded-For entry is the client."""
    settings.FOGCONTROL_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    for n in range(10):
        forged_then_real = f"198.51.100.{n}, 203.0.113.7"
        _sign_in(Client(REMOTE_ADDR=proxy), "fse", "guess", HTTP_X_FORWARDED_FOR=forged_then_real)
    locked = _sign_in(Client(REMOTE_ADDR=proxy), "fse", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert locked.status_code == 429
    elsewhere = _sign_in(Client(REMOTE_ADDR=proxy), "fse", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.44")
    assert elsewhere.status_code == 302


def test_a_successful_sign_in_clears_the_earlier_failures(town, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(2):
        _sign_in(client, "fse", "guess")
    assert _sign_in(client, "fse", PASSWORD).status_code == 302
    client.logout()
    for _ in range(2):
        _sign_in(client, "fse", "guess")
    assert _sign_in(client, "fse", PASSWORD).status_code == 302
