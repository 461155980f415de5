"""Closing a finding from the list page."""

from django import forms

from fogcontrol.findings.models import Finding


class CloseFindingForm(forms.Form):
    closed_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    how = forms.ChoiceField(
        choices=[(Finding.ClosedHow.ON_THE_SPOT, "Corrected on the spot"), (Finding.ClosedHow.OTHER, "Other")]
    )
    evidence = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
