"""The dashboard's reads: the "today" figures and trends for a user, and what its work queues hold.
Every count starts from the scoped selector of the list it stands for (figures.py)."""

from __future__ import annotations

from fogcontrol.core.permissions import has_role
from fogcontrol.dashboard.figures import dashboard_panels
from fogcontrol.dashboard.trends import dashboard_trends
from fogcontrol.permits.roles import DECIDERS
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing.permissions import REVIEWERS
from fogcontrol.servicing.selectors import flags_to_review


def today_for(user) -> dict:
    """What the staff home shows `user`: its role's panels and their trends, on the Town's today."""
    today = town_today()
    return {
        "as_of": today,
        "panels": dashboard_panels(user, today),
        "trends": dashboard_trends(user, today),
        "can_review_flags": has_role(user, REVIEWERS),
        "can_approve_renewals": has_role(user, DECIDERS),
    }


def flag_queue(user):
    """The manifest flags the user may see (the queue the bulk review works on)."""
    return flags_to_review(user)
