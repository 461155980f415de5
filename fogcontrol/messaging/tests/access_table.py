"""Who may see and do what with messages and invitations: every page and API route × every role.

The outbox and the invitations are Town staff's (outside users: 404). Recording a bounce: the FOG
Manager and the Billing Clerk (`roles.MESSAGE_MANAGERS`); inviting and withdrawing: the FOG Manager
(`roles.INVITERS`). The invitation link's page is for whoever holds the link, signed out (a signed-in
user is told to sign out first, 409; a link that does not exist: 410).

Run by messaging/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.messaging.models import Message
from fogcontrol.messaging.roles import INVITERS, MESSAGE_MANAGERS
from fogcontrol.messaging.tests.rows import add_invitations, add_messages
from fogcontrol.testing.access import ALL_ROLES, STAFF, api, page


def build(town) -> None:
    """A sent message (one that may bounce) and a pending invitation."""
    (message,) = add_messages(town, 1)
    Message.objects.filter(pk=message.pk).update(status="sent")
    town.records["message"] = message
    add_invitations(town, 1)
    from fogcontrol.messaging.models import Invitation

    town.records["invitation"] = Invitation.objects.latest("pk")


def _m(t):
    return t["message"].pk


def _i(t):
    return t["invitation"].pk


def _invite(t):
    return {"role": "fse", "email": "someone-new@example.org", "establishment": t.own_fse.pk}


ROUTES = [
    page("messaging:outbox", "/messaging/outbox/", record=False, scope=STAFF),
    page("messaging:message", lambda t: f"/messaging/outbox/{_m(t)}/", scope=STAFF),
    page(
        "messaging:message_bounce",
        lambda t: f"/messaging/outbox/{_m(t)}/bounce/",
        method="post",
        body={"reason": "550 no such user"},
        scope=STAFF,
        may=MESSAGE_MANAGERS,
    ),
    page(
        "messaging:message_retry",
        lambda t: f"/messaging/outbox/{_m(t)}/retry/",
        method="post",
        scope=STAFF,
        may=MESSAGE_MANAGERS,
    ),
    page("messaging:reminder_queue", "/messaging/reminders/", record=False, scope=STAFF),
    page(
        "messaging:reminder_queue",
        "/messaging/reminders/",
        method="post",
        body={"reminder": ["0" * 64], "confirmed": "yes"},
        record=False,
        scope=STAFF,
        may=MESSAGE_MANAGERS,
    ),
    page("messaging:invitations", "/messaging/invitations/", record=False, scope=STAFF),
    page("messaging:invitation_new", "/messaging/invitations/new/", record=False, scope=STAFF, may=INVITERS),
    page(
        "messaging:invitation_new",
        "/messaging/invitations/new/",
        method="post",
        body=_invite,
        record=False,
        scope=STAFF,
        may=INVITERS,
    ),
    page(
        "messaging:invitation_revoke",
        lambda t: f"/messaging/invitations/{_i(t)}/revoke/",
        method="post",
        scope=STAFF,
        may=INVITERS,
    ),
    page(
        "messaging:invitation_accept",
        "/messaging/invitations/accept/no-such-token/",
        record=False,
        ok=409,
        anonymous=410,
        label="a link that does not exist",
    ),
    api("message-list", "/api/v1/messages/", record=False, scope=STAFF),
    api("message-detail", lambda t: f"/api/v1/messages/{_m(t)}/", scope=STAFF),
    api(
        "message-bounce",
        lambda t: f"/api/v1/messages/{_m(t)}/bounce/",
        method="post",
        body={"reason": "550 no such user"},
        scope=STAFF,
        may=MESSAGE_MANAGERS,
    ),
    api(
        "message-retry",
        lambda t: f"/api/v1/messages/{_m(t)}/retry/",
        method="post",
        scope=STAFF,
        may=MESSAGE_MANAGERS,
    ),
    api("reminder-queue", "/api/v1/queues/reminders/", record=False, scope=STAFF),
    api(
        "reminder-queue-send",
        "/api/v1/queues/reminders/send/",
        method="post",
        body={"keys": ["0" * 64]},
        record=False,
        scope=STAFF,
        may=MESSAGE_MANAGERS,
    ),
    api("invitation-list", "/api/v1/invitations/", record=False, scope=STAFF),
    api(
        "invitation-list",
        "/api/v1/invitations/",
        method="post",
        body=_invite,
        record=False,
        scope=STAFF,
        may=INVITERS,
    ),
    api("invitation-detail", lambda t: f"/api/v1/invitations/{_i(t)}/", scope=STAFF),
    api(
        "invitation-revoke",
        lambda t: f"/api/v1/invitations/{_i(t)}/revoke/",
        method="post",
        scope=STAFF,
        may=INVITERS,
    ),
]

__all__ = ["ALL_ROLES", "ROUTES", "Role", "build"]
