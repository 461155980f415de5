"""Forms of the later steps' pages: each has ``preview(values)`` giving the dates or cap the rules
engine computes from what is filled in so far, shown before submitting."""

from __future__ import annotations

from django import forms

from fogcontrol.enforcement.api.serializers_orders import COMPLAINT_SERVICE_METHODS, PENALTY_SERVICE_METHODS
from fogcontrol.enforcement.models import HearingContinuance, PenaltyOrder
from fogcontrol.enforcement.services.penalties import FACTOR_FIELDS
from fogcontrol.permits.models import PermitOrder
from fogcontrol.program.selectors import ruleset_on, town_today

DATE = forms.DateInput(attrs={"type": "date"})


class RulesetWordedForm(forms.Form):
    """A form whose help texts state the ordinance's periods: ``ruleset_help`` maps a field to its
    text, with ``{r.<ruleset field>}`` filled from the ruleset in force today (never a literal)."""

    ruleset_help: dict[str, str] = {}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.ruleset_help:
            ruleset = ruleset_on(town_today())
            for name, text in self.ruleset_help.items():
                self.fields[name].help_text = text.format(r=ruleset)


class ComplaintForm(RulesetWordedForm):
    ruleset_help = {"hearing_on": "P5: within {r.complaint_hearing_days} days after service."}

    statement = forms.CharField(
        widget=forms.Textarea, help_text="P5: the acts or failures that are the violation."
    )
    law_violated = forms.CharField(help_text="P5: the provisions of law authorising the penalty.")
    proposed_penalty = forms.DecimalField(min_value=0, decimal_places=2)
    issued_on = forms.DateField(widget=DATE)
    service_method = forms.ChoiceField(choices=COMPLAINT_SERVICE_METHODS)
    served_on = forms.DateField(
        widget=DATE, required=False,
        help_text="Personal delivery: the day delivered. Certified mail: leave empty; the letter waits in the "
        "certified mail run and its mail log gives the day served (P5 counts from it).",
    )  # fmt: skip
    article_number = forms.CharField(required=False, help_text="Certified mail only.")
    hearing_on = forms.DateField(widget=DATE)
    hearing_place = forms.CharField()


class SuspensionNoticeForm(RulesetWordedForm):
    ruleset_help = {
        "hearing_on": "L2: {r.revocation_hearing_min_days} to {r.revocation_hearing_max_days} days after mailing."
    }

    kind = forms.ChoiceField(choices=[("suspension", "Suspension"), ("revocation", "Revocation")])
    grounds = forms.MultipleChoiceField(
        choices=PermitOrder.Ground.choices, widget=forms.CheckboxSelectMultiple
    )
    facts = forms.CharField(widget=forms.Textarea)
    mailed_on = forms.DateField(
        widget=DATE, required=False,
        help_text="L2: leave empty: the notice waits in the certified mail run, and the mail log's mailing date "
        "sets the hearing window. Give it only if the notice was already mailed.",
    )  # fmt: skip
    article_number = forms.CharField()
    hearing_on = forms.DateField(widget=DATE, required=False)
    hearing_place = forms.CharField()


class EmergencyForm(forms.Form):
    ordered_on = forms.DateField(widget=DATE)
    determination = forms.CharField(
        widget=forms.Textarea, help_text="M1: why the suspension is necessary now."
    )
    determined_by = forms.CharField(initial="FOG Manager")
    hearing_on = forms.DateField(
        widget=DATE, required=False, help_text="M3: blank sets the latest lawful date."
    )
    hearing_place = forms.CharField(required=False)


class PenaltyOrderForm(forms.Form):
    violation_kind = forms.ChoiceField(choices=PenaltyOrder.Kind.choices)
    days = forms.IntegerField(min_value=0, required=False, help_text="P3: per-day kinds.")
    occurrences = forms.IntegerField(min_value=0, required=False, help_text="Overflows.")
    under_order = forms.BooleanField(required=False, help_text="P7(5): an overflow while under an order.")
    amount = forms.DecimalField(min_value=0, decimal_places=2)
    hearing_officer_name = forms.CharField()
    harm = forms.CharField(widget=forms.Textarea)
    economic_benefit = forms.CharField(widget=forms.Textarea)
    nature_and_persistence = forms.CharField(widget=forms.Textarea)
    duration = forms.CharField(widget=forms.Textarea)
    corrective_action = forms.CharField(widget=forms.Textarea)


class PenaltyApproveForm(forms.Form):
    """The second person's approval: the order is issued on that day and served (P8)."""

    issued_on = forms.DateField(
        widget=DATE, help_text="The day the order is issued: the proposal's day or later."
    )
    service_method = forms.ChoiceField(choices=PENALTY_SERVICE_METHODS, help_text="P8.")
    served_on = forms.DateField(
        widget=DATE, required=False,
        help_text="Personal service: the day served. Registered mail: leave empty; the mail log gives the day "
        "served, and the appeal window (P6) counts from it.",
    )  # fmt: skip
    article_number = forms.CharField(required=False, help_text="Registered mail only.")
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class RefusalForm(forms.Form):
    """A refusal under the two-person rule: the reason is kept with the record."""

    note = forms.CharField(label="Reason", widget=forms.Textarea(attrs={"rows": 3}))


class TerminationForm(forms.Form):
    permit_order = forms.ModelChoiceField(queryset=PermitOrder.objects.none(), required=False,
                                          help_text="O1: the suspension or revocation order in effect.")  # fmt: skip
    terminated_on = forms.DateField(widget=DATE)
    how = forms.CharField(widget=forms.Textarea)
    cost = forms.DecimalField(
        min_value=0, decimal_places=2, required=False, help_text="O2: the disconnection cost."
    )
    owed_by = forms.CharField(required=False, help_text="O2: the owner, operator or permittee who pays.")

    def __init__(self, *args, case=None, **kwargs):
        super().__init__(*args, **kwargs)
        if case is not None:
            self.fields["permit_order"].queryset = PermitOrder.objects.filter(
                permit__establishment=case.establishment, applied_on__isnull=False
            )


class ContinuanceForm(RulesetWordedForm):
    ruleset_help = {"new_date": "L3: continuances total no more than {r.hearing_continuance_max_days} days."}
    new_date = forms.DateField(widget=DATE)
    requested_by = forms.ChoiceField(choices=HearingContinuance.RequestedBy.choices)
    reason = forms.CharField(widget=forms.Textarea)


class DecisionForm(forms.Form):
    held_on = forms.DateField(
        widget=DATE, required=False, help_text="Blank when the hearing was waived (P6)."
    )
    concluded_on = forms.DateField(widget=DATE, required=False)
    decided_on = forms.DateField(widget=DATE)
    hearing_officer_name = forms.CharField()
    outcome_text = forms.CharField(widget=forms.Textarea, label="Decision")
    outcome = forms.ChoiceField(
        choices=PermitOrder.Outcome.choices, help_text="Suspension and emergency hearings."
    )
    served_on = forms.DateField(widget=DATE, required=False)
    article_number = forms.CharField(required=False, help_text="Certified mail number of the decision.")


__all__ = ["FACTOR_FIELDS"]
