"""The accounts app's reads."""

from __future__ import annotations

from rest_framework.authtoken.models import Token


def api_token_for(*, user) -> Token | None:
    """The user's API token, if they have one (shown once when issued; only its date after)."""
    return Token.objects.filter(user=user).first()
