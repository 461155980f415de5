"""Reads of messaging, scoped to the user (staff: all; others: none, 404)."""

from __future__ import annotations

from fogcontrol.core.scoping import VIEW
from fogcontrol.messaging.models import Invitation, Message
from fogcontrol.messaging.services.reminder_queue import reminders_pending


def messages_visible_to(user, action: str = VIEW):
    return Message.objects.visible_to(user, action).select_related("establishment")


def message_detail(user, pk) -> Message:
    return messages_visible_to(user).get(pk=pk)


def invitations_visible_to(user, action: str = VIEW):
    return Invitation.objects.visible_to(user, action).select_related(
        "user", "establishment", "parcel", "hauler"
    )


def invitation_detail(user, pk) -> Invitation:
    return invitations_visible_to(user).get(pk=pk)


def reminders_to_send(user, *, on) -> list:
    """The reminders due on ``on`` not sent yet (services.reminders_pending): Town staff's queue;
    anyone else sees none."""
    if not getattr(user, "is_program_staff", False):
        return []
    return reminders_pending(on=on)
