"""Reading the audit trail: the entries of a record, and its change history as pages show it
(`audit/partials/history.html`)."""

from collections.abc import Iterable

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


def change_history(
    user, instance: models.Model, *, limit: int = HISTORY_LIMIT, known: Iterable[models.Model] = ()
) -> list[dict] | None:
    """The record's audit entries, newest first, as (field, before, after) rows, each value as a
    person reads it: a choice's label, a related record's name, Yes/No. Staff only (None for anyone
    else, and the partial shows nothing). ``known``: related records the page has read already,
    whole (its parcel, parties, haulers), named from those rows rather than read again."""
    if not user.is_program_staff:
        return None
    meta = instance._meta
    fields = {field.attname: field for field in meta.concrete_fields}
    fields.update({field.name: field for field in meta.many_to_many})
    entries = [
        (
            entry,
            [
                (name, before, after)
                for name, before, after in entry.changed_fields()
                # A new record lists only the fields it was given.
                if name not in _HIDDEN_IN_HISTORY and not (entry.before is None and after in _EMPTY)
            ],
        )
        # The actor's label is stored on the entry: not the actor's user row joined (issue 16).
        for entry in audit_entries_for(instance).select_related(None)[:limit]
    ]
    names = _related_names(fields, (change for _, changes in entries for change in changes), known)
    return [
        {
            "entry": entry,
            "changes": [
                (
                    str(fields[name].verbose_name) if name in fields else name,
                    _readable(fields.get(name), before, names),
                    _readable(fields.get(name), after, names),
                )
                for name, before, after in changes
            ],
        }
        for entry, changes in entries
    ]


def _related_names(fields: dict, changes, known: Iterable[models.Model] = ()) -> dict:
    """The names of every related record the changes mention: one query per related model, however
    many entries mention it, and none for a model whose every record mentioned is ``known`` (issue
    16: an FSE's history names its parcel, parties and haulers, which its page has read already)."""
    wanted: dict[type, set] = {}
    for name, before, after in changes:
        field = fields.get(name)
        if field is None or not field.is_relation:
            continue
        for value in (before, after):
            ids = value if isinstance(value, list) else [value]
            wanted.setdefault(field.related_model, set()).update(i for i in ids if i is not None)
    names = {}
    for record in known:
        ids = wanted.get(type(record))
        if ids and record.pk in ids:
            names[(type(record), record.pk)] = str(record)
            ids.discard(record.pk)
    for model, ids in wanted.items():
        if ids:
            names.update({(model, obj.pk): str(obj) for obj in model._base_manager.filter(pk__in=ids)})
    return names


def _readable(field, value, names: dict):
    """A stored value as a person reads it. A record deleted since keeps its number, so the row still
    says which one it was."""
    if value in (None, "") or field is None:
        return value
    if field.is_relation:
        model = field.related_model
        label = str(model._meta.verbose_name)
        ids = value if isinstance(value, list) else [value]
        shown = [names.get((model, pk), f"{label} {pk} (no longer exists)") for pk in ids]
        return ", ".join(shown) if isinstance(value, list) else shown[0]
    if field.choices:
        return dict(field.flatchoices).get(value, value)
    if isinstance(value, bool):
        return "Yes" if value else "No"
    return value
