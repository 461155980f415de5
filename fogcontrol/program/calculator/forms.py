"""The calculator page's three GET forms: a deadline, a service frequency, a penalty cap.

Field names differ between the forms (``device_kind``, ``violation_kind``) so the three can sit on
one page and one query string says which was asked. The checks that need the ordinance come from
``fogcontrol.program.calculator.calculations``, the same ones the API applies.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from fogcontrol.program.calculator import calculations, wording

DATE_ERRORS = {
    "required": "Give the start date, e.g. 2026-06-18.",
    "invalid": "Not a date on the calendar. Give the date as YYYY-MM-DD, e.g. 2026-06-18.",
}
DEPTH_ERRORS = {
    "required": "Give the depth in inches (0 if none).",
    "invalid": "Give the depth in inches as a number, e.g. 3.5.",
    "min_value": "A depth cannot be negative; enter 0 if there was none.",
    "max_digits": "That depth is too large; give it in inches, e.g. 48.",
    "max_whole_digits": "That depth is too large; give it in inches, e.g. 48.",
    "max_decimal_places": "Give the depth to at most 2 decimal places, e.g. 3.25.",
}


class DateInput(forms.DateInput):
    input_type = "date"


def deadline_choices() -> list:
    """The rules grouped by section of the ordinance; each says what its start date is."""
    choices: list = [("", gettext("Choose a rule…"))]
    for section, rules in calculations.deadline_rule_groups():
        options = []
        for rule in rules:
            title, start = wording.start_and_title(rule)
            label = gettext("%(slug)s — %(title)s (start: %(start)s)")
            # The provision ID as the ordinance names it (two rules of G1 or M3: their titles differ).
            words = {"slug": rule.provisions[0], "title": title, "start": start.lower()}
            options.append((rule.slug, label % words))
        choices.append((wording.section(section), options))
    return choices


class DeadlineForm(forms.Form):
    provision = forms.ChoiceField(
        label=_("Rule"),
        choices=deadline_choices,
        error_messages={
            "required": "Choose the rule to count.",
            "invalid_choice": "Choose one of the rules in the list.",
        },
    )
    start = forms.DateField(
        label=_("Start date"),
        widget=DateInput(format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d"],
        error_messages=DATE_ERRORS,
        help_text=_("What the start date is depends on the rule: see the rule's description."),
    )

    frequency_days = forms.IntegerField(
        label=_("Service frequency (days)"),
        required=False,
        min_value=1,
        max_value=3650,
        help_text=_("For E1 only (next pump-out due): the device's service frequency, in days."),
        error_messages={
            "invalid": "Give the frequency as a whole number of days, e.g. 90.",
            "min_value": "Give 1 or more days.",
            "max_value": "Give at most 3650 days.",
        },
    )

    def clean_start(self):
        start = self.cleaned_data["start"]
        if not calculations.FIRST_DATE <= start <= calculations.LAST_DATE:
            raise forms.ValidationError(
                f"Give a date between {calculations.FIRST_DATE:%Y-%m-%d} and {calculations.LAST_DATE:%Y-%m-%d}."
            )
        return start


class FrequencyForm(forms.Form):
    device_kind = forms.ChoiceField(
        label=_("Device kind"),
        choices=[(key, _(label)) for key, label in calculations.DEVICE_KIND_LABELS.items()],
        error_messages={
            "required": "Choose the kind of device.",
            "invalid_choice": "Choose a kind in the list.",
        },
    )
    total_depth_in = forms.DecimalField(
        label=_("Total design hydraulic depth (inches)"),
        max_digits=7,
        decimal_places=2,
        error_messages={**DEPTH_ERRORS, "required": "Give the device's total design depth in inches."},
    )

    def clean_total_depth_in(self):
        value = self.cleaned_data["total_depth_in"]
        if value <= 0:
            raise forms.ValidationError("The total design depth must be more than 0 inches.")
        return value


class ObservationRowForm(forms.Form):
    """One observation row (E4, E9). Rendered by hand: every row uses the same three names."""

    days_since_pumpout = forms.IntegerField(
        min_value=1,
        max_value=3650,
        error_messages={
            "required": "Give the days since the last full pump-out.",
            "invalid": "Give the days as a whole number, e.g. 30.",
            "min_value": "Give 1 or more days.",
            "max_value": "Give at most 3650 days.",
        },
    )
    fog_depth_in = forms.DecimalField(
        min_value=0, max_digits=7, decimal_places=2, error_messages=DEPTH_ERRORS
    )
    solids_depth_in = forms.DecimalField(
        min_value=0, max_digits=7, decimal_places=2, error_messages=DEPTH_ERRORS
    )

    FIELDS = ("days_since_pumpout", "fog_depth_in", "solids_depth_in")


def observation_rows(query) -> list[ObservationRowForm]:
    """The filled observation rows of a query string (rows left blank are dropped), as bound forms."""
    columns = [query.getlist(name) for name in ObservationRowForm.FIELDS]
    rows = []
    for index in range(
        min(max((len(column) for column in columns), default=0), calculations.MAX_OBSERVATIONS)
    ):
        values = {
            name: (column[index] if index < len(column) else "").strip()
            for name, column in zip(ObservationRowForm.FIELDS, columns, strict=True)
        }
        if any(values.values()):
            rows.append(ObservationRowForm(data=values, auto_id=False))
    return rows


class PenaltyForm(forms.Form):
    violation_kind = forms.ChoiceField(
        label=_("Violation"),
        choices=[(key, _(label)) for key, label in calculations.VIOLATION_KIND_LABELS.items()],
        error_messages={
            "required": "Choose the violation.",
            "invalid_choice": "Choose a violation in the list.",
        },
    )
    days = forms.IntegerField(
        label=_("Days the violation continued"),
        required=False,
        min_value=1,
        max_value=36500,
        help_text=_("For a per-day violation: each day is a separate offence (P3)."),
        error_messages={
            "invalid": "Give a whole number of days, e.g. 3.",
            "min_value": "Give 1 or more days.",
        },
    )
    occurrences = forms.IntegerField(
        label=_("Overflows (occurrences)"),
        required=False,
        min_value=1,
        max_value=10000,
        help_text=_("For a sewer system overflow."),
        error_messages={"invalid": "Give a whole number, e.g. 2.", "min_value": "Give 1 or more."},
    )
    under_order = forms.BooleanField(
        label=_("Under a revocation, suspension, cease-and-desist or other order (P7(5))"), required=False
    )
    judicially_recovered = forms.BooleanField(
        label=_("Judicial civil penalties already recovered for this violation (P10)"), required=False
    )

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("violation_kind")
        if kind and not self.errors:
            errors = calculations.penalty_input_errors(
                kind=kind,
                days=cleaned.get("days"),
                occurrences=cleaned.get("occurrences"),
                under_order=cleaned.get("under_order", False),
            )
            for field, message in errors.items():
                self.add_error(field, message)
        return cleaned
