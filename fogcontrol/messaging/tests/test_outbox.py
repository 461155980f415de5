"""The outbox (every e-mail sent, with its text), the file e-mail backend, and bounces."""

import datetime as dt
from pathlib import Path

import pytest
from django.core import mail
from django.test import override_settings

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.envconfig import email_settings
from fogcontrol.messaging.services import messages_send
from fogcontrol.messaging.tests.rows import add_invitations, add_messages
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def test_without_email_url_messages_are_files_in_the_data_dir(tmp_path):
    assert email_settings(None, tmp_path) == {
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(tmp_path / "mail"),
    }
    assert email_settings("file:///var/mail/fog")["EMAIL_FILE_PATH"] == "/var/mail/fog"
    assert email_settings("smtp://mail.town.gov:587?tls=1")["EMAIL_BACKEND"].endswith("smtp.EmailBackend")


def test_a_message_goes_to_a_file_and_shows_in_the_outbox(town, client, tmp_path):
    (message,) = add_messages(town, 1)
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                           EMAIL_FILE_PATH=str(tmp_path)):  # fmt: skip
        assert messages_send(message_ids=[message.pk]) == {"sent": 1, "failed": 0}
        assert messages_send(message_ids=[message.pk]) == {"sent": 0, "failed": 0}  # a retried task
    (written,) = list(Path(tmp_path).iterdir())
    text = written.read_text()
    assert message.to_email in text and f"X-FOG-Message: {message.reference}" in text
    client.force_login(town.users[Role.STAFF_READONLY])
    page = client.get("/messaging/outbox/").content.decode()
    assert message.to_email in page and "Sent" in page and "messaging_service_due_" in page
    detail = client.get(f"/messaging/outbox/{message.pk}/").content.decode()
    message.refresh_from_db()
    assert message.status == "sent" and message.body.splitlines()[0] in detail
    assert "Record a bounce" not in detail  # read-only staff


def test_a_failed_send_is_recorded_with_its_error_and_sent_again(town, django_capture_on_commit_callbacks):
    (message,) = add_messages(town, 1)
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1",
                           EMAIL_PORT=1, EMAIL_TIMEOUT=2):  # fmt: skip
        assert messages_send(message_ids=[message.pk])["failed"] == 1
    message.refresh_from_db()
    assert message.status == "failed" and message.error
    # The server is back: staff send it again, once.
    api = api_as(town.users[Role.FOG_MANAGER])
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/v1/messages/{message.pk}/retry/")
    assert answer.status_code == 200
    message.refresh_from_db()
    assert message.status == "sent" and mail.outbox[-1].to == [message.to_email]
    assert api.post(f"/api/v1/messages/{message.pk}/retry/").status_code == 409


def test_staff_record_a_bounce_on_the_page_and_the_webhook_on_the_api(town, client):
    first, second = add_messages(town, 2)
    messages_send(message_ids=[first.pk, second.pk])
    assert len(mail.outbox) == 2
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.post(f"/messaging/outbox/{first.pk}/bounce/", {"reason": "550 5.1.1 no such user"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.status == "bounced" and first.bounce_reason == "550 5.1.1 no such user"
    again = client.post(f"/messaging/outbox/{first.pk}/bounce/", {"reason": "550 again"})
    assert again.status_code == 409 and "bounced already" in again.content.decode()
    assert client.post(f"/messaging/outbox/{second.pk}/bounce/", {"reason": " "}).status_code == 400
    api = api_as(town.users[Role.BILLING_CLERK])
    answer = api.post(f"/api/v1/messages/{second.pk}/bounce/", {"reason": "552 mailbox full"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "bounced"
    assert AuditEntry.objects.filter(action="message.bounce").count() == 2
    assert (
        api_as(town.users[Role.INSPECTOR])
        .post(f"/api/v1/messages/{second.pk}/bounce/", {"reason": "x"}, format="json")
        .status_code
        == 403
    )


def test_a_queued_message_cannot_bounce(town):
    (message,) = add_messages(town, 1)
    answer = api_as(town.users[Role.FOG_MANAGER]).post(
        f"/api/v1/messages/{message.pk}/bounce/", {"reason": "550"}, format="json"
    )
    assert answer.status_code == 409


def _rows(town):
    def add(count: int) -> None:
        add_messages(town, count)
        add_invitations(town, count)

    return add


# The Town profile, session, user, count, the page of messages with their establishment (the
# invitations: with their user and bound record). API: the Town profile, count, page.
PAGES = {
    "/messaging/outbox/": 5,
    "/messaging/outbox/?status=queued&language=es": 5,
    "/messaging/invitations/": 5,
}
API = {"/api/v1/messages/": 3, "/api/v1/messages/?kind=service_due": 3, "/api/v1/invitations/": 3}


def test_the_lists_take_the_same_exact_queries_for_few_rows_and_many(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert_queries_do_not_grow(client, _rows(town), PAGES)


def test_the_api_lists_take_the_same_exact_queries_for_few_rows_and_many(town):
    assert_queries_do_not_grow(api_as(town.users[Role.FOG_MANAGER]), _rows(town), API)


def test_due_dates_print_in_the_recipients_language():
    from fogcontrol.messaging.services.messages import format_value

    assert format_value(dt.date(2026, 5, 4), "es") == "4 de mayo de 2026"
    assert format_value(dt.date(2026, 5, 4), "en") == "May 4, 2026"
