"""The rules calculator page (/rules/): deadlines, service frequency and penalty caps.

One page, three GET forms. Without JavaScript a form reloads the page with its answer; with htmx
only the form's card is swapped (``calculator/calculator.html#<name>-card``). The rules are public
law: every signed-in user opens the page, as every signed-in user may ask the rules API.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.views.decorators.http import require_GET

from fogcontrol.program.calculator import calculations, wording
from fogcontrol.program.calculator.forms import (
    DeadlineForm,
    FrequencyForm,
    ObservationRowForm,
    PenaltyForm,
    observation_rows,
)
from fogcontrol.program.selectors import program_settings_visible, town_today
from fogcontrol.rules.deadlines import UnknownProvision
from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR

TEMPLATE = "calculator/calculator.html"
# Blank observation rows offered when the frequency form first shows.
BLANK_ROWS = 3

# Which form a query string comes from: each form has a field no other form has.
ASKED_BY = (("deadline", "provision"), ("frequency", "device_kind"), ("penalty", "violation_kind"))


def _asked(query) -> str | None:
    for name, field in ASKED_BY:
        if field in query:
            return name
    return None


def _add_errors(form, error: ValidationError, fields: dict[str, str | None]) -> None:
    """Put a calculation's refusal beside the form field it names (None: above the form)."""
    for field, messages in error.message_dict.items():
        target = fields.get(field, field if field in form.fields else None)
        form.add_error(target, messages)


def _deadline_section(query, today) -> dict:
    if query is None:
        return {"deadline_form": DeadlineForm(initial={"start": today}), "deadline": None}
    form = DeadlineForm(query)
    answer = None
    if form.is_valid():
        try:
            answer = calculations.deadline_for(
                provision=form.cleaned_data["provision"],
                start=form.cleaned_data["start"],
                frequency_days=form.cleaned_data["frequency_days"],
            )
        except UnknownProvision:
            form.add_error("provision", "Choose one of the rules in the list.")
        except ValidationError as error:
            _add_errors(form, error, {"start": "start"})
    return {"deadline_form": form, "deadline": answer}


def _frequency_section(query, today) -> dict:
    if query is None:
        return {
            "frequency_form": FrequencyForm(initial={"device_kind": GRAVITY_INTERCEPTOR}),
            "observation_forms": [ObservationRowForm(auto_id=False) for _ in range(BLANK_ROWS)],
            "frequency": None,
        }
    adding_a_row = "add_row" in query
    if adding_a_row:
        # Without JavaScript, "Add a row" reloads the form as typed, one row longer, unjudged.
        form = FrequencyForm(initial=query.dict())
        rows = [ObservationRowForm(initial=row.data, auto_id=False) for row in observation_rows(query)]
    else:
        form = FrequencyForm(query)
        rows = observation_rows(query)
    blank = max(BLANK_ROWS - len(rows), 0) + (1 if adding_a_row else 0)
    section = {
        "frequency_form": form,
        "observation_forms": rows + [ObservationRowForm(auto_id=False) for _ in range(blank)],
        "frequency": None,
    }
    if adding_a_row:
        return section
    rows_valid = [row.is_valid() for row in rows]
    if not (form.is_valid() and all(rows_valid)):
        return section
    observations = [row.cleaned_data for row in rows]
    total = form.cleaned_data["total_depth_in"]
    row_errors = calculations.observation_errors(total, observations)
    for row, errors in zip(rows, row_errors, strict=True):
        for field, message in errors.items():
            row.add_error(field, message)
    if any(row_errors):
        return section
    try:
        section["frequency"] = calculations.frequency_for(
            kind=form.cleaned_data["device_kind"], total_depth_in=total, observations=observations, on=today
        )
    except ValidationError as error:
        _add_errors(form, error, {"kind": "device_kind", "observations": None, "as_of": None})
    return section


def _penalty_section(query, today) -> dict:
    if query is None:
        return {"penalty_form": PenaltyForm(), "penalty": None}
    form = PenaltyForm(query)
    answer = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            answer = calculations.penalty_for(
                kind=data["violation_kind"],
                days=data["days"],
                occurrences=data["occurrences"],
                under_order=data["under_order"],
                judicially_recovered=data["judicially_recovered"],
                on=today,
            )
        except ValidationError as error:
            _add_errors(form, error, {"kind": "violation_kind", "as_of": None})
    return {"penalty_form": form, "penalty": answer}


@login_required
@require_GET
def calculator(request):
    """Work out a deadline (Counting days), a service frequency (E1-E4) or a penalty cap (P7)."""
    today = town_today()
    asked = _asked(request.GET)
    context = {
        "today": today,
        # The calendar page is Town staff's; everyone else is told which calendar, without a link.
        "may_see_calendar": program_settings_visible(request.user),
        "rule_groups": [(wording.section(s), rules) for s, rules in calculations.deadline_rule_groups()],
        **_deadline_section(request.GET if asked == "deadline" else None, today),
        **_frequency_section(request.GET if asked == "frequency" else None, today),
        **_penalty_section(request.GET if asked == "penalty" else None, today),
    }
    if request.htmx and asked:
        return render(request, f"{TEMPLATE}#{asked}-card", context)
    return render(request, TEMPLATE, context)


@login_required
@require_GET
def observation_row(request):
    """One more blank observation row, appended by htmx."""
    return render(request, f"{TEMPLATE}#observation-row", {"row": ObservationRowForm(auto_id=False)})
