"""Who may see billing's records (docs/architecture.md, "Who may see what").

Staff see every account. An FSE user sees the account of its own establishments; a property owner
those of the establishments on its parcels and its own account as a party (the owner of record).
Haulers see none. "change": the Billing Clerk and the FOG Manager (the services check each step).
Liens are staff's.
"""

from __future__ import annotations

from django.apps import apps
from django.db.models import Q

from fogcontrol.billing.roles import BILLERS
from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet


def _debtor_scope(user, prefix: str = "") -> Q | None:
    if user.is_program_staff:
        return None
    establishments = apps.get_model("registry", "FoodServiceEstablishment").objects.visible_to(user)
    if user.role == Role.FSE:
        return Q(**{f"{prefix}establishment__in": establishments.values("pk")})
    if user.role == Role.PROPERTY_OWNER:
        return Q(**{f"{prefix}establishment__in": establishments.values("pk")}) | Q(
            **{f"{prefix}party__owned_parcels__owner_users": user}
        )
    return NOTHING


def _change(user) -> Q | None:
    return None if user.has_role(*BILLERS) else NOTHING


class DebtorQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return _change(user)
        return _debtor_scope(user)


class DebtorRecordQuerySet(ScopedQuerySet):
    """A record of one debtor's account (charge, invoice, payment, entry): seen with the account."""

    def scope(self, user, action):
        if action != VIEW:
            return _change(user)
        return _debtor_scope(user, "debtor__")


class InvoiceQuerySet(DebtorRecordQuerySet):
    pass


class StaffRecordQuerySet(ScopedQuerySet):
    """Staff's own records (write-off requests, liens): outside users are told they do not exist."""

    def scope(self, user, action):
        if action != VIEW:
            return _change(user)
        return None if user.is_program_staff else NOTHING
