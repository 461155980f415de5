"""Rows for messaging's lists: sent messages and invitations."""

import itertools

from fogcontrol.core.roles import Role
from fogcontrol.messaging.models import Invitation, Kind, Message
from fogcontrol.messaging.recipients import Recipient
from fogcontrol.messaging.services import Draft, messages_queue
from fogcontrol.program.selectors import town_today
from fogcontrol.testing import factories

_numbers = itertools.count(1)


def add_messages(town, count: int) -> list[Message]:
    """``count`` more messages about the FSE's device (queued, not sent: no task runs outside commit)."""
    drafts = []
    for _ in range(count):
        n = next(_numbers)
        recipient = Recipient(
            email=f"person{n}@example.org", name=f"Person {n}", language="es" if n % 2 else "en"
        )
        drafts.append(Draft(Kind.SERVICE_DUE, recipient, town.own_device, town_today(),
                            {"business_name": town.own_fse.business_name, "site_address": "1 Main",
                             "device": town.own_device.identifier, "due_date": town_today()},
                            town.own_fse.pk))  # fmt: skip
    return messages_queue(acting_user="messaging.test", drafts=drafts, on=town_today())


def add_invitations(town, count: int) -> None:
    from fogcontrol.messaging.services import invitation_send

    for _ in range(count):
        n = next(_numbers)
        invitation_send(acting_user=town.users[Role.FOG_MANAGER], role=Role.FSE, email=f"invitee{n}@example.org",
                        establishment=factories.EstablishmentFactory(), accept_url="http://testserver/a/{token}/")  # fmt: skip


def mark_sent(messages) -> None:
    Message.objects.filter(pk__in=[m.pk for m in messages]).update(status="sent")


__all__ = ["Invitation", "add_invitations", "add_messages", "mark_sent"]
