"""The upload form and the mapping form of a licence import."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from fogcontrol.registry.imports.mapping import FIELDS


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Licence records export"),
        help_text="A .csv or .xlsx file whose first row names the columns; at most "
        f"{settings.FOGCONTROL_MAX_UPLOAD_BYTES // 1048576} MB.",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )


class MappingForm(forms.Form):
    """One choice of column per registry field, pre-filled with the proposed mapping."""

    def __init__(self, *args, headers: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "— not imported —")] + [(header, header) for header in headers]
        for field in FIELDS:
            self.fields[field.name] = forms.ChoiceField(
                label=field.label, choices=choices, required=field.required
            )

    def mapping(self) -> dict[str, str]:
        return {name: value for name, value in self.cleaned_data.items() if value}
