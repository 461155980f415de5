"""Who may see and change sampling records (docs/architecture.md, "Who may see what").

Staff see every sample, limit and monitoring facility. An FSE user sees those of its own
establishments, a property owner those of the establishments on its parcels; haulers none (404).
"change": the FOG Manager and inspectors (the services check the finer roles: limits and facility
requirements are the FOG Manager's). Custody hand-offs, results and lab reports are seen with
their sample.
"""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.sampling.roles import SAMPLERS


def _scope(user, action, prefix: str = "") -> Q | None:
    if action != VIEW:
        return None if user.has_role(*SAMPLERS) else NOTHING
    if user.is_program_staff:
        return None
    if user.role in (Role.FSE, Role.PROPERTY_OWNER):
        establishments = FoodServiceEstablishment.objects.visible_to(user).values("pk")
        return Q(**{f"{prefix}establishment__in": establishments})
    return NOTHING


class SampleQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _scope(user, action)


class OfSampleQuerySet(ScopedQuerySet):
    """Hand-offs, results and lab reports: seen with their sample."""

    def scope(self, user, action):
        return _scope(user, action, "sample__")


class EstablishmentRecordQuerySet(ScopedQuerySet):
    """Discharge limits and monitoring facilities: seen with their establishment."""

    def scope(self, user, action):
        return _scope(user, action)
