"""Permits in the main menu: staff and permittees (FSEs, property owners). A hauler reaches a
customer's permit from the customer's records, not from a permits page of its own."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="permits",
    label=_("Permits"),
    weight=20,
    items=[MenuItem(_("Permits"), "permits:home", roles=STAFF_ROLES | {Role.FSE, Role.PROPERTY_OWNER})],
)
