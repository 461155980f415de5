"""Who may see and change complaints, penalty orders and terminations (as ``querysets.py``): staff see
all, an FSE user or property owner those of its own establishments' cases; the roles that change them
are in the services."""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.enforcement.querysets import _outside_scope
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, HEARING_RECORDERS


class CaseStepQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*ENFORCEMENT_OFFICERS, *HEARING_RECORDERS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return _outside_scope(user, "case__")
        return NOTHING
