"""The language of a signed-in user's pages (docs/i18n.md): their `preferred_language`, which the
header's language switcher also saves. Before sign-in, Django's LocaleMiddleware has chosen from the
language cookie or the browser's Accept-Language.

Two gates every request passes after authentication (docs/security.md):

- IdleTimeoutMiddleware: a session unused for longer than its user's limit (staff 30 minutes,
  others 2 hours by default) is signed out, and the sign-in page says why.
- SecondFactorMiddleware: a session that still owes its second factor reaches only the
  verification and enrolment pages and sign-out; pages redirect there, the API answers 403.

A request carrying an `Authorization` header is the API's token authentication, not the session:
neither gate applies to it (a token is issued only to a user who passed the same checks).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode

from fogcontrol.accounts import sessions

# The pages a session that owes its second factor may still reach (URL names).
PENDING_ALLOWED = (
    "accounts:two-factor-verify",
    "accounts:two-factor-enrol",
    "logout",
)
SECOND_FACTOR_NEEDED = (
    "second factor required: this session has not yet given its one-time code. Sign in on the "
    "site and complete the second step (/account/two-factor/)."
)


def _token_request(request) -> bool:
    return bool(request.META.get("HTTP_AUTHORIZATION"))


def _to(request, url: str) -> HttpResponse:
    """A redirect that also works for an htmx request (which would swap the page into a fragment)."""
    if getattr(request, "htmx", False):
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return HttpResponseRedirect(url)


class UserLanguageMiddleware:
    """A signed-in user reads the program in the language they chose (`preferred_language`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not _token_request(request):
            language = translation.get_supported_language_variant(user.preferred_language or "en")
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


class IdleTimeoutMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _token_request(request) or not request.user.is_authenticated:
            return self.get_response(request)
        if sessions.idle_too_long(request):
            minutes = sessions.idle_limit_minutes(request.user)
            logout(request)
            message = f"You were signed out after {minutes} minutes of inactivity. Sign in again to continue."
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=401)
            messages.info(request, message)
            login = reverse("login")
            back = request.get_full_path() if request.method == "GET" else ""
            return _to(request, f"{login}?{urlencode({'next': back})}" if back else login)
        sessions.touch(request)
        return self.get_response(request)


class SecondFactorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self._allowed: frozenset[str] | None = None

    def allowed_paths(self) -> frozenset[str]:
        if self._allowed is None:
            self._allowed = frozenset(reverse(name) for name in PENDING_ALLOWED)
        return self._allowed

    def __call__(self, request):
        pending = (
            not _token_request(request)
            and request.user.is_authenticated
            and sessions.second_factor_pending(request)
        )
        request.second_factor_pending = pending
        if not pending or request.path in self.allowed_paths():
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": SECOND_FACTOR_NEEDED}, status=403)
        target = reverse("accounts:two-factor-verify")
        if request.method == "GET" and request.path != "/":
            target = f"{target}?{urlencode({'next': request.get_full_path()})}"
        return _to(request, target)
