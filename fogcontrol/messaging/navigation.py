"""Messages in the main menu for staff: the outbox and the invitations."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES
from fogcontrol.messaging.roles import INVITERS

register(
    group="messaging",
    label=_("Messages"),
    weight=39,
    items=[MenuItem(_("Messages"), "messaging:outbox", roles=STAFF_ROLES)],
)

register(
    menu="messaging",
    group="messaging",
    label=_("Messages"),
    items=[
        MenuItem(_("Outbox"), "messaging:outbox", roles=STAFF_ROLES),
        MenuItem(_("Reminders to send"), "messaging:reminder_queue", roles=STAFF_ROLES),
        MenuItem(_("Invitations"), "messaging:invitations", roles=STAFF_ROLES),
        MenuItem(_("Invite a user"), "messaging:invitation_new", roles=INVITERS),
    ],
)
