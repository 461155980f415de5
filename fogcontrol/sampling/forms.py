"""The sampling pages' forms: a new sample, a hand-off, a result, a CSV upload, a charge, a limit
and a monitoring facility. The services validate; these only parse."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.sampling.models import Analyte, MonitoringFacility, Sample, Unit
from fogcontrol.sampling.services import SAMPLE_CHARGE_KINDS

DATE = forms.DateInput(attrs={"type": "date"})
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]


class SampleForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=None, empty_label=_("Choose the establishment"))
    device = forms.ModelChoiceField(queryset=None, required=False, empty_label=_("No particular device"))
    inspection = forms.IntegerField(
        required=False, min_value=1, label=_("Inspection id"), widget=forms.HiddenInput
    )
    kind = forms.ChoiceField(choices=Sample.Kind.choices, widget=forms.RadioSelect, initial=Sample.Kind.GRAB)
    sampled_at = forms.DateTimeField(widget=DATETIME, input_formats=DATETIME_FORMATS, label=_("Taken at"))
    sampled_by = forms.CharField(max_length=150, label=_("Taken by"))
    sample_point = forms.CharField(
        max_length=200, label=_("Sample point"), help_text=_("E.g. the sample tee of GI-1.")
    )
    container = forms.CharField(max_length=120, help_text=_("E.g. 1 L amber glass."))
    preservation = forms.CharField(max_length=120, required=False, help_text=_("E.g. HCl to pH<2, on ice."))
    laboratory = forms.CharField(max_length=150)
    lab_sample_id = forms.CharField(max_length=60, required=False, label=_("Lab sample id"))
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, establishments, devices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments
        self.fields["device"].queryset = devices


class CustodyForm(forms.Form):
    released_by = forms.CharField(max_length=150, label=_("From"))
    received_by = forms.CharField(max_length=150, label=_("To"))
    at = forms.DateTimeField(widget=DATETIME, input_formats=DATETIME_FORMATS, label=_("When"))
    seal_intact = forms.BooleanField(required=False, initial=True, label=_("Seal intact"))
    condition = forms.CharField(max_length=200, required=False, help_text=_("E.g. on ice, 3 °C."))


class ResultForm(forms.Form):
    analyte = forms.ChoiceField(choices=Analyte.choices)
    value = forms.DecimalField(max_digits=12, decimal_places=4)
    unit = forms.ChoiceField(choices=Unit.choices)
    method = forms.CharField(max_length=60, help_text=_("E.g. EPA 1664B."))
    analysed_on = forms.DateField(widget=DATE, label=_("Analysed on"))
    reported_by = forms.CharField(max_length=150, required=False, label=_("Reported by (laboratory)"))


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Lab results (CSV)"),
        help_text=_(
            "Columns: analyte, value, unit, method, analysed_on, reported_by. One bad row refuses the file."
        ),
    )


class SampleChargeForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k.value, k.label) for k in SAMPLE_CHARGE_KINDS])
    quantity = forms.DecimalField(
        min_value=0, max_digits=8, decimal_places=2, help_text=_("Samples or tests.")
    )
    incurred_on = forms.DateField(widget=DATE, label=_("Incurred on"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("The case"))


class LimitForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=None, empty_label=_("Choose the establishment"))
    analyte = forms.ChoiceField(choices=Analyte.choices)
    min_value = forms.DecimalField(max_digits=12, decimal_places=4, required=False, label=_("Minimum (pH)"))
    max_value = forms.DecimalField(max_digits=12, decimal_places=4, required=False, label=_("Maximum"))
    unit = forms.ChoiceField(choices=Unit.choices)
    effective_from = forms.DateField(widget=DATE, label=_("In force from"))
    condition = forms.CharField(max_length=300, required=False, label=_("The permit condition, as worded"))
    provision = forms.CharField(max_length=16, initial="D5", help_text=_("What a result outside it breaks."))

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class FacilityForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=None, empty_label=_("Choose the establishment"))
    kind = forms.ChoiceField(choices=MonitoringFacility.Kind.choices)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("What is required"))
    location = forms.CharField(max_length=200, label=_("Approved location"))
    required_on = forms.DateField(widget=DATE, label=_("Required on"))

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class InstalledForm(forms.Form):
    installed_on = forms.DateField(widget=DATE, label=_("Installed on"))
