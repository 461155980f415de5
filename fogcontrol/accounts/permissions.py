"""Who may act: the one check every service makes before a write.

Jobs and commands act under a label (a string such as "permits_daily" or "seed_demo"); they are
trusted, and the audit trail names them. People are checked against their role.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied


def is_job(acting_user) -> bool:
    return isinstance(acting_user, str)


def person(acting_user):
    """The acting user when it is a person, for foreign keys; None for a job."""
    return None if is_job(acting_user) or acting_user is None else acting_user


def require_role(acting_user, roles: Iterable[str], message: str) -> None:
    """Raise PermissionDenied(message) unless a job, or a signed-in user with one of `roles`
    (a superuser always passes: back-office repairs)."""
    if is_job(acting_user):
        return
    if acting_user is None or not acting_user.is_authenticated or not acting_user.has_role(*roles):
        raise PermissionDenied(message)
