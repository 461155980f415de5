"""The inspection lists: the due list (D8, by priority with its reasons), the inspector's day,
all inspections, and scheduling a visit from the due list."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list, staff_only
from fogcontrol.inspections import selectors, services
from fogcontrol.inspections.due import inspections_due
from fogcontrol.inspections.exports import DUE_COLUMNS, INSPECTION_COLUMNS
from fogcontrol.inspections.filters import InspectionFilter
from fogcontrol.inspections.forms import ScheduleForm
from fogcontrol.inspections.roles import SCHEDULERS, require_step
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.selectors import establishment_detail

PAGE_SIZE = 50
SORTS = {"priority": "Priority", "due": "Due date"}


def _day(raw: str | None) -> dt.date:
    try:
        return dt.date.fromisoformat(raw) if raw else town_today()
    except ValueError:
        return town_today()


@login_required
def due_list(request):
    """D8: who is due by a day, highest priority first (or by due date), with the reasons."""
    staff_only(request.user)
    on = _day(request.GET.get("on"))
    sort = request.GET.get("sort") if request.GET.get("sort") in SORTS else "priority"
    items = inspections_due(request.user, on=on)
    if sort == "due":
        items.sort(key=lambda item: (item.due_on, -item.priority))
    return render_list(
        request,
        "inspections/due_list.html",
        {
            "on": on,
            "sort": sort,
            "sorts": SORTS,
            "items": items,
            # Read once for every row's form (no query per row).
            "inspectors": list(selectors.inspector_choices()),
            "today": town_today(),
            "can_schedule": has_role(request.user, SCHEDULERS),
        },
        export=Export("inspections-due", DUE_COLUMNS, items),
    )


@login_required
@require_POST
def schedule(request, establishment_pk: int):
    """Schedule (and assign) a visit to an establishment from the due list."""
    staff_only(request.user)
    establishment = found(establishment_detail, request.user, establishment_pk)
    require_step(request.user, "create")
    form = ScheduleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        return redirect("inspections:due")
    try:
        inspection = services.inspection_schedule(
            establishment=establishment, acting_user=request.user, **form.cleaned_data
        )
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
        return redirect("inspections:due")
    messages.success(
        request,
        f"Inspection of {establishment.business_name} scheduled for {inspection.scheduled_on:%b %-d}.",
    )
    return redirect("inspections:detail", inspection.pk)


@login_required
def day_list(request):
    """The inspector's visits for a day, by address, each with the site's open findings."""
    staff_only(request.user)
    day = _day(request.GET.get("on"))
    inspectors = list(selectors.inspector_choices())
    chosen = next((u for u in inspectors if str(u.pk) == request.GET.get("inspector")), None)
    inspector = chosen or (
        request.user if request.user in inspectors else (inspectors[0] if inspectors else None)
    )
    visits = selectors.inspector_day(request.user, inspector=inspector, day=day) if inspector else []
    open_items = selectors.open_findings_by_establishment(request.user, {v.establishment_id for v in visits})
    rows = [(visit, open_items.get(visit.establishment_id, [])) for visit in visits]
    return render(
        request,
        "inspections/day_list.html",
        {"day": day, "inspector": inspector, "inspectors": inspectors, "rows": rows},
    )


@login_required
def inspection_list(request):
    """Inspections the user may see (an FSE: its completed ones), filtered."""
    filterset, rows = filtered_rows(InspectionFilter, request, selectors.inspection_list(request.user))
    live_filters(filterset, request.path)
    return render_list(
        request,
        "inspections/inspection_list.html",
        {"filter": filterset, "page": paginate(request, rows, PAGE_SIZE)},
        export=Export("inspections", INSPECTION_COLUMNS, rows),
    )
