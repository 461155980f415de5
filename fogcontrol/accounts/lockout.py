"""Password guessing: django-axes, keyed on the username together with the client's real address.

Policy (docs/security.md): after `AXES_FAILURE_LIMIT` wrong passwords for one username from one
address, that username is refused from that address for `AXES_COOLOFF_TIME`, whatever the
password, on the sign-in page and the token endpoint alike. The same person signing in from
another address is not locked out, so nobody can lock a real user out by guessing at their name,
and nobody can lock out a shared address (an office behind one NAT) by guessing at random names.

The address is REMOTE_ADDR, unless `FOGCONTROL_TRUSTED_PROXIES` says how many reverse proxies
of ours stand in front: then it is the entry that many places from the right of
X-Forwarded-For (each proxy appends the address it was called from), never an entry the client
could have written itself.
"""

from __future__ import annotations

import datetime as dt
import math

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone


def client_ip(request) -> str | None:
    """The address a request came from, as the configured number of trusted proxies defines it."""
    meta = request.META
    proxies = settings.FOGCONTROL_TRUSTED_PROXIES
    if proxies > 0:
        hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return meta.get("REMOTE_ADDR")


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a locked-out username and address before any password is checked.

    A call without a request (a shell, a management command, the test client's `login`) is not a
    sign-in from the network: there is no address to count, so it is left to the next backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_minutes(request=None) -> int:
    cool_off = get_cool_off(request)
    return max(1, math.ceil(cool_off.total_seconds() / 60)) if cool_off else 0


def lockout_message(request=None) -> str:
    minutes = lockout_minutes(request)
    return (
        f"Too many wrong passwords for this username from your address: signing in is locked for "
        f"{minutes} minutes. Wait, then try again; if you forgot your password, ask the FOG Manager."
    )


def lockout_response(request, original_response=None, credentials=None):
    """What a locked-out sign-in gets: a 429 JSON answer from the API, a page in the site's frame."""
    status = settings.AXES_HTTP_RESPONSE_CODE
    minutes = lockout_minutes(request)
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": lockout_message(request), "locked_minutes": minutes},
            status=status,
            headers={"Retry-After": str(minutes * 60)},
        )
    until = timezone.localtime() + (get_cool_off(request) or dt.timedelta())
    response = render(
        request,
        "registration/locked_out.html",
        {"locked_minutes": minutes, "locked_until": until, "message": lockout_message(request)},
        status=status,
    )
    response["Retry-After"] = str(minutes * 60)
    return response
