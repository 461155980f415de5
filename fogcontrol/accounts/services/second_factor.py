"""The second factor: an authenticator app (TOTP, RFC 6238) and a set of single-use backup codes.

Enrolment has two steps: `second_factor_start` makes an unconfirmed authenticator device (its
secret is shown once, as text and a QR code), and `second_factor_confirm` confirms it with a code
from the app and issues the backup codes. The codes are returned to be shown once; each works
once (django-otp deletes a backup code when it is used). The audit trail records that a factor
was set up or the codes replaced, never a secret or a code.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from fogcontrol.audit.services import audit_record

AUTHENTICATOR_NAME = "Authenticator app"
BACKUP_NAME = "Backup codes"
BACKUP_CODE_COUNT = 10


@transaction.atomic
def second_factor_start(*, user, acting_user) -> TOTPDevice:
    """The user's unconfirmed authenticator device, made if there is none (reloading the page
    keeps the same secret, so a code from an app set up a moment ago still works)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_NAME, confirmed=False)
    return device


def _new_backup_codes(user) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=BACKUP_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(BACKUP_CODE_COUNT)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=code) for code in codes])
    return codes


@transaction.atomic
def second_factor_confirm(*, user, device: TOTPDevice, code: str, acting_user) -> list[str]:
    """Confirm the authenticator with a code from it; return the new backup codes (show them once).

    Any other authenticator device of the user is removed: one app at a time.
    """
    device = TOTPDevice.objects.select_for_update().get(pk=device.pk, user=user)
    if not device.verify_token("".join((code or "").split())):
        raise ValidationError(
            {
                "code": _(
                    "That code does not match. Type the 6 digits your app shows now (they change every 30 seconds)."
                )
            }
        )
    TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    codes = _new_backup_codes(user)
    audit_record(
        acting_user=acting_user,
        action="second_factor.enrol",
        instance=user,
        after={"authenticator": device.name, "backup_codes": len(codes)},
        note="Second factor set up: an authenticator app and backup codes.",
    )
    return codes


@transaction.atomic
def backup_codes_replace(*, user, acting_user) -> list[str]:
    """New backup codes for a user with a confirmed authenticator; the old ones stop working."""
    if not TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise ValidationError({"code": _("Set up an authenticator app first.")})
    codes = _new_backup_codes(user)
    audit_record(
        acting_user=acting_user,
        action="second_factor.backup_codes",
        instance=user,
        after={"backup_codes": len(codes)},
        note="New backup codes issued; the old ones no longer work.",
    )
    return codes
