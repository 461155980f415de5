"""Signing in in tests: the second factor and fresh authentication, made explicit.

Production code has no way round the second factor. Tests get it in two explicit ways:

- `Client.force_login` (Django's test client, DRF's APIClient, pytest-django's `admin_client`)
  is wrapped by an autouse fixture in the root conftest.py to call `mark_verified` afterwards: a
  forced login stands for "signed in with password and second factor, just now". A test of the
  second factor itself uses `force_login_pending`, which leaves the session owing its code.
- Browser tests sign in through the pages: `give_authenticator(user)` gives the user a confirmed
  authenticator with a known key and `current_code(device)` computes the code a phone would show
  (`fogcontrol.testing.browser.sign_in` does both).
"""

from __future__ import annotations

import time

from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from fogcontrol.accounts.sessions import LAST_ACTIVITY, PENDING, SECOND_FACTOR, VERIFIED
from fogcontrol.core.fresh_auth import AUTHENTICATED_AT

# Django's own force_login, kept before the conftest wraps it.
_django_force_login = Client.force_login
# 20 bytes: a TOTP key of the usual length, the same in every test.
TEST_TOTP_KEY = b"fogcontrol-test-totp".hex()


def _set(client, **values) -> None:
    session = client.session
    for key, value in values.items():
        session[key] = value
    session.save()


def mark_verified(client) -> None:
    """The client's session passed its second factor and authenticated just now."""
    now = time.time()
    _set(client, **{SECOND_FACTOR: VERIFIED, AUTHENTICATED_AT: now, LAST_ACTIVITY: now})


def force_login_verified(client, user, backend=None) -> None:
    _django_force_login(client, user, backend)
    mark_verified(client)


def force_login_pending(client, user) -> None:
    """Signed in with the password only: the session still owes its second factor."""
    _django_force_login(client, user)
    _set(client, **{SECOND_FACTOR: PENDING})


def authenticated_minutes_ago(client, minutes: float) -> None:
    """Pretend the session last proved its user's identity `minutes` ago."""
    _set(client, **{AUTHENTICATED_AT: time.time() - minutes * 60})


def idle_for(client, minutes: float) -> None:
    _set(client, **{LAST_ACTIVITY: time.time() - minutes * 60})


def give_authenticator(user) -> TOTPDevice:
    """A confirmed authenticator with the known test key (made once per user)."""
    device, _ = TOTPDevice.objects.get_or_create(
        user=user, name="Test authenticator", defaults={"key": TEST_TOTP_KEY, "confirmed": True}
    )
    return device


def current_code(device: TOTPDevice, *, step_offset: int = 0) -> str:
    """The code an authenticator app shows now (or `step_offset` steps of 30 s later)."""
    return (
        f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits, drift=step_offset):06d}"
    )


def unused_code(device: TOTPDevice) -> str:
    """A code the device accepts now: the current one, or the next step's if the current step was
    already used (django-otp refuses a code twice, so a test that signs in twice within 30 s
    takes the next step's, which the device's tolerance of one step accepts)."""
    device.refresh_from_db()
    now_step = int(time.time() - device.t0) // device.step
    return current_code(device, step_offset=max(0, device.last_t + 1 - now_step))
