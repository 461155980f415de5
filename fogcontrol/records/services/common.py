"""What every records service shares: who may keep an establishment's records, and checked uploads."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from fogcontrol.core.actors import is_job
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import FoodServiceEstablishment

# A copy of record's place on its chain, set by record_append after the rest of the row is checked.
CHAIN_FIELDS = [
    "received_at", "submitted_by", "submitted_by_label", "record_sequence", "previous_hash", "record_hash",
]  # fmt: skip


def require_bound(acting_user, establishment: FoodServiceEstablishment, what: str) -> None:
    """An outside user acts only for an establishment it is bound to (staff and jobs for any)."""
    if is_job(acting_user) or acting_user.is_program_staff:
        return
    if acting_user.role in (Role.FSE, Role.HAULER) and (
        FoodServiceEstablishment.objects.visible_to(acting_user).filter(pk=establishment.pk).exists()
    ):
        return
    raise PermissionDenied(f"You may {what} only for your own establishment.")
