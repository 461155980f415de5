"""The map's filters and the report's year: one form each, for the pages, the exports and the API
(a bad value is a message beside its field on a page, a 400 naming it in the API)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.reports.map_data import (
    LAYERS,
    PERMIT_STATUSES,
    SERVICE_STATUSES,
    SPILL_CAUSES,
    MapFilters,
    areas,
)

# The first year the report offers: the program began under Ord. No. 564 (effective 2023-03-30);
# earlier years are offered too, for records imported from before it.
FIRST_YEAR = 2000


class MapFilterForm(forms.Form):
    layers = forms.MultipleChoiceField(
        label=_("Show"),
        choices=list(LAYERS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Leave all unticked to show every layer."),
    )
    service_status = forms.ChoiceField(
        label=_("Device service status"),
        choices=[("", _("Any"))] + list(SERVICE_STATUSES.items()),
        required=False,
    )
    permit_status = forms.ChoiceField(
        label=_("Permit status"), choices=[("", _("Any"))] + list(PERMIT_STATUSES.items()), required=False
    )
    area = forms.ChoiceField(label=_("Area (ZIP code)"), required=False)
    spill_cause = forms.ChoiceField(
        label=_("Spill cause"), choices=[("", _("Any"))] + list(SPILL_CAUSES.items()), required=False
    )
    spills_from = forms.DateField(
        label=_("Spills from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    spills_to = forms.DateField(
        label=_("Spills to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["area"].choices = [("", _("Every area"))] + [(code, code) for code in areas()]

    def clean(self):
        data = super().clean()
        start, end = data.get("spills_from"), data.get("spills_to")
        if start and end and start > end:
            self.add_error("spills_to", _("The last day comes before the first: swap the two dates."))
        return data

    def filters(self) -> MapFilters:
        data = self.cleaned_data
        return MapFilters(
            layers=tuple(data.get("layers") or LAYERS),
            service_status=data.get("service_status") or "",
            permit_status=data.get("permit_status") or "",
            area=data.get("area") or "",
            spill_cause=data.get("spill_cause") or "",
            spills_from=data.get("spills_from"),
            spills_to=data.get("spills_to"),
        )


class YearForm(forms.Form):
    year = forms.IntegerField(
        label=_("Year"), error_messages={"invalid": "Enter a year as four digits, e.g. 2025."}
    )

    def __init__(self, *args, last_year: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.last_year = last_year
        field = self.fields["year"]
        field.widget.attrs.update({"min": FIRST_YEAR, "max": last_year})
        field.help_text = f"A calendar year from {FIRST_YEAR} to {last_year}."

    def clean_year(self) -> int:
        year = self.cleaned_data["year"]
        if not FIRST_YEAR <= year <= self.last_year:
            raise forms.ValidationError(
                f"Choose a year from {FIRST_YEAR} to {self.last_year}: {year} has no report."
            )
        return year
