"""Who may see and change complaints, penalty orders and terminations (as ``querysets.py``): staff see
all, an FSE user or property owner those of its own establishments' cases; the roles that change them
are in the services."""

from __future__ import annotations

from django.db.models import Q

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


# A penalty order not issued: a proposal waiting for its second approval, or one refused there
# (two-person rule). ``PenaltyOrder.NOT_ISSUED`` is this tuple; it lives here for the scope below.
PENALTY_NOT_ISSUED = ("proposed", "refused")


class PenaltyOrderQuerySet(CaseStepQuerySet):
    """As every step of a case, except that a proposal (or a refused one) is the Town's internal
    business: an FSE or property owner sees an order only once it is issued (two-person rule)."""

    def scope(self, user, action):
        condition = super().scope(user, action)
        if condition is not None and action == VIEW and user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return condition & ~Q(status__in=PENALTY_NOT_ISSUED)
        return condition
