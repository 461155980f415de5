"""Who may see and change spills (docs/architecture.md, "Who may see what").

Staff see every spill, report and cost. An FSE user sees the spills linked to its establishments
and its own spill reports; a property owner those of the FSEs on its parcels; a hauler nothing.
"change": spills and costs the FOG Manager and inspectors; a spill report also the FSE that made it
(its written report, J2). Costs, agencies and imports are Town business: staff only.
"""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.spills.roles import REPORTERS, SPILL_RECORDERS


def _own(user, field: str) -> Q:
    return Q(**{f"{field}__in": FoodServiceEstablishment.objects.visible_to(user).values("pk")})


class StaffOnlyQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if user.is_program_staff:
            return None if action == VIEW or user.has_role(*SPILL_RECORDERS) else NOTHING
        return NOTHING


class CostQuerySet(StaffOnlyQuerySet):
    def owed(self):
        return self.filter(status="owed")


class SpillQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if user.is_program_staff:
            return None if action == VIEW or user.has_role(*SPILL_RECORDERS) else NOTHING
        if action == VIEW and user.role in (Role.FSE, Role.PROPERTY_OWNER):
            # Distinct ids: a spill linked to two of the user's establishments is one spill.
            from_links = FoodServiceEstablishment.objects.visible_to(user).values("spill_links__spill")
            return Q(pk__in=from_links)
        return NOTHING


class ReportQuerySet(ScopedQuerySet):
    establishment_field = "establishment"

    def scope(self, user, action):
        if user.is_program_staff:
            return None if action == VIEW or user.has_role(*REPORTERS) else NOTHING
        if user.role == Role.FSE or (user.role == Role.PROPERTY_OWNER and action == VIEW):
            return _own(user, self.establishment_field)
        return NOTHING


class WrittenReportQuerySet(ReportQuerySet):
    establishment_field = "report__establishment"


class PhotoQuerySet(ScopedQuerySet):
    """A spill's photos: seen by whoever sees the spill; added by the FOG Manager and inspectors."""

    def scope(self, user, action):
        if action != VIEW:
            return None if user.is_program_staff and user.has_role(*SPILL_RECORDERS) else NOTHING
        spill_scope = SpillQuerySet.scope(self, user, action)
        if spill_scope is None:
            return None
        if spill_scope is NOTHING:
            return NOTHING
        from_links = FoodServiceEstablishment.objects.visible_to(user).values("spill_links__spill")
        return Q(spill__in=from_links)
