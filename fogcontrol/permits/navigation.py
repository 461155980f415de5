"""Permits in the main menu: staff and permittees (FSEs, property owners). A hauler reaches a
customer's permit from the customer's records, not from a permits page of its own."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="permits",
    label="Permits",
    weight=20,
    items=[MenuItem("Permits", "permits:home", roles=STAFF_ROLES | {Role.FSE, Role.PROPERTY_OWNER})],
)
