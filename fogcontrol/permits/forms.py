"""Page forms for permits. They shape input for the services, which validate again and save."""

from __future__ import annotations

from django import forms
from django.forms import inlineformset_factory

from fogcontrol.permits.models import (
    ApplicationDocument,
    ApplicationFixture,
    ApplicationRoute,
    ChangeReason,
    FeeKind,
    PermitApplication,
    RemodelNotice,
)
from fogcontrol.permits.services.applications import APPLICANT_FIELDS, FIXTURE_FIELDS
from fogcontrol.registry.models import GreaseControlDevice

DATE = forms.DateInput(attrs={"type": "date"})


class StartForm(forms.Form):
    """Which establishment, and by which route (B3 application, or B4 documents in lieu)."""

    establishment = forms.ModelChoiceField(queryset=None, empty_label=None)
    route = forms.ChoiceField(
        choices=ApplicationRoute.choices, widget=forms.RadioSelect, initial=ApplicationRoute.FULL
    )

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class ApplicationForm(forms.ModelForm):
    """The B3 items (or the B4 permit number) of a draft."""

    class Meta:
        model = PermitApplication
        # The applicant's fields as the services define them; the route is chosen when the draft
        # is started, and change reasons have their own step.
        fields = [name for name in APPLICANT_FIELDS if name not in ("route", "change_reasons")]
        widgets = {
            "applicant_address": forms.Textarea(attrs={"rows": 3}),
            "food_preparation_description": forms.Textarea(attrs={"rows": 3}),
            "clean_up_procedures": forms.Textarea(attrs={"rows": 3}),
            "change_description": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Only the devices that serve this establishment.
        self.fields["device"].queryset = GreaseControlDevice.objects.filter(
            establishments=self.instance.establishment_id
        )
        self.fields["device"].help_text = "The registered device serving the kitchen, if there is one."


FixtureFormSet = inlineformset_factory(
    PermitApplication,
    ApplicationFixture,
    fields=list(FIXTURE_FIELDS),
    extra=3,
    can_delete=True,
    widgets={"description": forms.TextInput(attrs={"placeholder": "optional"})},
)


def fixture_rows(formset) -> list[dict]:
    """The fixture list as the service takes it: the filled, undeleted rows."""
    rows = []
    for form in formset.forms:
        data = getattr(form, "cleaned_data", None) or {}
        if not data or data.get("DELETE") or not data.get("kind"):
            continue
        rows.append({name: data.get(name) for name in FIXTURE_FIELDS if name != "description"} | {
            "description": data.get("description") or ""
        })  # fmt: skip
    return rows


class DocumentForm(forms.Form):
    file = forms.FileField(help_text="PDF, PNG or JPEG.")
    kind = forms.ChoiceField(choices=ApplicationDocument.Kind.choices)


class MessageForm(forms.Form):
    message = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))


class RespondForm(forms.Form):
    message = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    file = forms.FileField(required=False, help_text="Optional: a PDF, PNG or JPEG with your answer.")


class ScheduleForm(forms.Form):
    scheduled_for = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


class InspectionForm(forms.Form):
    inspected_on = forms.DateField(widget=DATE)
    passed = forms.TypedChoiceField(
        choices=[("yes", "Passed"), ("no", "Failed")], coerce=lambda v: v == "yes", widget=forms.RadioSelect
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class RejectForm(forms.Form):
    reasons = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class IssueForm(forms.Form):
    """B2: the approved device, its size, the service frequency (E1), and any conditions."""

    device_kind = forms.ChoiceField(choices=GreaseControlDevice.Kind.choices)
    device_capacity_gallons = forms.IntegerField(required=False, min_value=1, label="Size (gallons)")
    device_rated_flow_gpm = forms.IntegerField(required=False, min_value=1, label="Rated flow (gpm)")
    service_frequency_days = forms.TypedChoiceField(coerce=int, label="Service frequency (days)")
    conditions = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, frequencies, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["service_frequency_days"].choices = [(d, f"Every {d} days") for d in frequencies]


class ModifyForm(forms.Form):
    """B7: a change of the permit's conditions, with the notice date and the effective date. The
    service frequency is the device's: it is changed on the device's frequency card (E1, A2)."""

    conditions = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}),
                                 help_text="The permit's conditions as they will read.")  # fmt: skip
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text="The permittee is told this."
    )
    notice_date = forms.DateField(
        required=False, widget=DATE,
        help_text="The day notice is given; default today. An earlier date only for a notice already mailed (B7).",
    )  # fmt: skip
    effective_on = forms.DateField(
        required=False, widget=DATE, help_text="Default: the earliest date B7 allows."
    )
    compliance_schedule = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    backdating_reason = forms.CharField(
        required=False, label="Why the notice is dated before today", widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Only with a notice date before today (B7).",
    )  # fmt: skip
    mailing_record = forms.CharField(
        required=False, max_length=500,
        help_text="Only with a notice date before today: certified mail article number and the date mailed (B7).",
    )  # fmt: skip

    def __init__(self, *args, notice_days: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if notice_days is not None:
            self.fields[
                "effective_on"
            ].help_text = f"Default: the earliest date B7 allows ({notice_days} days after notice)."

    def changes(self) -> dict:
        return {"conditions": self.cleaned_data["conditions"]}


class ChangeForm(forms.Form):
    """B8: what changed."""

    change_reasons = forms.MultipleChoiceField(
        choices=ChangeReason.choices, widget=forms.CheckboxSelectMultiple
    )
    change_description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))


class RemodelForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=None, empty_label=None)
    kind = forms.ChoiceField(choices=RemodelNotice.Kind.choices)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    planned_start = forms.DateField(widget=DATE)

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class PlansForm(forms.Form):
    plans = forms.FileField(help_text="PDF, PNG or JPEG.")


class DecideForm(forms.Form):
    approved = forms.TypedChoiceField(
        choices=[("yes", "Approve the plans"), ("no", "Require revisions")],
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class FeeScheduleForm(forms.Form):
    effective_from = forms.DateField(widget=DATE)
    label = forms.CharField(max_length=200)
    resolution = forms.CharField(required=False, label="Council resolution")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in FeeKind:
            self.fields[kind.value] = forms.DecimalField(
                label=f"{kind.label} ($)", min_value=0, decimal_places=2, max_digits=10
            )

    def amounts(self) -> dict:
        return {kind.value: self.cleaned_data[kind.value] for kind in FeeKind}
