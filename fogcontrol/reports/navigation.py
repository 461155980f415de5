"""The map and the annual program report in the main menu, for Town staff (the FOG Manager and every
staff role, read-only staff too); outside users have neither (their pages answer them 404)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES

register(
    group="reports",
    label="Reports",
    weight=60,
    items=[
        MenuItem("Map", "reports:map", roles=STAFF_ROLES),
        MenuItem("Program report", "reports:annual", roles=STAFF_ROLES),
    ],
)
