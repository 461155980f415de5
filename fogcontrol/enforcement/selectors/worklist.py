"""The Hearing Officer's work list, built on the Hearing model: upcoming hearings, decisions due and
appeals open; and the penalty orders waiting for a second approval (two-person rule). A fixed number of queries, whatever the number of hearings."""

from __future__ import annotations

import datetime as dt

from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.selectors.orders import penalty_orders_waiting
from fogcontrol.permits.models import PermitOrder
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import town_calendar
from fogcontrol.rules.deadlines import appeal_due
from fogcontrol.rules.ruleset import CHAPTER_10_02


def _ruleset_picker():
    """The ruleset in force on a day, from every version read once (one query for the whole list)."""
    versions = list(RulesetVersion.objects.order_by("effective_from"))

    def on(day: dt.date):
        chosen = None
        for version in versions:
            if version.effective_from <= day:
                chosen = version
        return chosen.as_ruleset() if chosen else CHAPTER_10_02

    return on


def _hearings(user):
    return Hearing.objects.visible_to(user).select_related("case__establishment", "permit_order")


def hearing_worklist(user, *, today: dt.date) -> dict:
    """{"upcoming": hearings not yet held (soonest first), "decisions_due": held and undecided (by the
    decision's limit), "appeals_open": decided, with the appeal still possible or pending}."""
    upcoming = list(
        _hearings(user)
        .filter(held_on__isnull=True, waived_on__isnull=True, decided_on__isnull=True)
        .order_by("scheduled_on", "pk")
    )
    decisions_due = list(
        _hearings(user)
        .filter(held_on__isnull=False, decided_on__isnull=True)
        .order_by("decision_due_on", "pk")
    )
    appeals = []
    calendar, ruleset_on = town_calendar(), _ruleset_picker()
    for hearing in (
        _hearings(user)
        .filter(decided_on__isnull=False)
        .exclude(kind=Hearing.Kind.EMERGENCY)
        .order_by("-decided_on", "pk")
    ):
        if hearing.kind == Hearing.Kind.COMPLAINT:
            deadline = appeal_due(
                hearing.decided_on, ruleset=ruleset_on(hearing.decided_on), calendar=calendar
            )
            if today <= deadline.due:
                hearing.appeal_until, hearing.appeal_explanation = deadline.due, deadline.explanation.text()
                appeals.append(hearing)
        elif hearing.permit_order and hearing.permit_order.appeal_status in (
            PermitOrder.Appeal.OPEN,
            PermitOrder.Appeal.APPEALED,
        ):
            hearing.appeal_until, hearing.appeal_explanation = (
                None,
                hearing.permit_order.get_appeal_status_display(),
            )
            appeals.append(hearing)
    return {"today": today, "upcoming": upcoming, "decisions_due": decisions_due, "appeals_open": appeals,
            "penalties_waiting": list(penalty_orders_waiting(user))}  # fmt: skip
