"""The notices pages' forms. The services check everything again (and name the field they refuse)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import VersionedFormMixin
from fogcontrol.notices.models import ServiceMethod
from fogcontrol.registry.models import FoodServiceEstablishment

DATE = forms.DateInput(attrs={"type": "date"})


class TemplateVersionForm(VersionedFormMixin, forms.Form):
    """A draft's wording. Editing a draft (`instance=`), it carries the save it was opened at
    (core/concurrency.py)."""

    title = forms.CharField(max_length=300)
    body = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 16}),
        help_text=_(
            "Plain text. A blank line starts a new paragraph; {name} puts a value in (see the list)."
        ),
    )
    effective_from = forms.DateField(
        widget=DATE, help_text=_("The first day documents are issued from this wording.")
    )
    adopted_by = forms.CharField(
        max_length=300,
        label=_("Adopted by"),
        help_text=_("The resolution or approval that adopted this wording, e.g. Res. 2026-41."),
    )

    def __init__(self, *args, instance=None, **kwargs):
        self.instance = instance
        super().__init__(*args, **kwargs)


class ServiceForm(forms.Form):
    service_method = forms.ChoiceField(choices=ServiceMethod.choices, label=_("How it was served"))
    served_on = forms.DateField(widget=DATE, label=_("Served on"))
    article_number = forms.CharField(
        max_length=64,
        required=False,
        help_text=_("For certified or registered mail: the number on the receipt."),
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class LetterForm(forms.Form):
    """A letter to an FSE (``general_letter``)."""

    establishment = forms.ModelChoiceField(queryset=FoodServiceEstablishment.objects.none())
    addressee = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), help_text=_("The name and mailing address, one line each.")
    )
    body_text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        label=_("What the letter says"),
        help_text=_(
            "The letter goes out in the language the establishment's contact chose (English or "
            "Spanish, set on the contact's record in the registry): write this text in it."
        ),
    )
    service_method = forms.ChoiceField(choices=ServiceMethod.choices, label=_("How it is served"))
    served_on = forms.DateField(
        widget=DATE, required=False, label=_("Served on"), help_text=_("Empty: not yet served.")
    )
    article_number = forms.CharField(
        max_length=64,
        required=False,
        help_text=_("For certified or registered mail: the number on the receipt."),
    )

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments
