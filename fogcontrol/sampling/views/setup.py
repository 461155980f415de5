"""Discharge limits (D4, D5) and monitoring facilities (D7): each a list with, for the FOG
Manager, a form to add one; a facility is marked installed from its row."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.selectors import establishments_visible_to
from fogcontrol.sampling import exports, selectors, services
from fogcontrol.sampling.filters import DischargeLimitFilter, MonitoringFacilityFilter
from fogcontrol.sampling.forms import FacilityForm, InstalledForm, LimitForm
from fogcontrol.sampling.roles import (
    FACILITY_RECORDERS,
    FACILITY_SETTERS,
    FACILITY_STEPS,
    LIMIT_SETTERS,
    LIMIT_STEPS,
    require_step,
)

PAGE_SIZE = 50


def _establishments(user):
    return establishments_visible_to(user).order_by("business_name")


def _list(request, filter_class, rows, template, form, *, export, status=200, **extra):
    filterset, rows = filtered_rows(filter_class, request, rows)
    live_filters(filterset, request.path)
    context = {"filter": filterset, "page": paginate(request, rows, PAGE_SIZE), "form": form, **extra}
    name, columns = export
    return render_list(request, template, context, status=status, export=Export(name, columns, rows))


def _add_form(request, form_class, *, setters, steps, today_field, save):
    """(form, response) for a setup list's add-one form: a valid POST answers with `save`'s
    redirect; an invalid one (or a service's refusal) gives the form back with its errors; a GET
    gives a blank form (dated today) to those in `setters`, and no form to the others."""
    if request.method == "POST":
        require_step(request.user, "create", steps)
        form = form_class(request.POST, establishments=_establishments(request.user))
        if form.is_valid():
            try:
                return form, save(form.cleaned_data)
            except ValidationError as exc:
                show_service_errors(form, exc)
        return form, None
    if has_role(request.user, setters):
        initial = {today_field: town_today()}
        return form_class(establishments=_establishments(request.user), initial=initial), None
    return None, None


@login_required
def limit_list(request):
    """D4, D5: the discharge limits in the permits' conditions; the FOG Manager adds one here."""

    def save(data):
        limit = services.limit_set(acting_user=request.user, **data)
        messages.success(request, f"Limit recorded: {limit}.")
        return redirect("sampling:limits")

    form, done = _add_form(
        request, LimitForm, setters=LIMIT_SETTERS, steps=LIMIT_STEPS, today_field="effective_from", save=save
    )
    if done:
        return done
    return _list(
        request,
        DischargeLimitFilter,
        selectors.limit_list(request.user),
        "sampling/limit_list.html",
        form,
        export=("discharge-limits", exports.LIMIT_COLUMNS),
        status=400 if request.method == "POST" else 200,
    )


@login_required
def facility_list(request):
    """D7: the monitoring facilities required of FSEs, overdue first; the FOG Manager adds one."""

    def save(data):
        facility = services.facility_require(acting_user=request.user, **data)
        messages.success(request, f"Facility required: due {facility.due_on:%b %-d, %Y} (D7).")
        return redirect("sampling:facilities")

    form, done = _add_form(
        request,
        FacilityForm,
        setters=FACILITY_SETTERS,
        steps=FACILITY_STEPS,
        today_field="required_on",
        save=save,
    )
    if done:
        return done
    return _list(
        request,
        MonitoringFacilityFilter,
        selectors.facility_list(request.user),
        "sampling/facility_list.html",
        form,
        export=("monitoring-facilities", exports.FACILITY_COLUMNS),
        status=400 if request.method == "POST" else 200,
        today=town_today(),
        can_record=has_role(request.user, FACILITY_RECORDERS),
    )


@login_required
@require_POST
def facility_installed(request, pk: int):
    facility = found(selectors.facility_detail, request.user, pk)
    require_step(request.user, "installed", FACILITY_STEPS)
    form = InstalledForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the day the facility was installed."))
        return redirect("sampling:facilities")
    try:
        services.facility_installed(facility=facility, acting_user=request.user, **form.cleaned_data)
        messages.success(request, _("Installation recorded (D7)."))
    except (ValidationError, StateConflict) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    return redirect("sampling:facilities")
