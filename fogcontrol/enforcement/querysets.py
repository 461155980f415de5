"""Who may see and change enforcement records (docs/architecture.md, "Who may see what").

Staff see every violation, case and hearing. An FSE user sees those of its own establishments, a
property owner the violations it answers for (A2) and the cases of the establishments on its parcels.
Haulers see none. "change": the roles in ``roles.py``.
"""

from __future__ import annotations

from django.db.models import Case as SqlCase
from django.db.models import CharField, Exists, OuterRef, Q, Value, When
from django.utils.translation import gettext_lazy as _

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


# How far a case has gone: the furthest step recorded on it, furthest first. Each names the
# related records that mark it (the steps' models point at the case with these related names).
CASE_STAGES = (
    ("penalty", _("Penalty order (P7)"), "penalty_orders"),
    ("complaint", _("Administrative complaint (P5)"), "complaints"),
    ("agreement", _("Compliance schedule agreement (H1)"), "agreements"),
    ("citation", _("Administrative citation (P2)"), "citations"),
    ("notice", _("Notice of violation"), "notices_of_violation"),
)
CASE_STAGE_OPENED = ("opened", _("Opened, no step yet"))
CASE_STAGE_CHOICES = [(key, label) for key, label, _related in CASE_STAGES] + [CASE_STAGE_OPENED]


class CaseQuerySet(ScopedQuerySet):
    def open(self):
        return self.filter(closed_on__isnull=True)

    def with_stage(self):
        """Each case with ``stage``: the furthest step recorded on it (CASE_STAGES), in the query."""
        model = self.model
        whens = []
        for key, _label, related in CASE_STAGES:
            field = model._meta.get_field(related)
            marks = field.related_model._base_manager.filter(**{field.field.name: OuterRef("pk")})
            whens.append(When(Exists(marks), then=Value(key)))
        return self.annotate(
            stage=SqlCase(*whens, default=Value(CASE_STAGE_OPENED[0]), output_field=CharField())
        )

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
