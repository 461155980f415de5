"""The Hearing Officer's work list: hearings coming up, written decisions due (by the rules' dates:
L4, M3; the P6 appeal window for complaints) and appeals open. Staff only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from fogcontrol.core.views import staff_only
from fogcontrol.enforcement.selectors.worklist import hearing_worklist
from fogcontrol.program.selectors import town_today


@login_required
def worklist(request):
    staff_only(request.user)
    return render(request, "enforcement/worklist.html", hearing_worklist(request.user, today=town_today()))
