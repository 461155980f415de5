"""Passwords and deactivation, each audited (never with a password or its hash)."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from fogcontrol.accounts.sessions import end_sessions
from fogcontrol.audit.services import audit_record
from fogcontrol.core.languages import Language
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role

# Who may deactivate someone else's account (the admin's superusers pass every role check).
DEACTIVATORS = frozenset({Role.FOG_MANAGER})


@transaction.atomic
def password_set(*, user, new_password: str, acting_user, how: str) -> None:
    """Set a new password (checked against AUTH_PASSWORD_VALIDATORS). `how` is "change" (the
    user, signed in, gave the old one) or "reset" (through the emailed link).

    Django's sessions carry a hash of the password, so every other session of the user ends with
    the change; after a reset the user's recorded sessions are also ended outright.
    """
    try:
        validate_password(new_password, user)
    except ValidationError as error:
        raise ValidationError({"new_password1": error.messages}) from error
    user.set_password(new_password)
    user.save(update_fields=["password"])
    ended = end_sessions(user) if how == "reset" else 0
    audit_record(
        acting_user=acting_user,
        action=f"password.{how}",
        instance=user,
        after={"sessions_ended": ended} if ended else None,
        note="Password changed by its user." if how == "change" else "Password reset by emailed link.",
    )


@transaction.atomic
def user_deactivate(*, user, acting_user, reason: str = "") -> dict:
    """Deactivate an account: it can no longer sign in, every session it has ends at once, and
    its API token is revoked. Running it on an inactive account still ends what is left."""
    if acting_user != user:
        require_role(acting_user, DEACTIVATORS, "Only the FOG Manager may deactivate an account.")
    was_active = user.is_active
    if was_active:
        user.is_active = False
        user.save(update_fields=["is_active"])
    sessions = end_sessions(user)
    tokens, _ = Token.objects.filter(user=user).delete()
    audit_record(
        acting_user=acting_user,
        action="user.deactivate",
        instance=user,
        before={"is_active": was_active},
        after={"is_active": False, "sessions_ended": sessions, "api_token_revoked": bool(tokens)},
        note=reason or "Account deactivated.",
    )
    return {"sessions_ended": sessions, "api_token_revoked": bool(tokens)}


@transaction.atomic
def user_language_set(*, user, language: str, acting_user) -> None:
    """The language the program's e-mails to ``user`` are written in (their own choice, or the FOG
    Manager's)."""
    if acting_user != user:
        require_role(acting_user, DEACTIVATORS, "Only the FOG Manager changes another user's language.")
    if language not in Language.values:
        raise ValidationError({"preferred_language": _("Choose English or Spanish.")})
    before = user.preferred_language
    if before == language:
        return
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    audit_record(
        acting_user=acting_user,
        action="user.language",
        instance=user,
        before={"preferred_language": before},
        after={"preferred_language": language},
    )
