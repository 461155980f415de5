"""Reading the audit trail: the entries of a record, and its change history as pages show it
(`audit/partials/history.html`)."""

from django.contrib.contenttypes.models import ContentType
from django.db import models

from fogcontrol.audit.models import AuditEntry


def audit_entries_for(instance: models.Model):
    content_type = ContentType.objects.get_for_model(instance, for_concrete_model=True)
    return AuditEntry.objects.filter(content_type=content_type, object_id=str(instance.pk)).select_related(
        "actor"
    )


# How many entries a record's page shows; the audit API lists them all.
HISTORY_LIMIT = 50
# Bookkeeping columns that change on every save and tell a reader nothing.
_HIDDEN_IN_HISTORY = {"id", "created_at", "updated_at"}
_EMPTY = (None, "", [], {})


def change_history(user, instance: models.Model, *, limit: int = HISTORY_LIMIT) -> list[dict] | None:
    """The record's audit entries, newest first, as (field, before, after) rows. Staff only (None
    for anyone else, and the partial shows nothing)."""
    if not user.is_program_staff:
        return None
    meta = instance._meta
    labels = {field.attname: str(field.verbose_name) for field in meta.concrete_fields}
    labels.update({field.name: str(field.verbose_name) for field in meta.many_to_many})
    return [
        {
            "entry": entry,
            "changes": [
                (labels.get(name, name), before, after)
                for name, before, after in entry.changed_fields()
                # A new record lists only the fields it was given.
                if name not in _HIDDEN_IN_HISTORY and not (entry.before is None and after in _EMPTY)
            ],
        }
        for entry in audit_entries_for(instance)[:limit]
    ]
