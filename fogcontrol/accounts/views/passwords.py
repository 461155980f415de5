"""Password change (signed in) and reset by email: Django's views and forms with our templates,
the write through `password_set` (audited), and a rate limit on each (fogcontrol/accounts/ratelimit.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext

from fogcontrol.accounts import ratelimit
from fogcontrol.accounts.lockout import client_ip
from fogcontrol.accounts.services import password_set
from fogcontrol.audit.services import audit_record
from fogcontrol.core.fresh_auth import note_authentication
from fogcontrol.core.languages import language_of


def _too_many(request, message: str):
    return render(request, "registration/rate_limited.html", {"message": message}, status=429)


@method_decorator(login_required, name="dispatch")
class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("password_change_done")

    def _limited(self) -> bool:
        limit = settings.FOGCONTROL_PASSWORD_CHANGE_FAILURE_LIMIT
        return ratelimit.count("password-change", str(self.request.user.pk)) >= limit

    def post(self, request, *args, **kwargs):
        if self._limited():
            return _too_many(
                request,
                gettext(
                    "Too many wrong current passwords: changing your password is paused for 15 minutes. "
                    "If you forgot it, sign out and use “Forgot your password?”."
                ),
            )
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if "old_password" in form.errors:
            ratelimit.hit("password-change", str(self.request.user.pk), ratelimit.CHANGE_WINDOW_SECONDS)
        return super().form_invalid(form)

    def form_valid(self, form):
        user = form.user
        password_set(
            user=user, new_password=form.cleaned_data["new_password1"], acting_user=user, how="change"
        )
        # This session stays signed in; every other session of the user ends (the password's hash
        # is part of each session).
        update_session_auth_hash(self.request, user)
        note_authentication(self.request)
        ratelimit.clear("password-change", str(user.pk))
        messages.success(
            self.request,
            gettext("Your password was changed. Other devices signed in as you were signed out."),
        )
        return super(auth_views.PasswordChangeView, self).form_valid(form)


class AccountLanguageResetForm(PasswordResetForm):
    """The reset e-mail in the language the account chose (issue 18), whoever's browser asked."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        with translation.override(language_of(context.get("user"))):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = AccountLanguageResetForm
    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def post(self, request, *args, **kwargs):
        limit = settings.FOGCONTROL_PASSWORD_RESET_LIMIT
        address = client_ip(request) or ""
        email = (request.POST.get("email") or "").strip()
        if ratelimit.hit("password-reset-ip", address, ratelimit.RESET_WINDOW_SECONDS) > limit or (
            email and ratelimit.hit("password-reset-email", email, ratelimit.RESET_WINDOW_SECONDS) > limit
        ):
            return _too_many(
                request,
                gettext("Too many password reset requests: wait an hour, or ask the FOG Manager to help."),
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        # The page says the same whether or not the address is known (no account enumeration);
        # the trail records each account a link was sent for.
        for user in form.get_users(form.cleaned_data["email"]):
            audit_record(
                acting_user=user,
                action="password.reset_request",
                instance=user,
                note=f"Password reset link emailed (requested from {client_ip(self.request) or 'unknown address'}).",
            )
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        user = form.user
        password_set(
            user=user, new_password=form.cleaned_data["new_password1"], acting_user=user, how="reset"
        )
        # Django's view deletes the token from the session; skip its own save (done above).
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        return super(auth_views.PasswordResetConfirmView, self).form_valid(form)
