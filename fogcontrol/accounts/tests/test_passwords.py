"""Passwords: at least 12 characters and not a common one; a change page and a reset by email,
each audited and rate-limited."""

import re

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory
NEW = "wet grease in the trap 42"


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("Tr4p-Gre4se", "at least 12 characters"),
        ("qwerty123456", "too common"),
        ("1qaz2wsx3edc", "too common"),
    ],
)
def test_short_or_common_passwords_are_refused(db, password, why):
    with pytest.raises(ValidationError) as refused:
        validate_password(password)
    assert why in " ".join(refused.value.messages)


def test_a_twelve_character_uncommon_password_is_accepted(db):
    validate_password("trap-grease9")


def _change(client, old, new=NEW, again=None):
    return client.post(
        "/password/change/",
        {"old_password": old, "new_password1": new, "new_password2": again or new},
    )


def test_a_signed_in_user_changes_the_password_and_other_sessions_end(town):
    fse = town.users[Role.FSE]
    here, elsewhere = Client(), Client()
    here.post("/login/", {"username": "fse", "password": PASSWORD})
    elsewhere.post("/login/", {"username": "fse", "password": PASSWORD})
    assert here.get("/password/change/").status_code == 200

    response = _change(here, PASSWORD)

    assert response.status_code == 302 and response["Location"] == "/password/change/done/"
    assert here.get("/account/").status_code == 200  # this session stays signed in
    assert elsewhere.get("/account/")["Location"].startswith("/login/")
    fse.refresh_from_db()
    assert fse.check_password(NEW)
    entry = AuditEntry.objects.get(action="password.change")
    assert entry.actor == fse and NEW not in str(entry.after) and "password" not in (entry.after or {})


def test_the_change_page_refuses_a_short_new_password_beside_the_field(town):
    client = Client()
    client.force_login(town.users[Role.HAULER])
    response = _change(client, PASSWORD, new="short-one")
    assert response.status_code == 200
    assert "at least 12 characters" in response.content.decode()
    assert not AuditEntry.objects.filter(action="password.change").exists()


def test_five_wrong_current_passwords_pause_the_change_page(town, settings):
    settings.FOGCONTROL_PASSWORD_CHANGE_FAILURE_LIMIT = 5
    client = Client()
    client.force_login(town.users[Role.INSPECTOR])
    for _ in range(5):
        assert _change(client, "not my password").status_code == 200
    locked = _change(client, PASSWORD)
    assert locked.status_code == 429 and "paused for 15 minutes" in locked.content.decode()
    town.users[Role.INSPECTOR].refresh_from_db()
    assert town.users[Role.INSPECTOR].check_password(PASSWORD)


def test_the_change_page_needs_a_signed_in_user(client, db):
    assert client.get("/password/change/")["Location"].startswith("/login/")


def _reset_link() -> str:
    return re.search(r"https?://[^/]+(/password/reset/\S+/)", mail.outbox[-1].body).group(1)


def test_a_password_is_reset_through_the_emailed_link_and_every_session_ends(town):
    hauler = town.users[Role.HAULER]
    signed_in = Client()
    signed_in.post("/login/", {"username": "hauler", "password": PASSWORD})
    client = Client()
    assert "Forgot your password?" in client.get("/login/").content.decode()

    sent = client.post("/password/reset/", {"email": hauler.email})

    assert sent["Location"] == "/password/reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [hauler.email]
    assert AuditEntry.objects.filter(action="password.reset_request", object_id=str(hauler.pk)).exists()
    form_page = client.get(_reset_link(), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done["Location"] == "/password/reset/done/"
    hauler.refresh_from_db()
    assert hauler.check_password(NEW)
    assert signed_in.get("/account/")["Location"].startswith("/login/")
    entry = AuditEntry.objects.get(action="password.reset")
    assert entry.actor == hauler and entry.after == {"sessions_ended": 1}
    # The link works once.
    again = client.get(_reset_link(), follow=True)
    assert "This link does not work" in again.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_email(town):
    response = Client().post("/password/reset/", {"email": "nobody@nowhere.example"})
    assert response["Location"] == "/password/reset/sent/"
    assert mail.outbox == []


def test_reset_requests_are_limited_per_address(town, settings):
    settings.FOGCONTROL_PASSWORD_RESET_LIMIT = 3
    client = Client()
    for number in range(3):
        assert client.post("/password/reset/", {"email": f"someone{number}@x.example"}).status_code == 302
    refused = client.post("/password/reset/", {"email": town.users[Role.FSE].email})
    assert refused.status_code == 429 and "Too many password reset requests" in refused.content.decode()
    assert mail.outbox == []


def test_reset_requests_are_limited_per_email_whatever_the_address(town, settings):
    settings.FOGCONTROL_PASSWORD_RESET_LIMIT = 2
    email = town.users[Role.FSE].email
    for number in range(2):
        Client(REMOTE_ADDR=f"192.0.2.{number}").post("/password/reset/", {"email": email})
    assert Client(REMOTE_ADDR="192.0.2.99").post("/password/reset/", {"email": email}).status_code == 429
    assert len(mail.outbox) == 2


def test_the_reset_email_is_in_the_language_the_account_chose_whatever_the_browser(town):
    """Issue 18: a Spanish-speaking restaurant owner's reset link comes in Spanish, even when asked
    for from an English browser; an English account's e-mail is as before."""
    owner = town.users[Role.FSE]
    owner.preferred_language = "es"
    owner.save(update_fields=["preferred_language"])
    hauler = town.users[Role.HAULER]

    Client(HTTP_ACCEPT_LANGUAGE="en").post("/password/reset/", {"email": owner.email})
    Client(HTTP_ACCEPT_LANGUAGE="es").post("/password/reset/", {"email": hauler.email})

    spanish, english = mail.outbox
    assert spanish.subject == "Restablezca su contraseña de FOG Control"
    assert f'Alguien pidió restablecer la contraseña de la cuenta "{owner.username}"' in spanish.body
    assert "ignore este correo" in spanish.body and "/password/reset/" in spanish.body
    assert english.subject == "Reset your FOG Control password"
    assert f'the FOG Control Program account "{hauler.username}"' in english.body
