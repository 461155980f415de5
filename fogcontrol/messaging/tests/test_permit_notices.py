"""Permit notices (B6, B7) are e-mailed through messaging: in the outbox, with the letter attached,
and the notice records that it was e-mailed."""

import pytest
from django.core import mail

from fogcontrol.messaging.models import Message
from fogcontrol.permits.services import notice_send
from fogcontrol.program.selectors import town_today

pytestmark = pytest.mark.django_db


@pytest.mark.provision("B7")
def test_a_permit_notice_is_sent_through_the_outbox(town, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        notice = notice_send(
            acting_user="messaging.test", establishment=town.own_fse, kind="renewal_reminder",
            subject="Your FOG permit is due for renewal", body="Please renew it.", sent_on=town_today(),
        )  # fmt: skip
    notice.refresh_from_db()
    assert notice.email_sent_at is not None and notice.email_to
    messages = Message.objects.filter(kind="permit_notice")
    assert sorted(m.to_email for m in messages) == sorted(notice.email_to)
    assert all(m.status == "sent" for m in messages)
    sent = [m for m in mail.outbox if m.subject == "Your FOG permit is due for renewal"]
    assert len(sent) == len(notice.email_to) and sent[0].attachments[0][2] == "application/pdf"
    assert "Please renew it." in messages.first().body
    assert messages.first().due_on == notice.sent_on
