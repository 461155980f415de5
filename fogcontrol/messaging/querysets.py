"""Who may see messages and invitations: Town staff (every one); outside users none (404)."""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.scoping import NOTHING, ScopedQuerySet, is_program_staff


class _StaffOnly(ScopedQuerySet):
    def scope(self, user, action: str) -> Q | None:
        return None if is_program_staff(user) else NOTHING


class MessageQuerySet(_StaffOnly):
    """Sent e-mail: the Town's outbox, for its staff."""


class InvitationQuerySet(_StaffOnly):
    """Invitations: the FOG Manager's, read by all staff."""
