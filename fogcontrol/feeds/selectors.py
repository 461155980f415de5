"""Reads of the feeds app: a user's own feed tokens, the token behind a feed address, and what
each feed holds, scoped to the token's owner exactly as that user's pages are."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet

from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.selectors.orders import hearing_list
from fogcontrol.feeds.models import FeedToken
from fogcontrol.feeds.services import token_hash
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing.selectors import service_status_list

# How far back a hearings feed reaches: a calendar keeps recent hearings, not the program's history.
HEARINGS_PAST_DAYS = 365


def tokens_for(user) -> QuerySet[FeedToken]:
    """The user's own feeds, live ones first."""
    return FeedToken.objects.visible_to(user).order_by("revoked_at", "-created_at", "-pk")


def token_detail(user, pk) -> FeedToken:
    return tokens_for(user).get(pk=pk)


def live_token(raw: str) -> FeedToken:
    """The live feed behind an address (DoesNotExist for an unknown, revoked or disabled one)."""
    return FeedToken.objects.select_related("user").get(
        token_hash=token_hash(raw), revoked_at__isnull=True, user__is_active=True
    )


def service_due_devices(user) -> QuerySet[GreaseControlDevice]:
    """The devices the user may see that have a next service date (E4), with who they serve."""
    return service_status_list(user).filter(service_state__next_due__isnull=False)


def hearings_for(user, *, today: dt.date) -> QuerySet[Hearing]:
    """The hearings the user may see, from a year back on; a waived one is left out (P6)."""
    since = today - dt.timedelta(days=HEARINGS_PAST_DAYS)
    return (
        hearing_list(user)
        .filter(Q(scheduled_on__gte=since), waived_on__isnull=True)
        .order_by("scheduled_on", "pk")
    )
