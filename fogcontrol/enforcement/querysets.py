"""Who may see and change enforcement records (docs/architecture.md, "Who may see what").

Staff see every violation, case and hearing. An FSE user sees those of its own establishments, a
property owner the violations it answers for (A2) and the cases of the establishments on its parcels.
Haulers see none. "change": the roles in ``roles.py``.
"""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, HEARING_RECORDERS
from fogcontrol.registry.models import FoodServiceEstablishment


def _outside_scope(user, prefix: str) -> Q:
    return Q(**{f"{prefix}establishment__in": FoodServiceEstablishment.objects.visible_to(user).values("pk")})


class ViolationQuerySet(ScopedQuerySet):
    def open(self):
        """Violations not yet cured."""
        return self.filter(cured_on__isnull=True)

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*ENFORCEMENT_OFFICERS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return _outside_scope(user, "")
        return NOTHING


class CaseQuerySet(ScopedQuerySet):
    def open(self):
        return self.filter(closed_on__isnull=True)

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*ENFORCEMENT_OFFICERS, *HEARING_RECORDERS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return _outside_scope(user, "")
        return NOTHING


class HearingQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*HEARING_RECORDERS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return _outside_scope(user, "case__")
        return NOTHING
