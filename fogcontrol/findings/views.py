"""The findings list, and closing a finding from it (FOG Manager and inspectors)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import found, live_filters, paginate, render_list
from fogcontrol.findings import selectors, services
from fogcontrol.findings.exports import FINDING_COLUMNS
from fogcontrol.findings.filters import FindingFilter
from fogcontrol.findings.forms import CloseFindingForm
from fogcontrol.findings.roles import FINDING_RECORDERS

PAGE_SIZE = 50


@login_required
def finding_list(request):
    """Findings the user may see, open ones first by default (``?open=true``)."""
    params = request.GET.copy()
    params.setdefault("open", "true")
    filterset = FindingFilter(params, queryset=selectors.finding_list(request.user), request=request)
    rows = filterset.qs if filterset.is_valid() else selectors.finding_list(request.user).none()
    live_filters(filterset, request.path)
    page = paginate(request, rows, PAGE_SIZE)
    export = Export("findings", FINDING_COLUMNS, rows)
    # Each finding's close form has its own ids, so each label names its own control.
    rows = [(finding, CloseFindingForm(auto_id=f"id_close{finding.pk}_%s")) for finding in page.object_list]
    context = {
        "filter": filterset,
        "page": page,
        "rows": rows,
        "can_close": has_role(request.user, FINDING_RECORDERS),
    }
    return render_list(request, "findings/finding_list.html", context, export=export)


@login_required
@require_POST
def finding_close(request, pk: int):
    finding = found(selectors.finding_detail, request.user, pk)
    # Who may close comes before what was sent: a role that may not close is refused (403).
    require_role(request.user, FINDING_RECORDERS, "Only the FOG Manager and inspectors close findings.")
    form = CloseFindingForm(request.POST)
    if form.is_valid():
        try:
            services.finding_close(finding=finding, acting_user=request.user, **form.cleaned_data)
            messages.success(request, f"Finding {finding.pk} ({finding.provision}) closed.")
        except (ValidationError, StateConflict, PermissionDenied) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.error(request, _("Give the day, how it was corrected and the evidence."))
    return redirect("findings:list")
