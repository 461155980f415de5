"""The Hearing Officer's work list: hearings coming up, written decisions due (by the rules' dates:
L4, M3; the P6 appeal window for complaints) and appeals open; and the list of hearings, filtered
(by case, kind, date, decided). Staff only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from fogcontrol.core.exports import Export
from fogcontrol.core.views import filtered_rows, paginate, render_list, staff_only
from fogcontrol.enforcement.exports import HEARING_COLUMNS
from fogcontrol.enforcement.filters_orders import HearingFilter
from fogcontrol.enforcement.selectors.orders import hearing_list as hearings_visible
from fogcontrol.enforcement.selectors.worklist import hearing_worklist
from fogcontrol.program.selectors import town_today


@login_required
def worklist(request):
    staff_only(request.user)
    return render(request, "enforcement/worklist.html", hearing_worklist(request.user, today=town_today()))


@login_required
def hearing_list(request):
    """Every hearing the user may see, by date (the filters the API's hearing list takes)."""
    staff_only(request.user)
    rows = hearings_visible(request.user).order_by("scheduled_on", "pk")
    filterset, rows = filtered_rows(HearingFilter, request, rows)
    return render_list(
        request,
        "enforcement/hearing_list.html",
        {"filter": filterset, "page": paginate(request, rows, 50)},
        export=Export("hearings", HEARING_COLUMNS, rows),
    )
