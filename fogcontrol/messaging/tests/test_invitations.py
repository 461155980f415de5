"""Invitations: the FOG Manager opens an account bound to its record; the e-mailed link sets the
password once, and only before it expires."""

import datetime as dt
import re

import pytest
from django.core import mail
from django.utils import timezone

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.messaging.models import Invitation, Message
from fogcontrol.registry.selectors import establishments_visible_to

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough passphrase 42"


def _invite(client, town, django_capture_on_commit_callbacks, **extra):
    client.force_login(town.users[Role.FOG_MANAGER])
    data = {"role": "fse", "email": "cook@tacos.example", "first_name": "Ana", "last_name": "Ruiz",
            "language": "es", "establishment": town.other_fse.pk, **extra}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/messaging/invitations/new/", data)
    client.logout()
    return response


def _link(email) -> str:
    return re.search(r"http://testserver(/messaging/invitations/accept/[^/\s]+/)", email.body).group(1)


def test_an_invited_fse_user_sets_a_password_once_and_sees_its_establishment(
    town, client, django_capture_on_commit_callbacks
):
    assert _invite(client, town, django_capture_on_commit_callbacks).status_code == 302
    invitation = Invitation.objects.get()
    user = invitation.user
    assert user.role == Role.FSE and user.preferred_language == "es" and not user.has_usable_password()
    assert list(establishments_visible_to(user)) == [town.other_fse]
    (email,) = [m for m in mail.outbox if m.to == ["cook@tacos.example"]]
    assert "Establezca su contraseña" in email.body
    message = Message.objects.get(kind="invitation")
    assert message.status == "sent" and message.language == "es"
    link = _link(email)
    assert "Ana" in client.get(link).content.decode()
    response = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert client.login(username="cook@tacos.example", password=PASSWORD)
    client.logout()
    again = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert again.status_code == 410 and "used already" in again.content.decode()
    assert AuditEntry.objects.filter(action__in=["invitation.send", "invitation.accept"]).count() == 2


def test_an_expired_link_says_so(town, client, django_capture_on_commit_callbacks):
    _invite(client, town, django_capture_on_commit_callbacks)
    link = _link(mail.outbox[-1])
    Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    response = client.get(link)
    assert response.status_code == 410 and "expired on" in response.content.decode()
    assert client.get("/messaging/invitations/accept/not-a-token/").status_code == 410


def test_the_binding_must_match_the_role(town, client, django_capture_on_commit_callbacks):
    response = _invite(client, town, django_capture_on_commit_callbacks, role="hauler")
    assert response.status_code == 400 and "Choose the hauler" in response.content.decode()
    assert not Invitation.objects.exists()


def test_invite_a_hauler_through_the_api_and_withdraw_it(town, django_capture_on_commit_callbacks):
    api = api_as(town.users[Role.FOG_MANAGER])
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post("/api/v1/invitations/", {"role": "hauler", "email": "driver@pump.example",
                                                   "hauler": town.hauler.pk}, format="json")  # fmt: skip
    assert answer.status_code == 201 and answer.json()["status"] == "pending"
    assert town.hauler.users.filter(email="driver@pump.example").exists()
    revoked = api.post(f"/api/v1/invitations/{answer.json()['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    assert api.post(f"/api/v1/invitations/{answer.json()['id']}/revoke/").status_code == 409
    duplicate = api.post("/api/v1/invitations/", {"role": "hauler", "email": "driver@pump.example",
                                                  "hauler": town.hauler.pk}, format="json")  # fmt: skip
    assert duplicate.status_code == 400 and "exists already" in str(duplicate.json())


def test_a_user_chooses_the_language_of_their_e_mails_on_the_account_page(town, client):
    user = town.users[Role.HAULER]
    client.force_login(user)
    assert "Language of your e-mails" in client.get("/account/").content.decode()
    # The account page's form posts to the one language route and comes back to the account page.
    assert 'action="/i18n/setlang/"' in client.get("/account/").content.decode()
    answer = client.post("/i18n/setlang/", {"language": "es", "next": "/account/"})
    assert answer.status_code == 302 and answer["Location"] == "/account/"
    user.refresh_from_db()
    assert user.preferred_language == "es"
    assert AuditEntry.objects.filter(action="user.language").count() == 1
    client.post("/i18n/setlang/", {"language": "fr", "next": "/account/"})
    user.refresh_from_db()
    assert user.preferred_language == "es"
