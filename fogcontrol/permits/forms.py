"""Page forms for permits. They shape input for the services, which validate again and save."""

from __future__ import annotations

from django import forms
from django.forms import inlineformset_factory
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import VersionedFormMixin
from fogcontrol.permits.models import (
    PERMIT_FEE_KINDS,
    ApplicationDocument,
    ApplicationFixture,
    ApplicationRoute,
    ChangeReason,
    FeeKind,
    PermitApplication,
    PermitOrder,
    RemodelNotice,
)
from fogcontrol.permits.services.applications import APPLICANT_FIELDS, FIXTURE_FIELDS
from fogcontrol.registry.models import GreaseControlDevice

DATE = forms.DateInput(attrs={"type": "date"})


def _choose_establishment(form: forms.Form, establishments) -> None:
    """The establishment starts empty, so nobody files for the first one in the list by mistake;
    someone who has only one is given it."""
    field = form.fields["establishment"]
    field.queryset = establishments
    field.empty_label = _("Choose the establishment")
    if not form.is_bound:
        only = list(establishments[:2])
        if len(only) == 1:
            form.initial.setdefault("establishment", only[0].pk)


class StartForm(forms.Form):
    """Which establishment, and by which route (B3 application, or B4 documents in lieu)."""

    establishment = forms.ModelChoiceField(queryset=None, label=_("Establishment"))
    route = forms.ChoiceField(
        choices=ApplicationRoute.choices,
        widget=forms.RadioSelect,
        initial=ApplicationRoute.FULL,
        label=_("Route"),
    )

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        _choose_establishment(self, establishments)


class ApplicationForm(VersionedFormMixin, forms.ModelForm):
    """The B3 items (or the B4 permit number) of a draft."""

    class Meta:
        model = PermitApplication
        # The applicant's fields as the services define them; the route is chosen when the draft
        # is started, and change reasons have their own step.
        fields = [name for name in APPLICANT_FIELDS if name not in ("route", "change_reasons")]
        # The model's names are English; what the applicant reads is in their language (issue 18).
        labels = {
            "applicant_name": _("Applicant name"),
            "applicant_address": _("Applicant address"),
            "applicant_phone": _("Applicant phone"),
            "applicant_email": _("Applicant email"),
            "wastewater_volume_gpd": _("Wastewater volume (gallons per day)"),
            "wastewater_type": _("Type of wastewater"),
            "food_preparation_hours": _("Daily food preparation times"),
            "cleaning_hours": _("Daily cleaning times"),
            "food_preparation_description": _("Description of food preparation"),
            "food_types": _("Food types"),
            "meals_per_day": _("Meals served per day"),
            "clean_up_procedures": _("Clean up procedures"),
            "dining_capacity": _("Dining room capacity (seats)"),
            "employees": _("Number of employees"),
            "kitchen_size_sqft": _("Kitchen size (sq ft)"),
            "device": _("Device"),
            "device_kind": _("Device kind"),
            "device_capacity_gallons": _("Device capacity (gallons)"),
            "device_rated_flow_gpm": _("Device rated flow (gpm)"),
            "inlet_pipe_size_in": _("Interceptor inlet pipe size (in)"),
            "building_permit_number": _("Building permit number"),
            "change_description": _("Change description"),
        }
        help_texts = {
            "wastewater_type": _("e.g. dishwashing, food preparation, mopping"),
            "food_preparation_hours": _("e.g. 06:00-14:00"),
            "cleaning_hours": _("e.g. 21:00-22:30"),
            "inlet_pipe_size_in": _(
                "Only if the fixtures' drainage fixture units are unknown, e.g. 4 or 2.5 (CPC Table 703.2)."
            ),
        }
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
        self.fields["device"].help_text = _("The registered device serving the kitchen, if there is one.")


