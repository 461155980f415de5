"""Who may act: the one role check every service and page makes.

Jobs and commands act under a label (fogcontrol.core.actors); they are trusted, and the audit
trail names them. People are checked against their role (a superuser always passes: back-office
repairs). The roles themselves are defined by the accounts app (fogcontrol.core.roles).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied

from fogcontrol.core.actors import is_job


def has_role(acting_user, roles: Iterable[str]) -> bool:
    """True for a job, or a signed-in user with one of `roles`."""
    if is_job(acting_user):
        return True
    return bool(acting_user is not None and acting_user.is_authenticated and acting_user.has_role(*roles))


def require_role(acting_user, roles: Iterable[str], message: str) -> None:
    """Raise PermissionDenied(message) unless a job, or a signed-in user with one of `roles`."""
    if not has_role(acting_user, roles):
        raise PermissionDenied(message)
