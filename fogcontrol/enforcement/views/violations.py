"""The violations list (each with its P3 day count), opening one by hand and curing it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.enforcement import exports
from fogcontrol.enforcement.filters import ViolationFilter
from fogcontrol.enforcement.forms import CureForm, ViolationForm
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS
from fogcontrol.enforcement.selectors import violations as selectors
from fogcontrol.enforcement.services.violations import OFFICERS_ONLY, violation_cure, violation_open
from fogcontrol.program.selectors import town_today

PAGE_SIZE = 50


@login_required
def violation_list(request):
    """Violations the user may see, newest first, each with its day count (P3)."""
    filterset, rows = filtered_rows(ViolationFilter, request, selectors.violation_list(request.user))
    live_filters(filterset, request.path)
    page = paginate(request, rows, PAGE_SIZE)
    officer = has_role(request.user, ENFORCEMENT_OFFICERS)
    today = town_today()
    export = Export(
        "violations", exports.VIOLATION_COLUMNS, rows, prepare=lambda chunk: selectors.with_days(chunk, today)
    )
    rows = [
        (v, CureForm(auto_id=f"id_cure{v.pk}_%s") if officer and v.is_open else None)
        for v in selectors.with_days(page.object_list, today)
    ]
    return render_list(
        request,
        "enforcement/violation_list.html",
        {"filter": filterset, "page": page, "rows": rows, "can_open": officer},
        export=export,
    )


@login_required
def violation_new(request):
    require_role(request.user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    form = ViolationForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            violation = violation_open(acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, f"Violation of {violation.provision} opened.")
            return redirect("enforcement:violation_list")
    return render(
        request, "enforcement/violation_new.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
@require_POST
def violation_cure_view(request, pk: int):
    violation = found(selectors.violation_detail, request.user, pk)
    require_role(request.user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    form = CureForm(request.POST)
    if form.is_valid():
        try:
            violation_cure(acting_user=request.user, violation=violation, **form.cleaned_data)
            messages.success(request, f"Violation of {violation.provision} cured.")
        except (ValidationError, StateConflict, PermissionDenied) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.error(request, _("Give the day it was cured and what shows it."))
    return redirect("enforcement:violation_list")
