from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.servicing.models import ManifestFlag


class BulkFlagReviewForm(forms.Form):
    """One decision for many flags: the outcome and one note for all (required to refer)."""

    outcome = forms.ChoiceField(
        choices=[
            (ManifestFlag.Review.CLEARED, "Cleared: no action"),
            (ManifestFlag.Review.REFERRED, "Refer for enforcement"),
        ],
        label=_("Outcome for every selected flag"),
    )
    note = forms.CharField(
        required=False,
        max_length=500,
        label=_("Note (one reason for all; required to refer)"),
    )
    select_all = forms.BooleanField(required=False, label=_("All flags matching the filters, on every page"))

    def clean(self):
        data = super().clean()
        if data.get("outcome") == ManifestFlag.Review.REFERRED and not (data.get("note") or "").strip():
            self.add_error(
                "note", _("Say why the manifests are referred for enforcement (one reason for all).")
            )
        return data


def selected_ids(values) -> tuple[list[int], str]:
    """The ticked flags' ids, or why they cannot be read."""
    ids = []
    for value in values:
        if not str(value).isdigit():
            return [], f"{value!r} is not a flag id; tick the flags in the list."
        ids.append(int(value))
    return ids, ""
