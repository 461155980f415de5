"""The home page: the program at a glance for staff, a user's own records for everyone else."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from fogcontrol.billing.selectors import portal_accounts
from fogcontrol.core.roles import Role
from fogcontrol.dashboard.selectors import queue_for, registry_tiles, today_for
from fogcontrol.permits.selectors import permit_summary_for
from fogcontrol.program.selectors import program_read_once, town_today
from fogcontrol.registry.selectors import establishment_list
from fogcontrol.servicing.selectors import with_next_service_due


@login_required
# The Town's today, rules and calendar read once, from the profile the middleware read (issue 16).
@program_read_once
def home(request):
    user = request.user
    if user.is_program_staff:
        # The "today" dashboard (issue #17): the role's figures, each a link to its list, and trends;
        # the registry's tiles from the same kept counts (issue 16).
        today = today_for(user)
        counts = registry_tiles(user, today["as_of"])
        return render(request, "home_staff.html", {"counts": counts, **today, **queue_for(user)})
    today = town_today()
    establishments = list(with_next_service_due(establishment_list(user))[:50])
    context = {
        "establishments": establishments,
        "today": today,
        # B6: a permit is neither issued nor renewed on an expired business licence.
        "lapsed_licences": [
            fse
            for fse in establishments
            if user.role != Role.HAULER and fse.licence_expires_on and fse.licence_expires_on < today
        ],
    }
    if user.role in (Role.FSE, Role.PROPERTY_OWNER):
        # B1/B6: each establishment's permit, its expiry and what the FSE must do next.
        context["permit_entries"] = permit_summary_for(user)
        # Q1, Q2: what the user's accounts owe the Town, delinquent amounts first to notice.
        context["accounts"] = portal_accounts(user, today)
    return render(request, "home_portal.html", context)
