"""The forms of the enforcement pages."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.enforcement.models import Referral, ServiceMethod, Violation
from fogcontrol.registry.models import FoodServiceEstablishment

DATE = forms.DateInput(attrs={"type": "date"})


def _date(**kw):
    return forms.DateField(widget=DATE, **kw)


class ViolationForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=FoodServiceEstablishment.objects.none())
    provision = forms.CharField(max_length=16, help_text=_("The provision broken, e.g. C3."))
    kind = forms.ChoiceField(choices=Violation.Kind.choices, initial=Violation.Kind.OTHER,
                             help_text=_("The P7 penalty class."))  # fmt: skip
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    evidence = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("What shows the violation.")
    )
    began_on = _date(label=_("Began on"))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = FoodServiceEstablishment.objects.visible_to(user).filter(
            status=FoodServiceEstablishment.Status.ACTIVE
        )


class CureForm(forms.Form):
    cured_on = _date(label=_("Cured on"))
    evidence = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("What shows it was cured.")
    )


class CaseForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=FoodServiceEstablishment.objects.none())
    summary = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("As the establishment will read it.")
    )
    internal_notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                                     help_text=_("Staff only: never shown to the establishment."))  # fmt: skip

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = FoodServiceEstablishment.objects.visible_to(user).filter(
            status=FoodServiceEstablishment.Status.ACTIVE
        )


class _CaseViolationsForm(forms.Form):
    violations = forms.ModelMultipleChoiceField(
        queryset=Violation.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, case, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["violations"].queryset = case.violations.all()


class AddViolationsForm(forms.Form):
    violations = forms.ModelMultipleChoiceField(
        queryset=Violation.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, case, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["violations"].queryset = case.establishment.violations.exclude(case_links__case=case)


class _ServedForm(forms.Form):
    issued_on = _date(label=_("Issued on"))
    service_method = forms.ChoiceField(choices=ServiceMethod.choices)
    served_on = _date(label=_("Served on"))
    article_number = forms.CharField(
        max_length=64, required=False, help_text=_("For certified or registered mail.")
    )


class NoticeForm(_ServedForm, _CaseViolationsForm):
    required_action = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    correct_by = _date(label=_("Correct by"))


class CitationForm(_ServedForm):
    violation = forms.ModelChoiceField(queryset=Violation.objects.none())
    number = forms.CharField(max_length=40, help_text=_("The citation number (Chapter 1.01)."))
    amount = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0)

    def __init__(self, *args, case, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["violation"].queryset = case.violations.all()


class AgreementForm(forms.Form):
    agreed_on = _date(label=_("Agreed on"))
    signed_by = forms.CharField(max_length=200, help_text=_("Who signed for the establishment."))
    terms = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), help_text=_("H2: the terms."))
    milestones = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One milestone a line: the date (YYYY-MM-DD), a space, then what is to be done."),
    )

    def clean_milestones(self):
        rows = []
        for number, line in enumerate(self.cleaned_data["milestones"].splitlines(), start=1):
            if not line.strip():
                continue
            day, _space, what = line.strip().partition(" ")
            try:
                due_on = dt.date.fromisoformat(day)
            except ValueError:
                raise forms.ValidationError(f"Line {number}: start with the date as YYYY-MM-DD.") from None
            if not what.strip():
                raise forms.ValidationError(f"Line {number}: say what is to be done after the date.")
            rows.append({"due_on": due_on, "description": what.strip()})
        return rows


class MilestoneMetForm(forms.Form):
    met_on = _date(label=_("Met on"))
    evidence = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class ReferralForm(_CaseViolationsForm):
    kind = forms.ChoiceField(choices=Referral.Kind.choices)
    referred_on = _date(label=_("Referred on"))
    referred_to = forms.CharField(max_length=200)


class CloseCaseForm(forms.Form):
    closed_on = _date(label=_("Closed on"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class ReferralOutcomeForm(forms.Form):
    outcome = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    outcome_on = _date(label=_("Decided on"))
    amount_recovered = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0, required=False,
                                          help_text=_("P11 only: the judicial civil penalty recovered."))  # fmt: skip


class CitationPaidForm(forms.Form):
    paid_on = _date(label=_("Paid on"))
