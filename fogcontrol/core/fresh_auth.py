"""Fresh authentication for signing on a party's behalf.

When Town staff sign a submission for a party (a manifest certified for a hauler or an FSE in
servicing, an application submitted for an FSE in permits), the signature must come from the
person at the keyboard now, not from a session left open on a shared desk. So the staff user
must have authenticated (password or second factor) within `FOGCONTROL_FRESH_AUTH_MINUTES`.

- The moment is kept in the session (`AUTHENTICATED_AT`): set at sign-in, at the second-factor
  check and on the re-authentication page (`/account/confirm/`, fogcontrol/accounts).
- Pages: `reauthenticate_or_none(request)` returns a redirect to the re-authentication page (the
  form's input is kept in the session and given back by `restored_form_data` when the person
  returns, so nothing typed is lost), or None when the user may sign.
- API: `require_fresh_authentication(request)` raises `FreshAuthenticationRequired` (403,
  "fresh authentication required"). A session that signed in recently passes; a program using a
  token proves it with a current one-time code in the `X-OTP-Token` header (authenticator or
  backup code), checked against the user's confirmed devices and then spent.

Outside users signing for themselves are not asked: they sign their own submission.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils.http import urlencode
from django_otp import devices_for_user
from django_otp.plugins.otp_totp.models import TOTPDevice

AUTHENTICATED_AT = "fogcontrol_authenticated_at"
_STASH = "fogcontrol_reauth_stash"
OTP_HEADER = "HTTP_X_OTP_TOKEN"
MESSAGE = (
    "fresh authentication required: signing on a party's behalf needs a password or one-time "
    "code given within the last {minutes} minutes. Confirm it on the site (/account/confirm/), or "
    "send a current authenticator code in the X-OTP-Token header."
)


class FreshAuthenticationRequired(PermissionDenied):
    """403: a staff user must authenticate again before signing for a party."""

    def __init__(self):
        super().__init__(MESSAGE.format(minutes=fresh_minutes()))


def fresh_minutes() -> int:
    return settings.FOGCONTROL_FRESH_AUTH_MINUTES


def note_authentication(request) -> None:
    """The user has just proved who they are (password, second factor or re-authentication)."""
    request.session[AUTHENTICATED_AT] = time.time()


def authenticated_recently(request) -> bool:
    session = getattr(request, "session", None)
    at = session.get(AUTHENTICATED_AT) if session is not None else None
    return at is not None and time.time() - float(at) <= fresh_minutes() * 60


def signs_for_a_party(user) -> bool:
    """Town staff never sign for themselves: whatever they certify or submit is for a party."""
    return bool(user is not None and user.is_authenticated and user.is_program_staff)


def verify_one_time_code(user, code: str):
    """The user's confirmed device that accepts `code` (and spends it), or None.

    Six digits go to the authenticator devices, anything else to the backup codes, so that a
    code of one kind never counts as a failure (and a throttling delay) against the other.
    """
    code = "".join((code or "").split()).replace("-", "").lower()
    if not code:
        return None
    totp = len(code) == 6 and code.isdigit()
    with transaction.atomic():
        # select_for_update: two requests cannot spend the same code.
        for device in devices_for_user(user, for_verify=True):
            if isinstance(device, TOTPDevice) == totp and device.verify_token(code):
                return device
    return None


def _one_time_code_verifies(request, user) -> bool:
    return verify_one_time_code(user, request.META.get(OTP_HEADER, "")) is not None


def require_fresh_authentication(request) -> None:
    """For the API: raise FreshAuthenticationRequired unless a staff user authenticated recently."""
    user = request.user
    if not signs_for_a_party(user) or authenticated_recently(request):
        return
    if _one_time_code_verifies(request, user):
        return
    raise FreshAuthenticationRequired()


def reauthenticate_or_none(request, *, back: str | None = None) -> HttpResponseRedirect | None:
    """For pages: None when the user may sign now; else a redirect to the re-authentication page,
    which returns to `back` (the form's own address by default), keeping what the form posted so
    that `restored_form_data` gives it back there."""
    if not signs_for_a_party(request.user) or authenticated_recently(request):
        return None
    back = back or request.get_full_path()
    data = {key: request.POST.getlist(key) for key in request.POST if key != "csrfmiddlewaretoken"}
    if request.method == "POST" and (data or request.FILES):
        request.session[_STASH] = {"path": back, "data": data, "had_files": bool(request.FILES)}
    return HttpResponseRedirect(f"{reverse('accounts:reauthenticate')}?{urlencode({'next': back})}")


def restored_form_data(request) -> tuple[QueryDict | None, bool]:
    """What the form posted before re-authentication, once, for the page it came from; and whether
    files were attached (a browser cannot be given files back: the page asks for them again)."""
    stash = request.session.get(_STASH)
    if not stash or stash.get("path") != request.get_full_path():
        return None, False
    del request.session[_STASH]
    data = QueryDict(mutable=True)
    for key, values in stash["data"].items():
        data.setlist(key, values)
    return data, bool(stash.get("had_files"))
