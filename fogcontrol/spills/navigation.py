"""Spills in the main menu: staff see every overflow; an FSE and a property owner the spills linked
to their establishments and their spill reports (J1)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

register(
    group="spills",
    label=_("Spills"),
    weight=37,
    items=[
        MenuItem(_("Spills"), "spills:list", roles=STAFF_ROLES),
        MenuItem(_("Spill reports"), "spills:reports", roles=frozenset({Role.FSE, Role.PROPERTY_OWNER})),
    ],
)
