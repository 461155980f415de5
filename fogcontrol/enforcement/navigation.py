"""Enforcement in the main menu: cases and violations for staff and for the FSE (its own), and the
Hearing Officer's work list for the Town's staff."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role

OWN = frozenset({Role.FSE, Role.PROPERTY_OWNER})

register(
    group="enforcement",
    label="Enforcement",
    weight=45,
    items=[
        MenuItem("Cases", "enforcement:case_list", roles=STAFF_ROLES | OWN),
        MenuItem("Violations", "enforcement:violation_list", roles=STAFF_ROLES | OWN),
        MenuItem("Hearings", "enforcement:hearing_list", roles=STAFF_ROLES),
        MenuItem("Hearing work list", "enforcement:worklist", roles=STAFF_ROLES),
    ],
)
