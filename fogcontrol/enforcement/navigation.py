"""Enforcement in the main menu: cases and violations for staff and for the FSE (its own), and the
Hearing Officer's work list for the Town's staff."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

OWN = frozenset({Role.FSE, Role.PROPERTY_OWNER})

register(
    group="enforcement",
    label=_("Enforcement"),
    weight=45,
    items=[
        MenuItem(_("Cases"), "enforcement:case_list", roles=STAFF_ROLES | OWN),
        MenuItem(_("Violations"), "enforcement:violation_list", roles=STAFF_ROLES | OWN),
        MenuItem(_("Hearings"), "enforcement:hearing_list", roles=STAFF_ROLES),
        MenuItem(_("Hearing work list"), "enforcement:worklist", roles=STAFF_ROLES),
    ],
)
