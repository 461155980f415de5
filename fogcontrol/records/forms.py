"""Page forms for the FSE's records. They only parse input; the services validate and decide, and
their refusals are shown beside the fields (core.forms.show_service_errors)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.records.models import TRAINING_SUBJECTS, RecordRequirement, SubmissionReview, TrainingSession
from fogcontrol.records.pdf import SUBJECT_TEXTS
from fogcontrol.registry.models import HaulerCompany

DATE = forms.DateInput(attrs={"type": "date"})


class TrainingSessionForm(forms.Form):
    held_on = forms.DateField(label=_("Training date"), widget=DATE)
    trainer = forms.CharField(max_length=150)
    subjects = forms.MultipleChoiceField(
        # The subjects in the page's language (the training sheet's own lazy texts).
        choices=[(key, SUBJECT_TEXTS[key]) for key in TRAINING_SUBJECTS],
        widget=forms.CheckboxSelectMultiple,
        initial=list(TRAINING_SUBJECTS),
        label=_("Subjects covered (C4)"),
    )
    language = forms.ChoiceField(choices=TrainingSession.Language.choices)
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    signed_sheet = forms.FileField(
        required=False, help_text=_("Optional: the signed roster sheet (PDF, PNG or JPEG).")
    )


class SignForm(forms.Form):
    employee_name = forms.CharField(max_length=150)
    hire_date = forms.DateField(widget=DATE)
    signature = forms.CharField(
        widget=forms.HiddenInput(attrs={"data-signature": "1"}),
        required=False,
        help_text=_("Sign in the box."),
    )


class OilPickupForm(forms.Form):
    picked_up_on = forms.DateField(label=_("Pickup date"), widget=DATE)
    gallons = forms.DecimalField(min_value=0, max_digits=8, decimal_places=1)
    hauler = forms.ModelChoiceField(
        queryset=HaulerCompany.objects.none(), required=False, label=_("Licensed hauler")
    )
    recycler_name = forms.CharField(max_length=200, required=False, label=_("Or the approved recycler"))
    receipt = forms.FileField(required=False, help_text=_("The receipt (PDF, PNG or JPEG)."))

    def __init__(self, *args, haulers=None, **kwargs):
        super().__init__(*args, **kwargs)
        if haulers is not None:
            self.fields["hauler"].queryset = haulers


class RequirementForm(forms.Form):
    kind = forms.ChoiceField(choices=RecordRequirement.Kind.choices)
    unit = forms.ChoiceField(choices=RecordRequirement.Unit.choices, label=_("How often"))
    every = forms.IntegerField(
        min_value=0, required=False, initial=0, help_text=_("Every how many days or months.")
    )
    first_due_on = forms.DateField(
        widget=DATE, required=False, help_text=_("Leave empty for a request: the ruleset's days after today.")
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    permit_condition = forms.BooleanField(
        required=False,
        label=_("Also a condition of the FSE's permit"),
        help_text=_("The permit's page and PDF list it until the requirement is lifted."),
    )


class SubmissionForm(forms.Form):
    requirement = forms.ModelChoiceField(queryset=RecordRequirement.objects.none())
    file = forms.FileField(help_text=_("PDF, PNG or JPEG."))
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args, requirements=None, **kwargs):
        super().__init__(*args, **kwargs)
        if requirements is not None:
            self.fields["requirement"].queryset = requirements


class ReviewForm(forms.Form):
    outcome = forms.ChoiceField(choices=SubmissionReview.Outcome.choices)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=_("Required when it needs correction."),
    )


class CorrectionForm(forms.Form):
    file = forms.FileField(help_text=_("The corrected report (PDF, PNG or JPEG)."))
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
