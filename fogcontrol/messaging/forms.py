"""Forms of messaging's pages: a bounce, an invitation, setting the password from one."""

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.languages import Language
from fogcontrol.messaging.models import INVITABLE_ROLE_CHOICES
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany, Parcel


class BounceForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("As the mail system reported it, e.g. 550 5.1.1 no such user."),
    )


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=INVITABLE_ROLE_CHOICES)
    email = forms.EmailField()
    first_name = forms.CharField(required=False, max_length=150)
    last_name = forms.CharField(required=False, max_length=150)
    language = forms.ChoiceField(
        choices=Language.choices, initial=Language.ENGLISH, label=_("Language for e-mail")
    )
    establishment = forms.ModelChoiceField(
        FoodServiceEstablishment.objects.filter(status=FoodServiceEstablishment.Status.ACTIVE),
        required=False,
        help_text=_("For an FSE user: the establishment the account is for."),
    )
    parcel = forms.ModelChoiceField(
        Parcel.objects.all(), required=False, help_text=_("For a property owner: the parcel it owns.")
    )
    hauler = forms.ModelChoiceField(
        HaulerCompany.objects.all(), required=False, help_text=_("For a hauler user: the hauler company.")
    )


class AcceptForm(forms.Form):
    password1 = forms.CharField(label=_("New password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("The same password again"), widget=forms.PasswordInput, strip=False)
