"""Billing in the menus: the Billing Clerk's work list and the lists for staff; an FSE's or owner's
own account statements (Q1, Q2, P9)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="billing",
    label="Billing",
    weight=45,
    items=[
        MenuItem("Billing", "billing:worklist", roles=STAFF_ROLES),
        MenuItem("Accounts", "billing:my_accounts", roles=frozenset({Role.FSE, Role.PROPERTY_OWNER})),
    ],
)
