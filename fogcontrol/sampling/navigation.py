"""Sampling in the menus (D5, D7): the samples list, the discharge limits and the monitoring
facilities, in the inspections section menu. Staff and the establishment's own users (FSE,
property owner) see them; haulers do not."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

OWNERS = frozenset({Role.FSE, Role.PROPERTY_OWNER})

register(
    menu="inspections",
    group="sampling",
    label="Sampling",
    weight=60,
    items=[
        MenuItem("Samples", "sampling:list", roles=STAFF_ROLES | OWNERS),
        MenuItem("Discharge limits", "sampling:limits", roles=STAFF_ROLES | OWNERS),
        MenuItem("Monitoring facilities", "sampling:facilities", roles=STAFF_ROLES | OWNERS),
    ],
)
