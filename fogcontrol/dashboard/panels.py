"""Which panels of the "today" dashboard each staff role sees (issue #17).

The FOG Manager sees every panel; an inspector the field work (servicing, permits, its own
inspections, spills); the Hearing Officer the cases and hearings; the Billing Clerk the money;
read-only staff every panel, without the work queues' actions. Outside users have no dashboard.
"""

from __future__ import annotations

from fogcontrol.core.roles import Role

SERVICING = "servicing"
PERMITS = "permits"
INSPECTIONS = "inspections"
ENFORCEMENT = "enforcement"
MONEY = "money"
SPILLS = "spills"
ALL_PANELS = (SERVICING, PERMITS, INSPECTIONS, ENFORCEMENT, MONEY, SPILLS)

PANELS_BY_ROLE: dict[str, tuple[str, ...]] = {
    Role.FOG_MANAGER: ALL_PANELS,
    Role.STAFF_READONLY: ALL_PANELS,
    Role.INSPECTOR: (SERVICING, PERMITS, INSPECTIONS, SPILLS),
    Role.HEARING_OFFICER: (ENFORCEMENT,),
    Role.BILLING_CLERK: (MONEY,),
}


def panels_for(user) -> tuple[str, ...]:
    """The panels `user` sees, in the page's order (none for an outside user)."""
    if not getattr(user, "is_program_staff", False):
        return ()
    return PANELS_BY_ROLE.get(user.role, ())


def own_inspections_only(user) -> bool:
    """An inspector's inspection figures count the inspections assigned to it."""
    return user.role == Role.INSPECTOR
