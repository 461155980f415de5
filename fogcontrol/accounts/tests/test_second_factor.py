"""A second factor for staff: an authenticator app (TOTP) with single-use backup codes.

Staff must set it up and give a code at every sign-in; until they do, their session reaches only
the second-factor pages and sign-out. Outside users may set one up, and are then asked for it too.
"""

import re
from base64 import b32decode

from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.testing.auth import force_login_pending, give_authenticator, unused_code

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory
VERIFY = "/account/two-factor/"
ENROL = "/account/two-factor/set-up/"


def _sign_in(client, username, next_url=""):
    data = {"username": username, "password": PASSWORD}
    if next_url:
        data["next"] = next_url
    return client.post("/login/", data)


def _code_from_page(page: str) -> str:
    secret = re.search(r'id="totp-secret">([A-Z2-7=]+)<', page).group(1)
    return f"{totp(b32decode(secret)):06d}"


def test_a_staff_user_without_a_factor_is_sent_to_set_one_up_and_reaches_nothing_else(town):
    client = Client()
    response = _sign_in(client, "inspector", next_url="/registry/establishments/")
    assert response.status_code == 302

    for path in ("/registry/establishments/", "/account/", "/servicing/", "/admin/"):
        answer = client.get(path)
        assert answer.status_code == 302 and answer["Location"].startswith(VERIFY), path
    assert client.get(VERIFY).url.startswith(ENROL)
    api = client.get("/api/v1/establishments/")
    assert api.status_code == 403 and api.json()["detail"].startswith("second factor required")

    assert client.post("/logout/").status_code == 302
    assert client.get("/registry/establishments/")["Location"].startswith("/login/")


def test_enrolment_shows_the_secret_confirms_a_code_and_shows_ten_backup_codes_once(town):
    inspector = town.users[Role.INSPECTOR]
    client = Client()
    _sign_in(client, "inspector")
    page = client.get(ENROL).content.decode()
    assert "<svg" in page  # the QR code, inline: nothing fetched from elsewhere
    secret = re.search(r'id="totp-secret">([^<]+)<', page).group(1)
    assert secret in client.get(ENROL).content.decode()  # a reload keeps the secret the app has

    wrong = client.post(ENROL, {"code": "000000"})
    assert wrong.status_code == 400 and "does not match" in wrong.content.decode()

    done = client.post(ENROL, {"code": _code_from_page(page)})
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", done.content.decode())
    assert len(codes) == 10 and "not shown again" in done.content.decode()
    assert TOTPDevice.objects.get(user=inspector).confirmed
    assert client.get("/registry/establishments/").status_code == 200
    entry = AuditEntry.objects.get(action="second_factor.enrol")
    assert entry.actor == inspector and not any(code in str(entry.after) for code in codes)
    # Shown once: the account page states how many are left, never the codes.
    account = client.get("/account/").content.decode()
    assert "10 backup codes left" in account and codes[0] not in account


