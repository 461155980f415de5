"""The work queue "Reminders to send" (issue #17): the reminders due today and not sent yet; the FOG
Manager or the Billing Clerk ticks some, or all that match the filters, confirms, and reads what was
sent, what had been sent already and what is no longer due (services.reminders_send_selected)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render

from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import paginate, render_list, staff_only
from fogcontrol.messaging import selectors, services
from fogcontrol.messaging.exports import REMINDER_COLUMNS
from fogcontrol.messaging.filters import ReminderQueueFilter
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.services.reminder_queue import BULK_LIMIT, SENDERS_ONLY
from fogcontrol.program.selectors import town_today

PAGE_SIZE = 50
TEMPLATE = "messaging/reminder_queue.html"


def _filtered(request, data):
    filterset = ReminderQueueFilter(data, request=request)
    rows = filterset.filter(selectors.reminders_to_send(request.user, on=town_today()))
    return filterset, rows


def _context(request, filterset, rows, problem="") -> dict:
    return {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "problem": problem,
        "can_send": has_role(request.user, MESSAGE_MANAGERS),
        "limit": BULK_LIMIT,
        "today": town_today(),
    }


@login_required
def reminder_queue(request):
    user = request.user
    staff_only(user)
    if request.method == "POST":
        require_role(user, MESSAGE_MANAGERS, SENDERS_ONLY)
        return _send(request)
    filterset, rows = _filtered(request, request.GET)
    export = Export("reminders-to-send", REMINDER_COLUMNS, rows)
    return render_list(request, TEMPLATE, _context(request, filterset, rows), export=export)


def _send(request):
    filterset, matching = _filtered(request, request.POST)
    select_all = request.POST.get("select_all") == "on"
    keys = [r.key for r in matching] if select_all else request.POST.getlist("reminder")
    if not filterset.is_valid():
        return _back(request, filterset, matching, "Check the filters.")
    if not keys:
        return _back(
            request,
            filterset,
            matching,
            "No reminder is selected: tick the reminders, or select all that match.",
        )
    if request.POST.get("confirmed") != "yes":
        context = {"count": len(keys), "keys": [] if select_all else keys, "select_all": select_all,
                   "params": filterset.params, "limit": BULK_LIMIT}  # fmt: skip
        return render(request, "messaging/reminder_confirm.html", context)
    try:
        result = services.reminders_send_selected(acting_user=request.user, keys=keys, on=town_today())
    except ValidationError as error:
        return _back(request, filterset, matching, " ".join(error.messages))
    return render(request, "messaging/reminder_result.html", {"result": result, "params": filterset.params})


def _back(request, filterset, rows, problem: str):
    return render(request, TEMPLATE, _context(request, filterset, rows, problem), status=400)
