"""The registry's lists in the main menu: Town staff's (an outside user reaches its own records
from its home page)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES

register(
    group="registry",
    label=_("Registry"),
    weight=10,
    items=[
        MenuItem(_("Establishments"), "registry:establishment_list", roles=STAFF_ROLES),
        MenuItem(_("Devices"), "registry:device_list", roles=STAFF_ROLES),
        MenuItem(_("Parcels"), "registry:parcel_list", roles=STAFF_ROLES),
        MenuItem(_("Contacts"), "registry:party_list", roles=STAFF_ROLES),
        MenuItem(_("Haulers"), "registry:hauler_list", roles=STAFF_ROLES),
        MenuItem(_("Licence imports"), "imports:list", roles=STAFF_ROLES),
    ],
)
