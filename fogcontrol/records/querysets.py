"""Who may see and change an FSE's own records (docs/architecture.md, "Who may see what").

Staff see every record. An FSE user sees the records of its own establishments, a property owner
those of the establishments on its parcels. A hauler user sees only the waste-oil pickups of its own
company (C2: it recorded them, or the FSE named it). "change": an FSE its own establishments'
records (training, pickups, submissions and corrections), a hauler its company's pickups, the FOG
Manager and inspectors all; requirements only the FOG Manager sets (C5, D7, E9, F2, F3, F6).
"""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.records.roles import REQUIREMENT_SETTERS, REVIEWERS
from fogcontrol.registry.models import FoodServiceEstablishment


def _own_establishments(user, field: str) -> Q:
    return Q(**{f"{field}__in": FoodServiceEstablishment.objects.visible_to(user).values("pk")})


class EstablishmentRecordQuerySet(ScopedQuerySet):
    """Records kept by an establishment: staff all; an FSE its own; an owner those on its parcels."""

    establishment_field = "establishment"

    def scope(self, user, action):
        if user.is_program_staff:
            return None if action == VIEW or user.has_role(*REVIEWERS) else NOTHING
        if user.role == Role.FSE or (user.role == Role.PROPERTY_OWNER and action == VIEW):
            return _own_establishments(user, self.establishment_field)
        return NOTHING


class SubmissionQuerySet(EstablishmentRecordQuerySet):
    establishment_field = "requirement__establishment"


class AttendanceQuerySet(EstablishmentRecordQuerySet):
    establishment_field = "session__establishment"


class RequirementQuerySet(EstablishmentRecordQuerySet):
    """Requirements: seen like the records; changed (set, lifted) only by the FOG Manager."""

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*REQUIREMENT_SETTERS) else NOTHING
        return super().scope(user, action)


class OilPickupQuerySet(EstablishmentRecordQuerySet):
    """C2 pickups: also a hauler's own company's pickups (it may record and see them)."""

    def scope(self, user, action):
        if user.role == Role.HAULER:
            return Q(hauler__users=user)
        return super().scope(user, action)
