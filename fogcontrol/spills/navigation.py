"""Spills in the main menu: staff see every overflow; an FSE and a property owner the spills linked
to their establishments and their spill reports (J1)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="spills",
    label="Spills",
    weight=37,
    items=[
        MenuItem("Spills", "spills:list", roles=STAFF_ROLES),
        MenuItem("Spill reports", "spills:reports", roles=frozenset({Role.FSE, Role.PROPERTY_OWNER})),
    ],
)