def test_a_staff_user_with_a_factor_gives_a_code_at_sign_in_and_gets_a_new_session_key(town, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # no wait after the wrong code: the test types fast
    device = give_authenticator(town.users[Role.FOG_MANAGER])
    client = Client()
    response = _sign_in(client, "fog_manager", next_url="/program/")
    assert client.get(response["Location"])["Location"] == f"{VERIFY}?next=%2Fprogram%2F"
    before = client.session.session_key

    wrong = client.post(VERIFY, {"code": "123456", "next": "/program/"})
    assert wrong.status_code == 400 and "does not match" in wrong.content.decode()
    right = client.post(VERIFY, {"code": unused_code(device), "next": "/program/"})

    assert right.status_code == 302 and right["Location"] == "/program/"
    assert client.session.session_key != before  # the session gained privilege: a new key
    assert client.get("/program/").status_code == 200


def test_a_code_is_refused_a_second_time(town):
    device = give_authenticator(town.users[Role.FOG_MANAGER])
    code = unused_code(device)
    first, second = Client(), Client()
    _sign_in(first, "fog_manager")
    _sign_in(second, "fog_manager")
    assert first.post(VERIFY, {"code": code}).status_code == 302
    assert second.post(VERIFY, {"code": code}).status_code == 400


def test_a_backup_code_works_once(town):
    client = Client()
    force_login_pending(client, town.users[Role.BILLING_CLERK])
    page = client.get(ENROL).content.decode()
    codes = re.findall(
        r"<code>([a-z2-7]{8})</code>", client.post(ENROL, {"code": _code_from_page(page)}).content.decode()
    )
    client.post("/logout/")

    first = Client()
    _sign_in(first, "billing_clerk")
    used = first.post(VERIFY, {"code": codes[0].upper()}, follow=True)
    assert used.status_code == 200 and "You used a backup code; 9 left" in used.content.decode()

    again = Client()
    _sign_in(again, "billing_clerk")
    assert again.post(VERIFY, {"code": codes[0]}).status_code == 400
    assert StaticToken.objects.filter(device__user=town.users[Role.BILLING_CLERK]).count() == 9


def test_new_backup_codes_replace_the_old_ones(town):
    user = town.users[Role.INSPECTOR]
    give_authenticator(user)
    client = Client()
    client.force_login(user)
    old = re.findall(
        r"<code>([a-z2-7]{8})</code>", client.post("/account/two-factor/backup-codes/").content.decode()
    )
    new = re.findall(
        r"<code>([a-z2-7]{8})</code>", client.post("/account/two-factor/backup-codes/").content.decode()
    )
    assert len(new) == 10 and not set(old) & set(new)
    assert set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True)) == set(new)
    assert AuditEntry.objects.filter(action="second_factor.backup_codes", object_id=str(user.pk)).count() == 2


def test_an_outside_user_needs_no_factor_but_may_set_one_up_and_is_then_asked_for_it(town):
    client = Client()
    _sign_in(client, "fse")
    assert client.get("/account/").status_code == 200
    assert "Set up an authenticator app" in client.get("/account/").content.decode()
    page = client.get(ENROL).content.decode()
    assert "Optional" in page
    client.post(ENROL, {"code": _code_from_page(page)})
    client.post("/logout/")

    later = Client()
    _sign_in(later, "fse")
    assert later.get("/account/")["Location"].startswith(VERIFY)


def test_the_nav_is_hidden_until_the_code_is_given(town):
    client = Client()
    force_login_pending(client, town.users[Role.FOG_MANAGER])
    page = client.get(ENROL).content.decode()
    assert "Establishments" not in page and "Sign out" in page


def test_a_staff_token_needs_a_current_code(town, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # no wait after the wrong code: the test types fast
    manager = town.users[Role.FOG_MANAGER]
    url = "/api/v1/auth/token/"
    without_factor = APIClient().post(url, {"username": "fog_manager", "password": PASSWORD}, format="json")
    assert without_factor.status_code == 400 and "second factor" in without_factor.json()["otp_token"][0]

    device = give_authenticator(manager)
    no_code = APIClient().post(url, {"username": "fog_manager", "password": PASSWORD}, format="json")
    assert no_code.status_code == 400 and list(no_code.json()) == ["otp_token"]
    wrong = APIClient().post(
        url, {"username": "fog_manager", "password": PASSWORD, "otp_token": "000000"}, format="json"
    )
    assert wrong.status_code == 400
    ok = APIClient().post(
        url,
        {"username": "fog_manager", "password": PASSWORD, "otp_token": unused_code(device)},
        format="json",
    )
    assert ok.status_code == 200

    # The token then works on its own: it was issued to a user who passed both factors.
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ok.json()['token']}")
    assert client.get("/api/v1/establishments/").status_code == 200


def test_wrong_codes_make_the_next_try_wait(town):
    device = give_authenticator(town.users[Role.INSPECTOR])
    client = Client()
    _sign_in(client, "inspector")
    client.post(VERIFY, {"code": "000000"})
    too_soon = client.post(VERIFY, {"code": unused_code(device)})
    assert too_soon.status_code == 400 and "Too many wrong codes" in too_soon.content.decode()
