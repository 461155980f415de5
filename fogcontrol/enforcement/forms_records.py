"""Forms of the pages that record a step on one record of a case: the complaint's waiver and appeal
(P6), the suspension or revocation order's appeal (L6), service reinstated (O2)."""

from __future__ import annotations

from django import forms

from fogcontrol.enforcement.api.serializers_orders import COMPLAINT_APPEAL_STEPS, SUSPENSION_APPEAL_STEPS
from fogcontrol.enforcement.forms_orders import DATE


class WaiverForm(forms.Form):
    waived_on = forms.DateField(widget=DATE, help_text="P6: the day the respondent waived the hearing.")


class ComplaintAppealForm(forms.Form):
    appeal_status = forms.ChoiceField(
        choices=COMPLAINT_APPEAL_STEPS,
        label="Appeal",
        help_text="P6: first the appeal filed with the Town Clerk, then the Town Council's outcome.",
    )
    on = forms.DateField(widget=DATE, label="Date", help_text="The day it was filed, or decided.")
    outcome = forms.CharField(
        widget=forms.Textarea, required=False, help_text="The Town Council's decision (outcome only)."
    )


class OrderAppealForm(forms.Form):
    appeal_status = forms.ChoiceField(
        choices=SUSPENSION_APPEAL_STEPS,
        label="Appeal",
        help_text="L6: final when not appealed or upheld; a final order is applied to the permit.",
    )
    final_on = forms.DateField(
        widget=DATE, required=False, help_text="L6: the day the decision became final (final outcomes only)."
    )


class ReinstatementForm(forms.Form):
    reinstated_on = forms.DateField(widget=DATE)
    cost = forms.DecimalField(
        min_value=0, decimal_places=2, required=False, help_text="O2: the reinstatement cost."
    )
    owed_by = forms.CharField(required=False, help_text="O2: the owner, operator or permittee who pays.")
