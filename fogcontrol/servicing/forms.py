"""Page forms. They read and type the input; the services decide what is allowed."""

from django import forms
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.roles import Role
from fogcontrol.registry.models import HaulerCompany, ReceivingFacility
from fogcontrol.registry.selectors import devices_visible_to, establishments_visible_to
from fogcontrol.servicing import certification, selectors
from fogcontrol.servicing.models import SludgeReading
from fogcontrol.servicing.services import ManifestSubmission

DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several attachments in one field (Django's documented pattern)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)] if data else []


class ManifestForm(forms.Form):
    """The portal form: remembers the user's devices, vehicle, driver and receiving facility."""

    device = forms.ModelChoiceField(
        queryset=None, help_text=_("The Town's device number is on the lid tag and the permit.")
    )
    establishment = forms.ModelChoiceField(
        queryset=None, required=False, help_text=_("Only when the device serves several establishments.")
    )
    hauler = forms.ModelChoiceField(
        queryset=None, required=False, help_text=_("The company that did the work.")
    )
    hauler_other = forms.CharField(
        label=_("Self / other: who did the work"),
        max_length=200,
        required=False,
        help_text=_(
            "When no hauler on the list did it: yourselves, or a company that is not registered. "
            "Kept by name, linked to no company."
        ),
    )
    manifest_number = forms.CharField(label=_("Manifest / ticket number"), max_length=64)
    serviced_at = forms.DateTimeField(
        label=_("Date and time of service"),
        input_formats=[DATETIME_LOCAL, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
    )
    full_pumpout = forms.BooleanField(
        label=_("Fully pumped: all FOG, liquids and solids removed (E7)"), required=False
    )
    baffles_cleaned = forms.BooleanField(label=_("Baffles removed and cleaned (E7)"), required=False)
    fog_depth_in = forms.DecimalField(
        label=_("FOG depth before pumping (in)"), max_digits=6, decimal_places=2, required=False, min_value=0
    )
    solids_depth_in = forms.DecimalField(
        label=_("Solids depth before pumping (in)"),
        max_digits=6,
        decimal_places=2,
        required=False,
        min_value=0,
    )
    gallons_removed = forms.DecimalField(max_digits=9, decimal_places=1, required=False, min_value=0)
    driver_name = forms.CharField(label=_("Driver"), max_length=120, required=False)
    vehicle_plate = forms.CharField(
        label=_("Vehicle plate"),
        max_length=20,
        required=False,
        widget=forms.TextInput(attrs={"list": "vehicles"}),
    )
    leak_observed = forms.BooleanField(label=_("Leak observed"), required=False)
    damaged_baffles = forms.BooleanField(label=_("Damaged baffles"), required=False)
    damaged_tees = forms.BooleanField(label=_("Damaged sanitary tees"), required=False)
    condition_notes = forms.CharField(
        label=_("Condition notes"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    receiving_facility = forms.ModelChoiceField(
        queryset=ReceivingFacility.objects.filter(active=True), required=False
    )
    delivered_on = forms.DateField(
        label=_("Delivered to the facility on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    attachments = MultipleFileField(
        required=False, help_text=_("Scanned ticket or photos: PDF, JPEG or PNG.")
    )
    certified_by_name = forms.CharField(
        label=_("Certified by (type your full name)"), max_length=150, required=False
    )
    certify = forms.BooleanField(label=_("I certify the statement above"), required=False)
    certification_version = forms.CharField(widget=forms.HiddenInput, initial=certification.CURRENT_VERSION)
    # Issue 18: the language the certification is shown in, so the manifest keeps the words signed.
    certification_language = forms.CharField(widget=forms.HiddenInput, required=False)

    CERTIFICATION_FIELDS = ("certified_by_name", "certify")

    def __init__(self, *args, user, correcting=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["device"].queryset = devices_visible_to(user).order_by("identifier")
        self.fields["establishment"].queryset = establishments_visible_to(user).order_by("business_name")
        if user.role == Role.HAULER:
            companies = HaulerCompany.objects.visible_to(user)
            self.fields["hauler"].queryset = companies
            if companies.count() <= 1:
                self.fields["hauler"].widget = forms.HiddenInput()
            del self.fields["hauler_other"]
        elif user.is_program_staff:
            self.fields["hauler"].queryset = HaulerCompany.objects.filter(active=True)
        else:
            # F1: an FSE or owner names a hauler on its establishments' lists, or "self / other".
            self.fields["hauler"].queryset = HaulerCompany.objects.filter(
                customers__in=establishments_visible_to(user)
            ).distinct()
            self.fields["hauler"].empty_label = _("Self / other (type who did the work below)")
            self.fields["hauler"].help_text = _(
                "A hauler on your establishment's list. To add one, ask the FOG Manager."
            )
        self.vehicles = selectors.vehicles_for(user)
        self.initial.setdefault("certification_language", certification.language_shown(get_language()))
        if not self.is_bound and correcting is None:
            remembered = selectors.portal_defaults(user)
            self.initial.setdefault("serviced_at", timezone.localtime().replace(second=0, microsecond=0))
            self.initial.setdefault("full_pumpout", True)
            self.initial.setdefault("baffles_cleaned", True)
            for field in ("vehicle_plate", "driver_name", "receiving_facility", "certified_by_name"):
                if remembered.get(field):
                    self.initial.setdefault(field, remembered[field])

    @property
    def certification_language_shown(self) -> str:
        """The language of the certification on the page: as posted, else the page's."""
        posted = self.data.get("certification_language") if self.is_bound else None
        return certification.language_shown(posted or get_language())

    @property
    def certification_shown(self) -> str:
        """The certification's words as the signer reads them (F7)."""
        version = self["certification_version"].value() or certification.CURRENT_VERSION
        return certification.certification_text(
            version, self.certification_language_shown
        ) or certification.certification_text(
            certification.CURRENT_VERSION, self.certification_language_shown
        )

    @property
    def fields_before_certification(self):
        return [field for field in self.visible_fields() if field.name not in self.CERTIFICATION_FIELDS]

    @property
    def certification_fields(self):
        return [field for field in self.visible_fields() if field.name in self.CERTIFICATION_FIELDS]

    def clean(self):
        data = super().clean()
        # The signature is the typed name plus the tick: without the tick the manifest is not certified.
        if not data.get("certify"):
            self.add_error(
                "certify", _("Tick the box to certify the manifest; it cannot be filed without it.")
            )
        if data.get("hauler") and (data.get("hauler_other") or "").strip():
            self.add_error(
                "hauler_other", _("Choose a hauler from the list or type who did the work, not both.")
            )
        return data

    def to_submission(self) -> ManifestSubmission:
        data = self.cleaned_data
        return ManifestSubmission(
            device=data["device"],
            manifest_number=data["manifest_number"],
            serviced_at=data["serviced_at"],
            full_pumpout=data["full_pumpout"],
            baffles_cleaned=data["baffles_cleaned"],
            certified_by_name=data.get("certified_by_name") or "",
            certification_version=data.get("certification_version") or "",
            certification_language=data.get("certification_language") or self.certification_language_shown,
            establishment=data.get("establishment"),
            hauler=data.get("hauler") or (data.get("hauler_other") or "").strip() or None,
            driver_name=data.get("driver_name") or "",
            vehicle_plate=data.get("vehicle_plate") or "",
            fog_depth_in=data.get("fog_depth_in"),
            solids_depth_in=data.get("solids_depth_in"),
            gallons_removed=data.get("gallons_removed"),
            leak_observed=data.get("leak_observed", False),
            damaged_baffles=data.get("damaged_baffles", False),
            damaged_tees=data.get("damaged_tees", False),
            condition_notes=data.get("condition_notes") or "",
            receiving_facility=data.get("receiving_facility"),
            delivered_on=data.get("delivered_on"),
            attachments=data.get("attachments") or [],
        )

    def raw(self) -> dict:
        """The submission as typed, for the copy of record (without the CSRF token and files)."""
        values = {
            key: self.data.getlist(key) if len(self.data.getlist(key)) > 1 else self.data.get(key)
            for key in self.data
        }
        values.pop("csrfmiddlewaretoken", None)
        values["attachments"] = [upload.name for upload in self.cleaned_data.get("attachments") or []]
        return values


class CorrectionForm(ManifestForm):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("What was wrong, and what this changes.")
    )
    withdraw = forms.BooleanField(
        required=False,
        label=_("Withdraw: this manifest should not have been filed at all (wrong device, duplicate)"),
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"), widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"})
    )
    dry_run = forms.BooleanField(
        required=False, initial=True, label=_("Dry run: check every row, save nothing")
    )


def _frequency_choices(allowed) -> list:
    # No frequency is preselected: a change of frequency is a decision, never a default (E1, E5).
    return [
        ("", _("Choose a frequency")),
        *((days, _("Every %(days)s days") % {"days": days}) for days in allowed),
    ]


class FrequencyChangeForm(forms.Form):
    """E1, B7: the one form that proposes a change of a device's frequency (device and permit pages)."""

    to_days = forms.TypedChoiceField(label=_("New frequency"), coerce=int, choices=[])
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("Everyone told is told this.")
    )
    notice_date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Default: today. An earlier date only for a notice already mailed (B7)."),
    )
    effective_on = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Default: the earliest date B7 allows."),
    )
    backdating_reason = forms.CharField(
        required=False,
        label=_("Why the notice is dated before today"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Only with a notice date before today (B7)."),
    )
    mailing_record = forms.CharField(
        required=False,
        label=_("Mailing record"),
        max_length=500,
        help_text=_(
            "Only with a notice date before today: certified mail article number and the date mailed (B7)."
        ),
    )

    def __init__(self, *args, allowed=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_days"].choices = _frequency_choices(allowed)


class FrequencyRequestForm(forms.Form):
    requested_days = forms.TypedChoiceField(label=_("Requested frequency"), coerce=int, choices=[])
    justification = forms.CharField(
        label=_("Justification"),
        widget=forms.Textarea(attrs={"rows": 3}),
        # xgettext:no-python-format
        help_text=_("E5: show from your accumulation data that the device stays within the 25% rule."),
    )

    def __init__(self, *args, allowed=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["requested_days"].choices = _frequency_choices(allowed)


class DecisionForm(forms.Form):
    grant = forms.TypedChoiceField(choices=[("1", _("Grant")), ("0", _("Refuse"))], coerce=lambda v: v == "1")
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class ReadingForm(forms.Form):
    taken_on = forms.DateField(label=_("Taken on"), widget=forms.DateInput(attrs={"type": "date"}))
    fog_depth_in = forms.DecimalField(label=_("FOG depth (in)"), max_digits=6, decimal_places=2)
    solids_depth_in = forms.DecimalField(label=_("Solids depth (in)"), max_digits=6, decimal_places=2)
    source = forms.ChoiceField(label=_("Source"), choices=SludgeReading.Source.choices)
    notes = forms.CharField(label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2}))


class RequirementCloseForm(forms.Form):
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    e8_exception = forms.ChoiceField(
        required=False,
        choices=[
            ("", _("No exception")),
            ("space", _("Inadequate space (E8)")),
            ("slope", _("Inadequate slope for gravity flow (E8)")),
        ],
    )


class FlagReviewForm(forms.Form):
    outcome = forms.ChoiceField(
        choices=[("cleared", _("Cleared: no action")), ("referred", _("Refer for enforcement"))]
    )
    note = forms.CharField(required=False)
