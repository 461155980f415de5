"""Demo messages: a quarter of the contacts prefer Spanish; the nightly reminders run for the demo's
today (service due and overdue, renewals, training and reports, invoices, hearings), the first ones
are sent at once into the outbox (the file backend without EMAIL_URL) and one has bounced; the rest
wait for the worker. The demo FSE user's establishment gets an invitation of a new cook."""

from __future__ import annotations

import datetime as dt
import random

from fogcontrol.audit.services import audited_bulk_update
from fogcontrol.core.roles import Role
from fogcontrol.messaging.models import Message, Status
from fogcontrol.messaging.services import invitation_send, message_bounce, messages_send, reminders_send_due
from fogcontrol.registry.models import Party

ACTING = "seed_demo"
SENT_AT_ONCE = 25


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    with_email = [party.pk for party in town.parties if party.email]
    spanish = rng.sample(with_email, len(with_email) // 4)
    audited_bulk_update(
        Party.objects.filter(pk__in=spanish),
        acting_user=ACTING,
        action="party.update",
        preferred_language="es",
    )
    reminders_send_due(on=today, acting_user=ACTING)
    queued = list(Message.objects.filter(status=Status.QUEUED).order_by("pk").values_list("pk", flat=True))
    messages_send(message_ids=queued[:SENT_AT_ONCE])
    sent = Message.objects.filter(status=Status.SENT).order_by("pk").first()
    if sent is not None:
        message_bounce(acting_user=ACTING, message=sent, reason="550 5.1.1 The email account does not exist.")
    fse = town.fse_establishment
    if fse is not None:
        invitation_send(
            acting_user=ACTING,
            role=Role.FSE,
            email=f"cocina.{fse.pk}@example.org",
            first_name="Lucía",
            last_name="Morales",
            language="es",
            establishment=fse,
            accept_url="http://127.0.0.1:8000/messaging/invitations/accept/{token}/",
        )
