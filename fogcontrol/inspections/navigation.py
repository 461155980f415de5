"""Inspections and findings in the menus (D1, D4, D8).

Staff open the due list; an establishment's own users (FSE, property owner) its completed
inspections. The section menu (`{% menu "inspections" %}`) adds the staff lists: the due list and
the inspector's day."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

OWNERS = frozenset({Role.FSE, Role.PROPERTY_OWNER})

register(
    group="inspections",
    label=_("Inspections"),
    weight=33,
    items=[
        MenuItem(_("Inspections"), "inspections:due", roles=STAFF_ROLES),
        MenuItem(_("Inspections"), "inspections:list", roles=OWNERS),
    ],
)

register(
    menu="inspections",
    group="inspections",
    label=_("Inspections"),
    items=[
        MenuItem(_("Due for inspection"), "inspections:due", roles=STAFF_ROLES),
        MenuItem(_("My day"), "inspections:day", roles=STAFF_ROLES),
        MenuItem(_("Inspections"), "inspections:list", roles=STAFF_ROLES | OWNERS),
        MenuItem(_("Findings"), "findings:list", roles=STAFF_ROLES | OWNERS),
        MenuItem(_("Compliance charges"), "inspections:charges", roles=STAFF_ROLES | OWNERS),
    ],
)
