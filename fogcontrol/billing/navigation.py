"""Billing in the menus: the Billing Clerk's work list for staff, each one's accounts for the FSE
and the property owner (Q1, Q2, P9); a section menu across billing's pages for staff."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="billing",
    label=_("Billing"),
    weight=45,
    items=[
        MenuItem(_("Billing"), "billing:worklist", roles=STAFF_ROLES),
        MenuItem(_("Accounts"), "billing:accounts", roles=frozenset({Role.FSE, Role.PROPERTY_OWNER})),
    ],
)

register(
    menu="billing",
    group="billing",
    label=_("Billing"),
    items=[
        MenuItem(_("Work list"), "billing:worklist", roles=STAFF_ROLES),
        MenuItem(_("Accounts"), "billing:accounts", roles=STAFF_ROLES),
        MenuItem(_("Invoices"), "billing:invoices", roles=STAFF_ROLES),
        MenuItem(_("Payments"), "billing:payments", roles=STAFF_ROLES),
        MenuItem(_("Write-offs"), "billing:write_offs", roles=STAFF_ROLES),
        MenuItem(_("Licence holds"), "billing:licence_holds", roles=STAFF_ROLES),
        MenuItem(_("Liens"), "billing:liens", roles=STAFF_ROLES),
        MenuItem(_("Liens to approve"), "billing:lien_approvals", roles=STAFF_ROLES),
        MenuItem(_("Reports"), "billing:report", roles=STAFF_ROLES),
    ],
)
