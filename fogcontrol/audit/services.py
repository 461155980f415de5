"""Writing the audit trail. Services call `audit_record` inside their own transaction; set-based
changes (sweeps, bulk loads) call `audit_records_bulk`, one INSERT per batch."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from collections.abc import Iterable
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.set_sql import insert_values


def snapshot(instance: models.Model) -> dict[str, Any]:
    """The instance's concrete field values (and many-to-many ids), JSON-ready."""
    attnames, many_to_many = _snapshot_plan(type(instance))
    data: dict[str, Any] = {}
    for attname in attnames:
        value = getattr(instance, attname)
        data[attname] = value if value.__class__ in _PLAIN else _json_value(value)
    if many_to_many and instance.pk is not None:
        for field in many_to_many:
            data[field.name] = sorted(obj.pk for obj in getattr(instance, field.name).all())
    return data


_PLAIN = frozenset({str, int, bool, float, type(None)})  # what ``_json_value`` returns as it is
_SNAPSHOT_PLANS: dict[type, tuple[tuple[str, ...], tuple]] = {}


def _snapshot_plan(model: type[models.Model]) -> tuple[tuple[str, ...], tuple]:
    """The fields a snapshot holds, once a model: a set-based write snapshots thousands of rows."""
    plan = _SNAPSHOT_PLANS.get(model)
    if plan is None:
        skip = getattr(model, "concurrency_field", None)  # a save's own counter, not the record's content
        attnames = tuple(f.attname for f in model._meta.concrete_fields if f.attname != skip)
        plan = _SNAPSHOT_PLANS[model] = (attnames, tuple(model._meta.many_to_many))
    return plan


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if hasattr(value, "name") and hasattr(value, "storage"):  # a FieldFile
        return value.name or None
    return value


def audit_record(
    *,
    acting_user,
    action: str,
    instance: models.Model,
    before: dict | None = None,
    after: dict | None = None,
    note: str = "",
) -> AuditEntry:
    """Write one audit entry. `acting_user` is a User, or a label such as "seed_demo" for jobs."""
    return AuditEntry.objects.create(
        actor=person(acting_user),
        actor_label=actor_label_for(acting_user),
        action=action,
        content_type=ContentType.objects.get_for_model(instance, for_concrete_model=True),
        object_id=str(instance.pk),
        object_repr=str(instance)[:255],
        before=before,
        after=after,
        note=note,
    )


def audit_entries(
    *,
    acting_user,
    action: str,
    changes: Iterable[tuple[models.Model, dict | None, dict | None]],
    note: str = "",
) -> list[AuditEntry]:
    """The entries ``audit_records_bulk`` writes, unsaved: for a caller that writes the entries of
    several actions in one statement (``core.set_sql.insert_rows``)."""
    # By id, not instance: setting a relation through its descriptor is most of an entry's cost.
    return [
        AuditEntry(**values)
        for values in audit_entry_values(acting_user=acting_user, action=action, changes=changes, note=note)
    ]


def audit_entry_values(
    *,
    acting_user,
    action: str,
    changes: Iterable[tuple[models.Model, dict | None, dict | None]],
    note: str = "",
) -> list[dict[str, Any]]:
    """The fields of the entries ``audit_entries`` builds, as value lists (one mapping an entry, no
    model instance): for a set-based write that inserts them as values (``core.set_sql.insert_values``,
    the manifest ingest). ``at`` is left to the write (``auto_now_add``, as an instance's)."""
    actor, label = person(acting_user), actor_label_for(acting_user)
    actor_id = actor.pk if actor is not None else None
    types: dict[type, int] = {}
    rows = []
    for instance, before, after in changes:
        model = type(instance)
        content_type_id = types.get(model)
        if content_type_id is None:
            content_type_id = types[model] = ContentType.objects.get_for_model(
                instance, for_concrete_model=True
            ).pk
        rows.append(
            {
                "actor_id": actor_id,
                "actor_label": label,
                "action": action,
                "content_type_id": content_type_id,
                "object_id": str(instance.pk),
                "object_repr": str(instance)[:255],
                "before": before,
                "after": after,
                "note": note,
            }
        )
    return rows


def audit_records_bulk(
    *,
    acting_user,
    action: str,
    changes: Iterable[tuple[models.Model, dict | None, dict | None]],
    note: str = "",
    batch_size: int = 500,
) -> int:
    """Write the entries of a set-based change: one INSERT per `batch_size` rows, one entry per
    record with its own before and after (`changes` yields `(instance, before, after)`).

    For sweeps and bulk loads that change many rows at once with UPDATE or bulk_create: the
    history of every record stays complete, whoever changed it. Call it inside the transaction
    that changes the rows. Returns how many entries were written. The entries go in as value rows
    (`core.set_sql.insert_values`: no instance a row, and one statement a batch where SQLite's
    parameter limit made `bulk_create` take one per few dozen rows; the stored rows are the same).
    """
    rows = audit_entry_values(acting_user=acting_user, action=action, changes=changes, note=note)
    for start in range(0, len(rows), batch_size):
        insert_values(AuditEntry, rows[start : start + batch_size])
    return len(rows)


def audited_bulk_update(
    queryset: models.QuerySet, *, acting_user, action: str, note: str = "", **fields
) -> int:
    """Lock the rows of `queryset` (in primary-key order), set `fields` on them in one UPDATE and
    audit each row's before and after in bulk (`audit_records_bulk`). A value may be an `F("name")`
    of the row's own field. Call it inside the caller's transaction; returns how many rows changed."""
    rows = list(queryset.select_for_update().order_by("pk"))
    if not rows:
        return 0
    befores = [snapshot(row) for row in rows]
    queryset.model.objects.filter(pk__in=[row.pk for row in rows]).update(**fields)
    for row in rows:
        for name, value in fields.items():
            setattr(row, name, getattr(row, value.name) if isinstance(value, models.F) else value)
    audit_records_bulk(
        acting_user=acting_user,
        action=action,
        changes=[(row, before, snapshot(row)) for row, before in zip(rows, befores, strict=True)],
        note=note,
    )
    return len(rows)
