"""API tokens, one per user, issued, rotated and revoked on request, each change audited.

A token is a password for programs: anyone holding it acts as its user. Rotating it makes the
old one useless at once. The audit entry records that a token was issued, never its value.
"""

from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token

from fogcontrol.audit.services import audit_record


@transaction.atomic
def api_token_get_or_create(*, user, acting_user) -> tuple[Token, bool]:
    """The user's token, issuing one if they have none (POST /api/v1/auth/token/)."""
    token, created = Token.objects.get_or_create(user=user)
    if created:
        audit_record(
            acting_user=acting_user,
            action="api_token.create",
            instance=user,
            after={"token_created": token.created.isoformat()},
            note="API token issued.",
        )
    return token, created


@transaction.atomic
def api_token_rotate(*, user, acting_user) -> Token:
    """A new token for the user; the old one (if any) stops working at once."""
    old = Token.objects.filter(user=user).first()
    before = {"token_created": old.created.isoformat()} if old else None
    if old is not None:
        old.delete()
    token = Token.objects.create(user=user)
    audit_record(
        acting_user=acting_user,
        action="api_token.rotate" if old else "api_token.create",
        instance=user,
        before=before,
        after={"token_created": token.created.isoformat()},
        note="API token replaced; the old one no longer works." if old else "API token issued.",
    )
    return token


@transaction.atomic
def api_token_revoke(*, user, acting_user) -> bool:
    """Remove the user's token; False if they had none."""
    old = Token.objects.filter(user=user).first()
    if old is None:
        return False
    before = {"token_created": old.created.isoformat()}
    old.delete()
    audit_record(
        acting_user=acting_user,
        action="api_token.revoke",
        instance=user,
        before=before,
        note="API token revoked.",
    )
    return True
