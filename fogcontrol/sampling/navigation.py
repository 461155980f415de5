"""Sampling in the menus (D5, D7): the samples list, the discharge limits and the monitoring
facilities, in the inspections section menu. Staff and the establishment's own users (FSE,
property owner) see them; haulers do not."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

OWNERS = frozenset({Role.FSE, Role.PROPERTY_OWNER})

register(
    menu="inspections",
    group="sampling",
    label=_("Sampling"),
    weight=60,
    items=[
        MenuItem(_("Samples"), "sampling:list", roles=STAFF_ROLES | OWNERS),
        MenuItem(_("Discharge limits"), "sampling:limits", roles=STAFF_ROLES | OWNERS),
        MenuItem(_("Monitoring facilities"), "sampling:facilities", roles=STAFF_ROLES | OWNERS),
    ],
)
