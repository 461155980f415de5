"""Messages in the main menu for staff: the outbox and the invitations."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES
from fogcontrol.messaging.roles import INVITERS

register(
    group="messaging",
    label="Messages",
    weight=39,
    items=[MenuItem("Messages", "messaging:outbox", roles=STAFF_ROLES)],
)

register(
    menu="messaging",
    group="messaging",
    label="Messages",
    items=[
        MenuItem("Outbox", "messaging:outbox", roles=STAFF_ROLES),
        MenuItem("Reminders to send", "messaging:reminder_queue", roles=STAFF_ROLES),
        MenuItem("Invitations", "messaging:invitations", roles=STAFF_ROLES),
        MenuItem("Invite a user", "messaging:invitation_new", roles=INVITERS),
    ],
)
