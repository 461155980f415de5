"""Forms of the second factor and of re-authentication."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("Code"),
        max_length=32,
        help_text=_("The 6 digits your authenticator app shows now, or one of your backup codes."),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": True, "inputmode": "text"}
        ),
    )


class EnrolForm(forms.Form):
    code = forms.CharField(
        label=_("Code from the app"),
        max_length=12,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
    )


class ReauthenticateForm(forms.Form):
    """Either the password or a one-time code: whichever the person has to hand."""

    password = forms.CharField(
        label=_("Password"),
        required=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    code = forms.CharField(
        label=_("Or a one-time code"),
        required=False,
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}),
    )

    def clean(self):
        data = super().clean()
        if not data.get("password") and not data.get("code"):
            raise forms.ValidationError(_("Give your password, or a code from your authenticator app."))
        return data
