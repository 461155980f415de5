"""The one form that proposes a change of a device's service frequency (E1, B7, A2), as a card any
page can embed: the device's service page and the permit's page show the same card, post to the
same view and call the same service (`frequency_change`), so the two pages cannot disagree.

    {% load servicing_frequency %}
    {% frequency_change_card device next_url=request.path %}
"""

from __future__ import annotations

from django import template

from fogcontrol.rules import maintenance
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.forms import FrequencyChangeForm
from fogcontrol.servicing.permissions import can_set_frequency
from fogcontrol.servicing.services.frequency import pending_change

register = template.Library()


@register.inclusion_tag("servicing/partials/frequency_change.html", takes_context=True)
def frequency_change_card(context, device, form=None, next_url="", changes=None):
    """The device's frequency, its pending change (with who was told), and, for the FOG Manager,
    the form that proposes a change (replacing the pending one) or withdraws it. ``changes``: every
    change of the device's frequency, when the page has read them all (a device's history: its
    ``frequency_changes``); the pending one is found among them, not read again (issue 16)."""
    request = context["request"]
    ruleset = ProgramContext().ruleset()
    if changes is None:
        pending = pending_change(device)
    else:
        # B7: at most one is pending (a database constraint), as ``pending_change`` reads it.
        pending = next((change for change in changes if change.status == "pending"), None)
    may_set = can_set_frequency(request.user)
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "device": device,
        "current_days": device.assigned_frequency_days or maintenance.default_frequency(device.kind, ruleset),
        "is_default": device.assigned_frequency_days is None,
        "shared": device.establishments.count() > 1,
        "notice_days": ruleset.frequency_change_notice_days,
        "pending": pending,
        "told": list(pending.notices.all()) if pending else [],
        "can_set": may_set,
        "form": form
        if form is not None
        else (FrequencyChangeForm(allowed=sorted(ruleset.allowed_frequencies_days)) if may_set else None),
        "next_url": next_url,
    }
