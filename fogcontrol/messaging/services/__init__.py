"""Every write of messaging (docs/messaging.md)."""

from fogcontrol.messaging.services.invitations import (
    InvitationUnusable,
    invitation_accept,
    invitation_for_token,
    invitation_revoke,
    invitation_send,
)
from fogcontrol.messaging.services.messages import (
    Draft,
    message_bounce,
    message_deliver,
    message_retry,
    messages_queue,
)
from fogcontrol.messaging.services.reminder_queue import (
    PendingReminder,
    ReminderSendResult,
    reminders_pending,
    reminders_send_selected,
)
from fogcontrol.messaging.services.reminders import reminders_due, reminders_send_due
from fogcontrol.messaging.services.sending import messages_send, permit_notice_queue

__all__ = [
    "Draft",
    "InvitationUnusable",
    "invitation_accept",
    "invitation_for_token",
    "invitation_revoke",
    "invitation_send",
    "message_bounce",
    "message_deliver",
    "message_retry",
    "messages_queue",
    "messages_send",
    "permit_notice_queue",
    "PendingReminder",
    "ReminderSendResult",
    "reminders_pending",
    "reminders_send_selected",
    "reminders_due",
    "reminders_send_due",
]