class FixtureRowForm(forms.ModelForm):
    """One row of the fixtures table. The column headings are not labels a screen reader ties to a
    control, so each control names its column and row itself."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        row = (self.prefix or "").rsplit("-", 1)[-1]
        row_number = int(row) + 1 if row.isdigit() else ""
        for field in self.fields.values():
            name = _("%(label)s, fixture %(number)s") % {"label": field.label, "number": row_number}
            field.widget.attrs.setdefault("aria-label", name if row_number else str(field.label))


class FixtureRows(forms.BaseInlineFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:  # added by the formset, after the row's own __init__
            form.fields["DELETE"].label = _("Remove this fixture")
            name = (
                _("Remove, fixture %(number)s") % {"number": index + 1} if index is not None else _("Remove")
            )
            form.fields["DELETE"].widget.attrs.setdefault("aria-label", name)


FixtureFormSet = inlineformset_factory(
    PermitApplication,
    ApplicationFixture,
    form=FixtureRowForm,
    formset=FixtureRows,
    fields=list(FIXTURE_FIELDS),
    extra=3,
    can_delete=True,
    widgets={"description": forms.TextInput(attrs={"placeholder": _("optional")})},
    labels={
        "kind": _("Kind"),
        "description": _("Description"),
        "count": _("Count"),
        "compartments": _("Compartments"),
        "compartment_length_in": _("Compartment length (in)"),
        "compartment_width_in": _("Compartment width (in)"),
        "compartment_depth_in": _("Compartment depth (in)"),
        "drains_to_device": _("Drains to device"),
        "flow_gpm": _("Flow (gpm)"),
    },
    help_texts={
        "compartments": _("Sinks: compartments per sink."),
        "flow_gpm": _(
            "Appliances with no drainage fixture unit value: their discharge in gallons per minute."
        ),
    },
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
    file = forms.FileField(help_text=_("PDF, PNG or JPEG."))
    kind = forms.ChoiceField(choices=ApplicationDocument.Kind.choices)


class MessageForm(forms.Form):
    message = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Message"))


class RespondForm(forms.Form):
    message = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Message"))
    file = forms.FileField(
        required=False, label=_("File"), help_text=_("Optional: a PDF, PNG or JPEG with your answer.")
    )


class ScheduleForm(forms.Form):
    scheduled_for = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


class InspectionForm(forms.Form):
    inspected_on = forms.DateField(widget=DATE)
    passed = forms.TypedChoiceField(
        choices=[("yes", _("Passed")), ("no", _("Failed"))],
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class RejectForm(forms.Form):
    reasons = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    deny_under_l5 = forms.BooleanField(
        required=False,
        label=_("Deny under L5"),
        help_text=_(
            "L5: the application is associated with a revoked permit (see the warning above); the "
            "reasons name the permit and the order."
        ),
    )

    def __init__(self, *args, l5=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not l5:  # offered only when the application is associated with a revoked permit
            del self.fields["deny_under_l5"]


class IssueForm(forms.Form):
    """B2: the approved device, its size, the service frequency (E1), and any conditions; for a device
    the sizing check finds wanting (A4, A5), the condition on it and its compliance date."""

    device_kind = forms.ChoiceField(choices=GreaseControlDevice.Kind.choices)
    device_capacity_gallons = forms.IntegerField(required=False, min_value=1, label=_("Size (gallons)"))
    device_rated_flow_gpm = forms.IntegerField(required=False, min_value=1, label=_("Rated flow (gpm)"))
    service_frequency_days = forms.TypedChoiceField(coerce=int, label=_("Service frequency (days)"))
    conditions = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))
    device_condition = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label=_("Condition on the device (A4, A5)")
    )
    device_compliance_date = forms.DateField(required=False, widget=DATE, label=_("Device compliance date"))

    def __init__(self, *args, frequencies, findings=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["service_frequency_days"].choices = [(d, f"Every {d} days") for d in frequencies]
        if findings:
            # A4 / A5: the permit is issued for this device only on a condition with a compliance date.
            for name in ("device_condition", _("device_compliance_date")):
                self.fields[name].required = True
            self.fields["device_condition"].help_text = (
                "The sizing check found: " + " ".join(findings) + " Say what must be done, and by when."
            )
        else:
            self.fields["device_condition"].help_text = "Only if the device needs work (A4, A5)."


class ModifyForm(forms.Form):
    """B7: a change of the permit's conditions, with the notice date and the effective date. The
    service frequency is the device's: it is changed on the device's frequency card (E1, A2)."""

    conditions = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}),
                                 help_text=_("The permit's conditions as they will read."))  # fmt: skip
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("The permittee is told this.")
    )
    notice_date = forms.DateField(
        required=False, widget=DATE,
        help_text=_("The day notice is given; default today. An earlier date only for a notice already mailed (B7)."),
    )  # fmt: skip
    effective_on = forms.DateField(
        required=False, widget=DATE, help_text=_("Default: the earliest date B7 allows.")
    )
    compliance_schedule = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    backdating_reason = forms.CharField(
        required=False, label=_("Why the notice is dated before today"), widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Only with a notice date before today (B7)."),
    )  # fmt: skip
    mailing_record = forms.CharField(
        required=False, max_length=500,
        help_text=_("Only with a notice date before today: certified mail article number and the date mailed (B7)."),
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
    establishment = forms.ModelChoiceField(queryset=None, label=_("Establishment"))
    kind = forms.ChoiceField(choices=RemodelNotice.Kind.choices, label=_("Kind"))
    description = forms.CharField(label=_("Description"), widget=forms.Textarea(attrs={"rows": 3}))
    planned_start = forms.DateField(label=_("Planned start"), widget=DATE)

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        _choose_establishment(self, establishments)


class PlansForm(forms.Form):
    plans = forms.FileField(help_text=_("PDF, PNG or JPEG."))


class DecideForm(forms.Form):
    approved = forms.TypedChoiceField(
        choices=[("yes", _("Approve the plans")), ("no", _("Require revisions"))],
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class FeeScheduleForm(forms.Form):
    effective_from = forms.DateField(widget=DATE)
    label = forms.CharField(max_length=200)
    resolution = forms.CharField(required=False, label=_("Council resolution"))
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in FeeKind:
            # Only the permit fees are required: the D6 rates and billing's kinds are priced when set.
            self.fields[kind.value] = forms.DecimalField(
                label=f"{kind.label} ($)",
                min_value=0,
                decimal_places=2,
                max_digits=10,
                required=kind in PERMIT_FEE_KINDS,
            )

    def amounts(self) -> dict:
        return {
            kind.value: self.cleaned_data[kind.value]
            for kind in FeeKind
            if self.cleaned_data.get(kind.value) is not None
        }


class FeePaymentForm(forms.Form):
    """B3: a fee paid, as staff record it until billing exists."""

    fee = forms.ModelChoiceField(queryset=None, empty_label=None)
    amount = forms.DecimalField(min_value=0, decimal_places=2, max_digits=10, label=_("Amount paid ($)"))
    paid_on = forms.DateField(widget=DATE, label=_("Received on"))
    reference = forms.CharField(max_length=100, label=_("Receipt, cheque or transaction number"))

    def __init__(self, *args, fees, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fee"].queryset = fees


class FeeWaiverForm(forms.Form):
    """B3: the FOG Manager waives a fee, with the reason."""

    fee = forms.ModelChoiceField(queryset=None, empty_label=None)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason for the waiver"))

    def __init__(self, *args, fees, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fee"].queryset = fees


class OrderForm(forms.Form):
    """An order with its process: L1, L2 for a suspension or revocation; M1, M3 for an emergency one."""

    kind = forms.ChoiceField(choices=PermitOrder.Kind.choices)
    grounds = forms.MultipleChoiceField(
        choices=PermitOrder.Ground.choices, required=False, widget=forms.CheckboxSelectMultiple,
        label=_("Grounds (L1)"), help_text=_("Suspension or revocation: at least one."),
    )  # fmt: skip
    facts = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Statement of facts (L2), determination (M1) or reason"))  # fmt: skip
    notice_mailed_on = forms.DateField(
        required=False, widget=DATE, label=_("Notice mailed by certified mail on (L2)")
    )
    certified_mail_number = forms.CharField(
        required=False, max_length=64, label=_("Certified mail number (L2)")
    )
    hearing_on = forms.DateField(required=False, widget=DATE, label=_("Hearing date (L2, M3)"))
    hearing_place = forms.CharField(required=False, max_length=200, label=_("Hearing place (L2)"))
    emergency_order_on = forms.DateField(required=False, widget=DATE, label=_("Emergency order dated (M1)"))
    determined_by = forms.CharField(required=False, max_length=200, label=_("Determined necessary by (M1)"))
    ends_order = forms.ModelChoiceField(
        queryset=None, required=False, label=_("Suspension it ends (reinstatement)")
    )

    def __init__(self, *args, suspensions, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ends_order"].queryset = suspensions


class DecisionForm(forms.Form):
    """The hearing officer's written decision and order (L3, L4; M3) and where the appeal stands (L6)."""

    hearing_concluded_on = forms.DateField(
        required=False,
        widget=DATE,
        label=_("Hearing concluded on (L3)"),
        help_text=_("Default: the hearing date."),
    )
    decision_on = forms.DateField(widget=DATE, label=_("Written decision dated (L4, M3)"))
    hearing_officer_name = forms.CharField(max_length=200, label=_("Hearing officer"))
    outcome = forms.ChoiceField(choices=PermitOrder.Outcome.choices)
    decision = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("The decision and order"))
    decision_mail_number = forms.CharField(max_length=64, label=_("Certified mail number of the decision"))
    appeal_status = forms.ChoiceField(
        choices=[c for c in PermitOrder.Appeal.choices if c[0] != PermitOrder.Appeal.NOT_APPEALABLE],
        label=_("Appeal (L6)"), help_text=_("An emergency order's decision is final (M3): this is ignored."),
    )  # fmt: skip
    final_on = forms.DateField(required=False, widget=DATE, label=_("Final on (L6)"))


class AppealForm(forms.Form):
    """L6: the decision became final, or was appealed, upheld or overturned."""

    appeal_status = forms.ChoiceField(
        choices=[c for c in PermitOrder.Appeal.choices if c[0] != PermitOrder.Appeal.NOT_APPEALABLE]
    )
    final_on = forms.DateField(required=False, widget=DATE, label=_("Final on (L6)"))


class OrderApplyForm(forms.Form):
    """Apply a recorded order to the permit (L5, M1): the order, and an optional note."""

    order = forms.ModelChoiceField(queryset=None, required=False)
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label=_("Note"))

    def __init__(self, *args, orders, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["order"].queryset = orders
