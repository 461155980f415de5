"""Who may see and change findings (docs/architecture.md, "Who may see what").

Staff see every finding. An FSE user sees the findings of its own establishments, a property owner
those of the establishments on its parcels (a finding is made only when its inspection is completed,
so no draft shows through it). Haulers see none. "change" (close a finding): the FOG Manager and
inspectors.
"""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.findings.roles import FINDING_RECORDERS
from fogcontrol.registry.models import FoodServiceEstablishment


class FindingQuerySet(ScopedQuerySet):
    def open(self):
        """Findings not yet closed."""
        return self.filter(closed_on__isnull=True)

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*FINDING_RECORDERS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return Q(establishment__in=FoodServiceEstablishment.objects.visible_to(user).values("pk"))
        return NOTHING
