"""The work queue of routine permit renewals (B5, B6): tick some or all that match the filters,
confirm, and read what was renewed and what was refused with why (services.renewals_approve_bulk)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render

from fogcontrol.core.exports import Column, Export
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import paginate, render_list, staff_only
from fogcontrol.dashboard.forms import selected_ids
from fogcontrol.dashboard.services import BULK_LIMIT, renewals_approve_bulk, routine_renewals
from fogcontrol.permits.filters import ApplicationFilter
from fogcontrol.permits.roles import DECIDERS
from fogcontrol.permits.selectors import application_list

PAGE_SIZE = 50
FILTER_FIELDS = ("q", "status")
DECIDERS_ONLY = "Only the FOG Manager may approve renewals (B5)."
RENEWAL_QUEUE_COLUMNS = (
    Column("Application", lambda a: a.reference),
    Column("Establishment", lambda a: a.establishment.business_name),
    Column("Status", lambda a: a.get_status_display()),
    Column("Submitted", lambda a: a.submitted_at),
)


class BulkRenewalForm(forms.Form):
    note = forms.CharField(required=False, max_length=500, label="Note on each acceptance (optional)")
    select_all = forms.BooleanField(required=False, label="All renewals matching the filters, on every page")


def _queue(user):
    return routine_renewals(application_list(user)).order_by("submitted_at", "pk")


def _filtered(request, data):
    params = {name: data.get(name) for name in FILTER_FIELDS if data.get(name)}
    filterset = ApplicationFilter(params, queryset=_queue(request.user), request=request)
    rows = filterset.qs if filterset.is_valid() else _queue(request.user).none()
    return filterset, rows, params


@login_required
def renewal_queue_page(request):
    user = request.user
    staff_only(user)
    if request.method == "POST":
        require_role(user, DECIDERS, DECIDERS_ONLY)
        return _approve(request)
    filterset, rows, _params = _filtered(request, request.GET)
    context = _context(request, filterset, rows, BulkRenewalForm())
    export = Export("renewal-queue", RENEWAL_QUEUE_COLUMNS, rows)
    return render_list(request, "dashboard/renewal_queue.html", context, export=export)


def _context(request, filterset, rows, form, problem=""):
    return {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "form": form,
        "problem": problem,
        "can_approve": has_role(request.user, DECIDERS),
        "limit": BULK_LIMIT,
    }


def _approve(request):
    user = request.user
    form = BulkRenewalForm(request.POST)
    ids, problem = selected_ids(request.POST.getlist("application"))
    filterset, matching, params = _filtered(request, request.POST)
    if not form.is_valid() or problem or not filterset.is_valid():
        return _back(request, form, problem or "Check the note.", filterset, matching)
    chosen = matching if form.cleaned_data["select_all"] else _queue(user).filter(pk__in=ids)
    count = chosen.count()
    if not count:
        return _back(
            request,
            form,
            "No renewal is selected: tick the renewals, or select all that match.",
            filterset,
            matching,
        )
    note = form.cleaned_data["note"]
    if request.POST.get("confirmed") != "yes":
        context = {"count": count, "ids": ids, "params": params, "note": note, "limit": BULK_LIMIT,
                   "select_all": form.cleaned_data["select_all"]}  # fmt: skip
        return render(request, "dashboard/renewal_confirm.html", context)
    try:
        result = renewals_approve_bulk(applications=chosen, acting_user=user, note=note)
    except ValidationError as error:
        return _back(request, form, " ".join(error.messages), filterset, matching)
    return render(request, "dashboard/renewal_result.html", {"result": result, "params": params})


def _back(request, form, problem, filterset, rows):
    context = _context(request, filterset, rows, form, problem)
    return render(request, "dashboard/renewal_queue.html", context, status=400)
