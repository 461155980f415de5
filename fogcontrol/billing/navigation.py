"""Billing in the menus: the Billing Clerk's work list for staff, each one's accounts for the FSE
and the property owner (Q1, Q2, P9); a section menu across billing's pages for staff."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="billing",
    label="Billing",
    weight=45,
    items=[
        MenuItem("Billing", "billing:worklist", roles=STAFF_ROLES),
        MenuItem("Accounts", "billing:accounts", roles=frozenset({Role.FSE, Role.PROPERTY_OWNER})),
    ],
)

register(
    menu="billing",
    group="billing",
    label="Billing",
    items=[
        MenuItem("Work list", "billing:worklist", roles=STAFF_ROLES),
        MenuItem("Accounts", "billing:accounts", roles=STAFF_ROLES),
        MenuItem("Invoices", "billing:invoices", roles=STAFF_ROLES),
        MenuItem("Payments", "billing:payments", roles=STAFF_ROLES),
        MenuItem("Write-offs", "billing:write_offs", roles=STAFF_ROLES),
        MenuItem("Licence holds", "billing:licence_holds", roles=STAFF_ROLES),
        MenuItem("Liens", "billing:liens", roles=STAFF_ROLES),
        MenuItem("Liens to approve", "billing:lien_approvals", roles=STAFF_ROLES),
        MenuItem("Reports", "billing:report", roles=STAFF_ROLES),
    ],
)
