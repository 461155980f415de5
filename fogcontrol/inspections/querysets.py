"""Who may see and change inspections (docs/architecture.md, "Who may see what").

Staff see every inspection. An FSE user sees the completed inspections of its own establishments,
a property owner those of the establishments on its parcels: never a draft, never a cancelled
visit, never another FSE's (404). Haulers see none. "change": the FOG Manager and inspectors. A
device assessment and a photo are seen with their inspection.
"""

from __future__ import annotations

from django.apps import apps
from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.inspections.roles import INSPECTORS
from fogcontrol.registry.models import FoodServiceEstablishment


def _completed_of_visible_establishments(user, prefix: str = "") -> Q:
    completed = apps.get_model("inspections", "Inspection").Status.COMPLETED
    establishments = FoodServiceEstablishment.objects.visible_to(user).values("pk")
    return Q(**{f"{prefix}status": completed, f"{prefix}establishment__in": establishments})


def _scope(user, action, prefix: str = "") -> Q | None:
    if action != VIEW:
        return None if user.has_role(*INSPECTORS) else NOTHING
    if user.is_program_staff:
        return None
    if user.role in (Role.FSE, Role.PROPERTY_OWNER):
        return _completed_of_visible_establishments(user, prefix)
    return NOTHING


class InspectionQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _scope(user, action)


class DeviceAssessmentQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _scope(user, action, "inspection__")


class InspectionPhotoQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _scope(user, action, "inspection__")


class ComplianceChargeQuerySet(ScopedQuerySet):
    """D6 charges: staff see all; an FSE (and a property owner) those of its establishments, drafts
    or not (a charge has no draft); "change" (record, cancel): the FOG Manager and inspectors."""

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*INSPECTORS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return Q(establishment__in=FoodServiceEstablishment.objects.visible_to(user).values("pk"))
        return NOTHING
