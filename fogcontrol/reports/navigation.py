"""The map and the annual program report in the main menu, for Town staff (the FOG Manager and every
staff role, read-only staff too); outside users have neither (their pages answer them 404)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES

register(
    group="reports",
    label=_("Reports"),
    weight=60,
    items=[
        MenuItem(_("Map"), "reports:map", roles=STAFF_ROLES),
        MenuItem(_("Program report"), "reports:annual", roles=STAFF_ROLES),
    ],
)
