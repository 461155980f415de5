"""The audit trail: every write to a regulated record leaves one entry (who, what, when, before/after)."""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models


class AuditEntry(models.Model):
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # Kept beside the foreign key so the trail still names a user who was later removed,
    # and names the command or job that acted when no user did.
    actor_label = models.CharField(max_length=150)
    action = models.CharField(max_length=64)
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT)
    object_id = models.CharField(max_length=64)
    object_repr = models.CharField(max_length=255)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["content_type", "object_id", "-at"])]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label} {self.action} {self.object_repr}"

    def changed_fields(self) -> list[tuple[str, object, object]]:
        before = self.before or {}
        after = self.after or {}
        names = sorted(set(before) | set(after))
        return [
            (name, before.get(name), after.get(name)) for name in names if before.get(name) != after.get(name)
        ]
