"""Feed tokens: made (the token shown once, its hash kept) and revoked, each audited."""

from __future__ import annotations

import hashlib
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.feeds.models import FeedToken

# Who may have which feed: every user has devices to follow (staff all, an FSE or owner its own, a
# hauler its customers'); hearings are for those who may see hearings (a hauler sees none).
HEARING_FEED_ROLES = frozenset({Role.FSE, Role.PROPERTY_OWNER})
# A user keeps at most this many live feeds (one per calendar app or phone is plenty).
MOST_LIVE_FEEDS = 20


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def kinds_for(user) -> list[str]:
    """The feeds this user may make."""
    kinds = [FeedToken.Kind.SERVICE_DUE]
    if user.is_program_staff or user.role in HEARING_FEED_ROLES:
        kinds.append(FeedToken.Kind.HEARINGS)
    return kinds


@transaction.atomic
def feed_token_create(*, user, kind: str, label: str = "", acting_user) -> tuple[FeedToken, str]:
    """A new private feed for `user`; returns it and the token, which is never shown again."""
    if kind not in kinds_for(user):
        offered = ", ".join(str(FeedToken.Kind(k).label) for k in kinds_for(user))
        raise ValidationError({"kind": _("You may make these feeds: %(offered)s.") % {"offered": offered}})
    live = FeedToken.objects.filter(user=user, revoked_at__isnull=True).count()
    if live >= MOST_LIVE_FEEDS:
        raise ValidationError(
            {
                "kind": _(
                    "You have %(live)s live feeds, the most allowed: revoke one you no longer use first."
                )
                % {"live": live}
            }
        )
    raw = secrets.token_urlsafe(32)
    token = FeedToken.objects.create(
        user=user, kind=kind, label=label.strip(), token_hash=token_hash(raw), token_prefix=raw[:6]
    )
    audit_record(
        acting_user=acting_user, action="feed_token_create", instance=token,
        after={"kind": kind, "label": token.label, "user": user.pk},
    )  # fmt: skip
    return token, raw


@transaction.atomic
def feed_token_revoke(*, token: FeedToken, acting_user) -> FeedToken:
    """The feed stops working at once: its address answers 404 from now on."""
    token = FeedToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is not None:
        raise StateConflict("This feed was already revoked.")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit_record(
        acting_user=acting_user, action="feed_token_revoke", instance=token,
        before={"revoked_at": None}, after={"revoked_at": token.revoked_at.isoformat()},
    )  # fmt: skip
    return token
