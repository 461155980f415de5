"""The dashboard's reads: the "today" figures and trends for a user, and what its work queues hold.
Every count starts from the scoped selector of the list it stands for (figures.py)."""

from __future__ import annotations

from fogcontrol.core.permissions import has_role
from fogcontrol.core.queue import queue_health
from fogcontrol.dashboard import kept
from fogcontrol.dashboard.figures import dashboard_panels
from fogcontrol.dashboard.trends import dashboard_trends
from fogcontrol.permits.roles import DECIDERS
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, HaulerCompany, Parcel
from fogcontrol.registry.selectors import registry_counts
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


def registry_tiles(user, today) -> dict[str, int]:
    """The registry's tiles on the staff home: the program's size. From the kept counts (kept.py)
    where they stand for the user's lists (staff), read with the figures' in one query."""
    if not kept.covers(user, FoodServiceEstablishment, GreaseControlDevice, Parcel, HaulerCompany):
        return registry_counts(user)
    counts = kept.kept_counts(user, today)
    active = GreaseControlDevice.Status.ACTIVE
    return {
        "establishments_active": counts.get(f"fse:{FoodServiceEstablishment.Status.ACTIVE}"),
        "establishments_closed": counts.get(f"fse:{FoodServiceEstablishment.Status.CLOSED}"),
        "devices": counts.get(f"device:{active}"),
        "devices_flagged": counts.get("device_flagged"),
        "shared_devices": counts.get(kept.SHARED),
        "parcels": counts.get("parcel"),
        "haulers": counts.get("hauler_active"),
    }


def queue_for(user) -> dict:
    """The background queue, for the staff who may open the "Background work" page (the home page
    shows it; the API has its own, `GET /api/v1/worker/health/`)."""
    if not user.is_program_staff:
        return {}
    queue = queue_health()
    return {"queue": queue, "queue_oldest": _age_words(queue.oldest_queued_age)}


def _age_words(age) -> str:
    if age is None:
        return ""
    minutes = int(age.total_seconds() // 60)
    if minutes < 1:
        return "less than a minute"
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = minutes // 60
    return f"{hours} hours" if hours < 48 else f"{hours // 24} days"


def flag_queue(user):
    """The manifest flags the user may see (the queue the bulk review works on)."""
    return flags_to_review(user)
