"""Page forms for spills; the services validate again and name the field in their refusals."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.rules import spills as rules
from fogcontrol.spills.models import Spill

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATE = forms.DateInput(attrs={"type": "date"})


class SpillForm(forms.Form):
    kind = forms.ChoiceField(choices=Spill.Kind.choices, initial=Spill.Kind.SSO)
    address = forms.CharField(max_length=300)
    location_name = forms.CharField(max_length=200, required=False, label=_("Place name"))
    latitude = forms.DecimalField(
        max_digits=10, decimal_places=6, required=False, min_value=-90, max_value=90
    )
    longitude = forms.DecimalField(
        max_digits=10, decimal_places=6, required=False, min_value=-180, max_value=180
    )
    segment_id = forms.CharField(max_length=50, required=False, label=_("Sewer segment id"))
    manhole_id = forms.CharField(max_length=50, required=False, label=_("Manhole id"))
    started_at = forms.DateTimeField(widget=DATETIME, label=_("Started"))
    ended_at = forms.DateTimeField(widget=DATETIME, required=False, label=_("Ended"))
    notified_at = forms.DateTimeField(widget=DATETIME, required=False, label=_("Town notified"))
    arrived_at = forms.DateTimeField(widget=DATETIME, required=False, label=_("Town arrived"))
    volume_spilled = forms.DecimalField(
        max_digits=12, decimal_places=1, min_value=0, label=_("Gallons spilled")
    )
    volume_recovered = forms.DecimalField(
        max_digits=12, decimal_places=1, min_value=0, required=False, label=_("Gallons recovered")
    )
    volume_reached_surface_water = forms.DecimalField(
        max_digits=12, decimal_places=1, min_value=0, initial=0, label=_("Gallons that reached surface water")
    )
    destination = forms.ChoiceField(choices=list(rules.DESTINATIONS.items()))
    storm_drain_fully_recovered = forms.NullBooleanField(
        required=False, label=_("Reached a storm drain: fully captured and returned?")
    )
    cause = forms.ChoiceField(choices=list(rules.CAUSES.items()))
    cause_explanation = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    cleanup_contractor = forms.CharField(max_length=200, required=False, label=_("Clean-up contractor (I1)"))
    clearance_inspected_on = forms.DateField(
        widget=DATE, required=False, label=_("Clearance inspection (I1)")
    )
    clearance_notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class LinkForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=None, label=_("FSE"))
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Why it is linked: upstream of the blockage, grease found in its lateral…"),
    )

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class CostForm(forms.Form):
    kind = forms.ChoiceField(choices=list(rules.COST_KINDS.items()))
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    debtor = forms.ChoiceField(choices=list(rules.DEBTORS.items()), label=_("Owed by (I2)"))
    debtor_name = forms.CharField(max_length=200, label=_("Name of who owes it"))
    establishment = forms.ModelChoiceField(
        queryset=None, required=False, label=_("FSE (when the FSE owes it)")
    )
    invoiced_on = forms.DateField(widget=DATE)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class ReportForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=None, label=_("FSE"))
    occurred_at = forms.DateTimeField(widget=DATETIME, label=_("When it happened"))
    location = forms.CharField(max_length=300, label=_("Where"))
    what = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("What spilled or went wrong"))
    gallons = forms.DecimalField(
        max_digits=10, decimal_places=1, min_value=0, required=False, label=_("How much (gallons)")
    )
    caller = forms.CharField(max_length=150, required=False, label=_("Caller (a phone notice)"))

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class WrittenReportForm(forms.Form):
    incident_on = forms.DateField(widget=DATE, label=_("Date of the incident"))
    cause = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Why it happened"))
    steps_taken = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), label=_("Steps the FSE and the Town took at once")
    )
    prevention = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), label=_("What will prevent it happening again")
    )


class PhotoForm(forms.Form):
    file = forms.ImageField(
        label=_("Photo"), help_text=_("A JPEG, PNG or WebP photo; it is re-encoded before it is kept.")
    )
    caption = forms.CharField(max_length=200, required=False)
