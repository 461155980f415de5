"""A calendar feed token: a private address a calendar app subscribes to, without a session.

The token itself is shown once, when it is made; only its SHA-256 hash is stored, so a copy of the
database does not hand out anyone's calendar. A revoked token answers 404, as one never made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.scoping import NOTHING, ScopedQuerySet


class FeedTokenQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        """Each user sees and revokes only their own feeds, staff included (a token is a key)."""
        return Q(user=user) if user.pk else NOTHING


class FeedToken(models.Model):
    """One private calendar feed of one user: what it holds (`kind`) is what the user may see."""

    class Kind(models.TextChoices):
        SERVICE_DUE = "service_due", _("Service due dates (E4)")
        HEARINGS = "hearings", _("Hearings")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="feed_tokens")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    label = models.CharField(
        max_length=100, blank=True, help_text="Your name for it, e.g. the phone it is on."
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    # The first characters of the token, so its owner can tell two feeds apart; never enough to use.
    token_prefix = models.CharField(max_length=8, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = FeedTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} feed {self.token_prefix}… of {self.user}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
