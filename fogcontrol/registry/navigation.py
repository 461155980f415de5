"""The registry's lists in the main menu: Town staff's (an outside user reaches its own records
from its home page)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES

register(
    group="registry",
    label="Registry",
    weight=10,
    items=[
        MenuItem("Establishments", "registry:establishment_list", roles=STAFF_ROLES),
        MenuItem("Devices", "registry:device_list", roles=STAFF_ROLES),
        MenuItem("Parcels", "registry:parcel_list", roles=STAFF_ROLES),
        MenuItem("Contacts", "registry:party_list", roles=STAFF_ROLES),
        MenuItem("Haulers", "registry:hauler_list", roles=STAFF_ROLES),
        MenuItem("Licence imports", "imports:list", roles=STAFF_ROLES),
    ],
)
