"""The accounts app's reads."""

from __future__ import annotations

from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token


def api_token_for(*, user) -> Token | None:
    """The user's API token, if they have one (shown once when issued; only its date after)."""
    return Token.objects.filter(user=user).first()


def second_factor_status(*, user) -> dict:
    """Whether the user has a confirmed authenticator, and how many backup codes are left."""
    return {
        "enrolled": TOTPDevice.objects.filter(user=user, confirmed=True).exists(),
        "backup_codes_left": StaticToken.objects.filter(device__user=user, device__confirmed=True).count(),
    }
