"""The dashboard's pages: the global search and the bulk-review work queue. The "today" panels are
the staff home (fogcontrol/views.py renders `dashboard/partials/today.html` from `today_for`)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import paginate, render_list, staff_only
from fogcontrol.dashboard import search as global_search
from fogcontrol.dashboard.forms import BulkFlagReviewForm, selected_ids
from fogcontrol.dashboard.selectors import flag_queue
from fogcontrol.dashboard.services import BULK_LIMIT, flags_review_bulk
from fogcontrol.servicing.exports import FLAG_COLUMNS
from fogcontrol.servicing.filters import FlagFilter
from fogcontrol.servicing.permissions import REVIEWERS, STEP_ROLES

PAGE_SIZE = 50
FILTER_FIELDS = ("review", "code")
NOTHING_SELECTED = "No flag is selected: tick the flags to review, or select all that match."


@login_required
def search(request):
    """The full results page, or (htmx, from the header's box) the live results under the box."""
    text, problem = global_search.clean_query(request.GET.get("q"))
    live = bool(request.htmx) and request.GET.get("live") == "1"
    limit = global_search.LIVE_LIMIT if live else global_search.PAGE_LIMIT
    groups = global_search.search(request.user, text, limit=limit) if text and not problem else []
    context = {"q": text, "problem": problem, "groups": groups, "limit": limit, "live": live}
    template = "dashboard/search.html#live-results" if live else "dashboard/search.html"
    response = render(request, template, context, status=400 if problem else 200)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _filter_params(data) -> dict:
    params = {name: data.get(name) for name in FILTER_FIELDS if data.get(name)}
    params.setdefault("review", "open")
    return params


def _filtered(request, params: dict):
    """The flag list's FilterSet (servicing's, the same as /servicing/flags/) and the rows it selects."""
    filterset = FlagFilter(params, queryset=flag_queue(request.user), request=request)
    return filterset, (filterset.qs if filterset.is_valid() else flag_queue(request.user).none())


@login_required
def flag_queue_page(request):
    """Manifest flags to review, many at once (F4): tick some or all that match the filters, choose
    one outcome and one note, confirm, and read what was done and what was refused with why."""
    user = request.user
    staff_only(user)
    if request.method == "POST":
        require_role(user, *STEP_ROLES["review"])
        return _bulk_review(request)
    filterset, rows = _filtered(request, _filter_params(request.GET))
    context = {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "form": BulkFlagReviewForm(),
        "can_review": has_role(user, REVIEWERS),
        "limit": BULK_LIMIT,
    }
    export = Export("flag-queue", FLAG_COLUMNS, rows)
    return render_list(request, "dashboard/flag_queue.html", context, export=export)


def _bulk_review(request):
    user = request.user
    form = BulkFlagReviewForm(request.POST)
    ids, problem = selected_ids(request.POST.getlist("flag"))
    params = _filter_params(request.POST)
    filterset, matching = _filtered(request, params)
    if not form.is_valid() or problem or not filterset.is_valid():
        return _back(request, form, problem or "Check the outcome and the note.", params)
    chosen = matching if form.cleaned_data["select_all"] else flag_queue(user).filter(pk__in=ids)
    count = chosen.count()
    if not count:
        return _back(request, form, NOTHING_SELECTED, params)
    if request.POST.get("confirmed") != "yes":
        context = {"form": form, "count": count, "ids": ids, "params": params, "limit": BULK_LIMIT}
        return render(request, "dashboard/flag_confirm.html", context)
    try:
        result = flags_review_bulk(flags=chosen, acting_user=user, **_decision(form))
    except ValidationError as error:
        return _back(request, form, " ".join(error.messages), params)
    return render(
        request, "dashboard/flag_result.html", {"result": result, "params": params, **_decision(form)}
    )


def _decision(form) -> dict:
    return {"outcome": form.cleaned_data["outcome"], "note": form.cleaned_data["note"]}


def _back(request, form, problem: str, params: dict):
    filterset, rows = _filtered(request, params)
    context = {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "form": form,
        "problem": problem,
        "can_review": True,
        "limit": BULK_LIMIT,
    }
    return render(request, "dashboard/flag_queue.html", context, status=400)
