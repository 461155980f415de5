"""Records in the main menu: the FSE's kept records (C2, C4, C5, D7, E9, F2, F3, F6).

Staff and the establishments' own users open the records home; a hauler or recycler sees only the
waste-oil pickups it recorded (C2)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="records",
    label="Records",
    weight=35,
    items=[
        MenuItem("Records", "records:home", roles=STAFF_ROLES | {Role.FSE, Role.PROPERTY_OWNER}),
        MenuItem("Oil pickups", "records:pickups", roles=frozenset({Role.HAULER})),
    ],
)
