"""Specialty FOG Compliance Charges (D6) pages: the list (staff all; the FSE its own, read-only),
recording a charge (FOG Manager, inspectors) and cancelling one with its reason (FOG Manager)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.inspections import selectors, services
from fogcontrol.inspections.exports import CHARGE_COLUMNS
from fogcontrol.inspections.filters import ComplianceChargeFilter
from fogcontrol.inspections.forms import ChargeCancelForm, ComplianceChargeForm
from fogcontrol.inspections.roles import CHARGE_CANCELLERS, CHARGE_RECORDERS, require_step
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.selectors import establishments_visible_to

PAGE_SIZE = 50


@login_required
def charge_list(request):
    """D6 charges the user may see, newest first, filtered."""
    filterset, rows = filtered_rows(ComplianceChargeFilter, request, selectors.charge_list(request.user))
    live_filters(filterset, request.path)
    context = {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "can_record": has_role(request.user, CHARGE_RECORDERS),
        "can_cancel": has_role(request.user, CHARGE_CANCELLERS),
    }
    export = Export("compliance-charges", CHARGE_COLUMNS, rows)
    return render_list(request, "inspections/charge_list.html", context, export=export)


@login_required
def charge_new(request):
    """D6: record a charge, priced from the fee schedule in force on the day it was incurred."""
    require_step(request.user, "charge_record")
    establishments = establishments_visible_to(request.user).order_by("business_name")
    initial = {"incurred_on": town_today()}
    for name in ("establishment", "inspection", "kind"):
        if request.GET.get(name, "").isdigit() or (name == "kind" and request.GET.get(name)):
            initial[name] = request.GET[name]
    form = ComplianceChargeForm(request.POST or None, establishments=establishments, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = dict(form.cleaned_data)
            inspection_id = data.pop("inspection")
            inspection = (
                selectors.inspections_visible_to(request.user).filter(pk=inspection_id).first()
                if inspection_id
                else None
            )
            if inspection_id and inspection is None:
                form.add_error("inspection", "No inspection with this id is on record for you.")
            else:
                try:
                    charge = services.compliance_charge_record(
                        acting_user=request.user, inspection=inspection, **data
                    )
                except ValidationError as exc:
                    show_service_errors(form, exc)
                else:
                    messages.success(
                        request, f"Charge of ${charge.amount} recorded ({charge.get_kind_display()})."
                    )
                    return redirect("inspections:charges")
    return render(request, "inspections/charge_form.html", {"form": form}, status=status)


@login_required
@require_POST
def charge_cancel(request, pk: int):
    """D6: the FOG Manager cancels a charge with the reason (audited; the record stays)."""
    charge = found(selectors.charge_detail, request.user, pk)
    require_step(request.user, "charge_cancel")
    form = ChargeCancelForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the reason for cancelling the charge."))
        return redirect("inspections:charges")
    try:
        services.compliance_charge_cancel(charge=charge, acting_user=request.user, **form.cleaned_data)
        messages.success(request, f"Charge {charge.pk} cancelled.")
    except (ValidationError, StateConflict) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    return redirect("inspections:charges")
