"""What a signed-in session carries: its second-factor state, when its user last authenticated,
when it was last used; and the list of a user's sessions, so that all of them can be ended.

Everything is kept in the session (stored server-side), so the middleware reads it without a
query. Policy (docs/security.md):

- Staff roles must pass a second factor in every session; an outside user who set one up must too.
  Until then the session is "pending" and reaches only the verification pages and sign-out.
- Signing in (any path: the sign-in page, the admin's, a test's forced login) gives a new session
  key (Django's `login()` cycles it), records the session against its user and notes the moment
  of authentication (fogcontrol/core/fresh_auth.py). Passing the second factor cycles the key again.
- A session idle longer than its user's limit is ended by the middleware.
"""

from __future__ import annotations

import time
from importlib import import_module

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django_otp import DEVICE_ID_SESSION_KEY, user_has_device

from fogcontrol.accounts.models import UserSession
from fogcontrol.core.fresh_auth import note_authentication

SECOND_FACTOR = "fogcontrol_second_factor"
PENDING = "pending"
VERIFIED = "verified"
NOT_REQUIRED = "not_required"
LAST_ACTIVITY = "fogcontrol_last_activity"
# The last activity is written at most this often: a session save on every request buys nothing.
ACTIVITY_RESOLUTION_SECONDS = 60


def second_factor_required(user) -> bool:
    """Staff always; an outside user once they have set up a second factor (optional for them)."""
    return user.is_program_staff or user_has_device(user)


def second_factor_pending(request) -> bool:
    """True while a signed-in session still owes its second factor.

    A session with no state (signed in before this policy, or by a path that skipped the signal)
    is pending for staff, and not for others: it fails closed where the factor is required.
    """
    user = request.user
    if not user.is_authenticated:
        return False
    state = request.session.get(SECOND_FACTOR)
    if state is None:
        return user.is_program_staff
    return state == PENDING


def mark_second_factor_passed(request, device) -> None:
    """The user gave a code from `device`: a new session key (the session gained privilege), the
    device kept in the session as django-otp does, and a fresh authentication noted."""
    old_key = request.session.session_key
    request.session.cycle_key()
    UserSession.objects.filter(session_key=old_key).update(session_key=request.session.session_key)
    request.session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    request.session[SECOND_FACTOR] = VERIFIED
    note_authentication(request)
    touch(request, force=True)


def idle_limit_minutes(user) -> int:
    if user.is_program_staff:
        return settings.FOGCONTROL_IDLE_MINUTES_STAFF
    return settings.FOGCONTROL_IDLE_MINUTES


def idle_too_long(request) -> bool:
    last = request.session.get(LAST_ACTIVITY)
    return last is not None and time.time() - float(last) > idle_limit_minutes(request.user) * 60


def touch(request, *, force: bool = False) -> None:
    last = request.session.get(LAST_ACTIVITY)
    now = time.time()
    if force or last is None or now - float(last) >= ACTIVITY_RESOLUTION_SECONDS:
        request.session[LAST_ACTIVITY] = now


def end_sessions(user) -> int:
    """End every session the user signed in with (deactivation, a password reset)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    keys = list(UserSession.objects.filter(user=user).values_list("session_key", flat=True))
    for key in keys:
        store(session_key=key).delete()
    UserSession.objects.filter(user=user).delete()
    return len(keys)


# Signal receivers: `user_logged_in` is the one hook every sign-in path passes (the sign-in page,
# the admin's sign-in, the test client's forced login), so the bookkeeping lives here rather than
# in one view that another path would skip.


def _on_sign_in(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
    if request.session.session_key is None:
        request.session.save()
    UserSession.objects.update_or_create(session_key=request.session.session_key, defaults={"user": user})
    request.session[SECOND_FACTOR] = PENDING if second_factor_required(user) else NOT_REQUIRED
    note_authentication(request)
    touch(request, force=True)


def _on_sign_out(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session") and request.session.session_key:
        UserSession.objects.filter(session_key=request.session.session_key).delete()


def connect() -> None:
    user_logged_in.connect(_on_sign_in, dispatch_uid="fogcontrol.accounts.sign_in")
    user_logged_out.connect(_on_sign_out, dispatch_uid="fogcontrol.accounts.sign_out")
