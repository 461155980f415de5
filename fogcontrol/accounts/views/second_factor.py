"""The second factor's pages: set it up, give a code at sign-in, replace the backup codes, and
confirm who you are before signing for a party (fogcontrol/core/fresh_auth.py)."""

from __future__ import annotations

from base64 import b32encode

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_otp import user_has_device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from fogcontrol.accounts import sessions
from fogcontrol.accounts.forms import CodeForm, EnrolForm, ReauthenticateForm
from fogcontrol.accounts.lockout import lockout_response
from fogcontrol.accounts.services import backup_codes_replace, second_factor_confirm, second_factor_start
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.fresh_auth import fresh_minutes, note_authentication, verify_one_time_code


def _next(request, default: str = "home") -> str:
    """Where to go afterwards: the `next` the page was given, if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def _with_next(name: str, request) -> str:
    target = _next(request, "")
    url = reverse(name)
    return f"{url}?{urlencode({'next': target})}" if target else url


def _throttled(user) -> bool:
    """django-otp doubles the wait after each wrong code (1, 2, 4, ... seconds)."""
    return any(
        not device.verify_is_allowed()[0] for device in TOTPDevice.objects.filter(user=user, confirmed=True)
    )


@login_required
def verify(request):
    """The second step of signing in: a code from the authenticator app, or a backup code."""
    user = request.user
    if not sessions.second_factor_pending(request):
        return redirect(_next(request))
    if not user_has_device(user):
        return redirect(_with_next("accounts:two-factor-enrol", request))
    form = CodeForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        # django-otp doubles the wait after each wrong code; a code given too soon is not tried.
        throttled = _throttled(user)
        device = None if throttled else verify_one_time_code(user, form.cleaned_data["code"])
        if device is not None:
            sessions.mark_second_factor_passed(request, device)
            if isinstance(device, StaticDevice):
                left = StaticToken.objects.filter(device__user=user).count()
                messages.warning(
                    request,
                    f"You used a backup code; {left} left. Each works once: make new ones on your account page.",
                )
            return redirect(_next(request))
        status = 400
        if throttled:
            form.add_error(
                "code", "Too many wrong codes: wait a few seconds, then type the code your app shows now."
            )
        else:
            form.add_error(
                "code", "That code does not match. Type the 6 digits your app shows now, or a backup code."
            )
    return render(
        request, "accounts/two_factor_verify.html", {"form": form, "next": _next(request, "")}, status=status
    )


def _qr_svg(device: TOTPDevice) -> str:
    # An inline SVG: no image request, nothing fetched from elsewhere.
    return segno.make(device.config_url, error="m").svg_inline(scale=4, dark="#1f2933", light="#ffffff")


@login_required
def enrol(request):
    """Set up the second factor: show the secret (text and QR code), confirm a code from the app,
    then show the backup codes once."""
    user = request.user
    pending = sessions.second_factor_pending(request)
    if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        if pending:
            return redirect(_with_next("accounts:two-factor-verify", request))
        messages.info(request, _("Your second factor is already set up."))
        return redirect("accounts:account")
    device = second_factor_start(user=user, acting_user=user)
    form = EnrolForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            codes = second_factor_confirm(
                user=user, device=device, code=form.cleaned_data["code"], acting_user=user
            )
        except ValidationError as error:
            show_service_errors(form, error)
            status = 400
        else:
            device.refresh_from_db()
            sessions.mark_second_factor_passed(request, device)
            return render(
                request, "accounts/backup_codes.html", {"codes": codes, "next": _next(request), "first": True}
            )
    context = {
        "form": form,
        "secret": b32encode(device.bin_key).decode(),
        "qr": _qr_svg(device),
        "issuer": settings.OTP_TOTP_ISSUER,
        "required": user.is_program_staff,
        "pending": pending,
        "next": _next(request, ""),
    }
    return render(request, "accounts/two_factor_enrol.html", context, status=status)


@login_required
@require_POST
def backup_codes(request):
    """New backup codes, shown once; the old ones stop working."""
    try:
        codes = backup_codes_replace(user=request.user, acting_user=request.user)
    except ValidationError:
        return redirect("accounts:two-factor-enrol")
    return render(
        request, "accounts/backup_codes.html", {"codes": codes, "next": "/account/", "first": False}
    )


@login_required
def reauthenticate(request):
    """Confirm who you are (password or one-time code) before signing for a party; then back to
    the form, which gets back what was typed (fogcontrol/core/fresh_auth.py)."""
    user = request.user
    form = ReauthenticateForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        ok = False
        code = form.cleaned_data["code"]
        if code:
            ok = verify_one_time_code(user, code) is not None
        else:
            # authenticate() with the request: wrong passwords count towards the same lockout as
            # the sign-in page (django-axes).
            ok = (
                authenticate(request, username=user.get_username(), password=form.cleaned_data["password"])
                == user
            )
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request)
        if ok:
            note_authentication(request)
            return redirect(_next(request))
        status = 400
        form.add_error(None, "That did not match. Give your password, or a current code from your app.")
    context = {
        "form": form,
        "next": _next(request, ""),
        "minutes": fresh_minutes(),
        "has_device": user_has_device(user),
    }
    return render(request, "accounts/reauthenticate.html", context, status=status)
