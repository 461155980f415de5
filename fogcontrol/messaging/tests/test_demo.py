"""The messaging part of the demo town: reminders sent (one bounced), Spanish-preferring contacts and
an invitation, shown on the outbox page."""

import pytest
from django.test import Client

from fogcontrol.accounts.models import User
from fogcontrol.demo.run import seed_demo
from fogcontrol.messaging.models import Invitation, Message
from fogcontrol.testing.auth import force_login_verified


@pytest.mark.django_db
def test_the_demo_town_has_reminders_sent_in_both_languages(django_capture_on_commit_callbacks):
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.messaging.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    statuses = set(Message.objects.values_list("status", flat=True))
    assert {"sent", "bounced"} <= statuses
    assert set(Message.objects.values_list("language", flat=True)) == {"en", "es"}
    assert Message.objects.values("kind").distinct().count() >= 3
    assert Invitation.objects.filter(status="pending").exists()
    client = Client()
    force_login_verified(client, User.objects.get(username="manager"))
    page = client.get("/messaging/outbox/?language=es")
    assert page.status_code == 200 and "Spanish" in page.content.decode()
