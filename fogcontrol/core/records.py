"""Copies of record (F1, F5, F7): submissions kept exactly as received, impossible to alter quietly.

Reusable by any app whose submissions are records (servicing's manifests, permits' application
submissions; spill notifications next). To make a model a copy of record:

1. Subclass ``CopyOfRecord`` (abstract, in ``fogcontrol.core.models``). It adds: ``received_at`` (UTC), ``submitted_by`` and
   ``submitted_by_label``, ``submission`` (the exact submission as received, text), the record's
   place in its chain (``record_sequence``, ``previous_hash``) and its SHA-256 (``record_hash``).
2. Write rows only with ``record_append(instance)``: it sets ``received_at``, takes the next
   place in the table's chain (the chain head is locked, so two writers cannot fork it), hashes
   every stored field including the previous record's hash, and inserts.
3. In the model's migration, after CreateModel, add ``ProtectCopyOfRecord("<db_table>")``: it
   installs database triggers (SQLite and PostgreSQL) that refuse every UPDATE and DELETE, so no
   path (ORM, admin, raw SQL) changes a row. The one exception is a purge after the retention
   period (F5): a DELETE is let through only for a row named in ``PurgedRecord``, which keeps the
   purged row's hash so the chain stays verifiable.
   Note: a later migration that alters the table on SQLite rebuilds it and drops its triggers; add
   ``ProtectCopyOfRecord`` again after such an operation. ``verify_chain`` reports missing triggers.
   A field added to the model later is not in the hashes of the rows stored before it: name it in
   the model's ``hash_fields_added_later`` (see ``hash_layouts``), or the chain stops verifying.
   Example: servicing 0005 (``Manifest.hauler_attested``).
4. A correction is a new record that points to the one it corrects (the model's own foreign key,
   e.g. ``Manifest.corrects``); nothing is ever edited in place.

``verify_chain(model)`` walks a chain and names the first broken link; ``fogcontrol
verify_records`` runs it over every copy-of-record model.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from decimal import Decimal

from django.apps import apps
from django.db import connection, models
from django.db.migrations.operations.base import Operation
from django.utils import timezone

from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.models import GENESIS_HASH, CopyOfRecord, PurgedRecord, RecordChainHead

# Fields left out of the hash: the row id (assigned by the database after hashing) and the hash.
_UNHASHED = frozenset({"id", "record_hash"})


# --- hashing -----------------------------------------------------------------------------------


def _canonical(field: models.Field, value):
    """A stored value as text that reads back identically from SQLite and PostgreSQL."""
    if value is None:
        return None
    if isinstance(field, models.DecimalField):
        return str(Decimal(value).quantize(Decimal(1).scaleb(-field.decimal_places)))
    if isinstance(field, models.DateTimeField):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(field, models.DateField):
        return value.isoformat()
    if isinstance(field, models.FileField):
        return str(value) or None
    if isinstance(field, models.BooleanField | models.IntegerField):
        return value
    return str(value)


def record_digest(instance: models.Model, *, leave_out: frozenset[str] = frozenset()) -> str:
    """SHA-256 over every stored field of the row (with the previous record's hash), as canonical JSON.

    ``leave_out`` names fields added to the model after the row was stored (see ``hash_layouts``).
    """
    payload = {
        field.attname: _canonical(field, getattr(instance, field.attname))
        for field in instance._meta.concrete_fields
        if field.attname not in _UNHASHED and field.name not in leave_out
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hash_layouts(model: type[models.Model]) -> list[frozenset[str]]:
    """The fields each generation of a chain's rows was hashed without, oldest generation first.

    A field added to a copy-of-record model after rows were stored is not in those rows' hashes.
    The model names such fields, oldest first, in ``hash_fields_added_later``; a new row is hashed
    over every field (the last layout leaves nothing out). Rows of an older layout may only come
    before rows of a newer one in the chain (``verify_chain``).
    """
    added = tuple(getattr(model, "hash_fields_added_later", ()))
    return [frozenset(added[generation:]) for generation in range(len(added) + 1)]


def canonical_submission(data) -> str:
    """The exact submission as JSON text: keys sorted, so the same body always reads the same."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def chain_name(model: type[models.Model]) -> str:
    return model._meta.db_table


def record_append(instance: CopyOfRecord, *, acting_user) -> CopyOfRecord:
    """Insert a copy of record at the end of its table's chain. Call inside a transaction."""
    head, _ = RecordChainHead.objects.select_for_update().get_or_create(chain=chain_name(type(instance)))
    instance.received_at = timezone.now().astimezone(dt.UTC)
    instance.submitted_by = person(acting_user)
    instance.submitted_by_label = actor_label_for(acting_user)[:150]
    instance.record_sequence = head.last_sequence + 1
    instance.previous_hash = head.last_hash
    instance.record_hash = record_digest(instance)
    instance.save(force_insert=True)
    head.last_sequence = instance.record_sequence
    head.last_hash = instance.record_hash
    head.save(update_fields=["last_sequence", "last_hash"])
    return instance


def record_purge(instance: CopyOfRecord, *, record_date: dt.date, acting_user, reason: str) -> PurgedRecord:
    """Destroy a copy of record whose retention has ended (the caller checks F5 and holds).

    The purge entry is written first; the trigger then lets this one DELETE through.
    """
    label = actor_label_for(acting_user)
    purged = PurgedRecord.objects.create(
        table_name=chain_name(type(instance)),
        record_id=instance.pk,
        record_sequence=instance.record_sequence,
        previous_hash=instance.previous_hash,
        record_hash=instance.record_hash,
        record_date=record_date,
        purged_by_label=label,
        reason=reason,
    )
    # Past the model's own guard (which refuses every other delete); related rows follow their
    # on_delete rules as usual.
    models.Model.delete(instance)
    return purged


# --- verification ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ChainReport:
    chain: str
    records: int
    purged: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_broken_link(self) -> str | None:
        return self.problems[0] if self.problems else None


def copy_of_record_models() -> list[type[CopyOfRecord]]:
    return [model for model in apps.get_models() if issubclass(model, CopyOfRecord)]


def _merged(model) -> Iterator[tuple[int, object, PurgedRecord | None]]:
    """Live rows and purge entries of a chain, in sequence order, without loading either whole."""
    live = model.objects.order_by("record_sequence").iterator(chunk_size=2000)
    purged = (
        PurgedRecord.objects.filter(table_name=chain_name(model))
        .order_by("record_sequence")
        .iterator(chunk_size=2000)
    )
    next_live, next_purged = next(live, None), next(purged, None)
    while next_live is not None or next_purged is not None:
        if next_purged is None or (
            next_live is not None and next_live.record_sequence < next_purged.record_sequence
        ):
            yield next_live.record_sequence, next_live, None
            next_live = next(live, None)
        else:
            yield next_purged.record_sequence, None, next_purged
            next_purged = next(purged, None)


def verify_chain(model: type[CopyOfRecord]) -> ChainReport:
    """Walk a chain from its first record; list every broken link, the first one first (F7)."""
    name = chain_name(model)
    label = model._meta.verbose_name
    problems: list[str] = []
    if not protection_installed(name):
        problems.append(
            f"{name}: the triggers that refuse UPDATE and DELETE are missing; records can be altered."
        )
    expected_sequence, expected_previous = 1, GENESIS_HASH
    records = purged_count = 0
    layouts = hash_layouts(model)
    oldest_layout_left = 0  # a row hashed under a newer layout closes the older ones
    for sequence, row, purge in _merged(model):
        stored_previous = row.previous_hash if row is not None else purge.previous_hash
        stored_hash = row.record_hash if row is not None else purge.record_hash
        where = f"{label} #{row.pk if row is not None else purge.record_id} (sequence {sequence})"
        if sequence != expected_sequence:
            missing = f"{expected_sequence}" + (
                f"-{sequence - 1}" if sequence - 1 > expected_sequence else ""
            )
            problems.append(
                f"{name}: record(s) at sequence {missing} are missing: deleted without a purge entry."
            )
        if stored_previous != expected_previous:
            problems.append(f"{name}: {where} does not link to the record before it: the chain was broken.")
        if row is not None:
            records += 1
            layout = _matching_layout(row, stored_hash, layouts, oldest_layout_left)
            if layout is not None:
                oldest_layout_left = layout
            else:
                problems.append(
                    f"{name}: {where} was altered after it was received: its contents no longer match its SHA-256."
                )
        else:
            purged_count += 1
        expected_sequence, expected_previous = sequence + 1, stored_hash
    head = RecordChainHead.objects.filter(chain=name).first()
    if head is not None and head.last_sequence != expected_sequence - 1:
        problems.append(
            f"{name}: the chain ends at sequence {expected_sequence - 1} but {head.last_sequence} records were "
            "appended: the last record(s) were deleted."
        )
    elif head is not None and head.last_sequence and head.last_hash != expected_previous:
        problems.append(f"{name}: the last record's hash differs from the one recorded when it was appended.")
    return ChainReport(chain=name, records=records, purged=purged_count, problems=tuple(problems))


def _matching_layout(row, stored_hash: str, layouts: list[frozenset[str]], oldest: int) -> int | None:
    """The newest hash layout, no older than ``oldest``, under which the row matches its hash."""
    for generation in range(len(layouts) - 1, oldest - 1, -1):
        if record_digest(row, leave_out=layouts[generation]) == stored_hash:
            return generation
    return None


# --- database protection -----------------------------------------------------------------------

_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION fogcontrol_copy_of_record_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_ARGV[0] = 'purgeable' AND EXISTS (
      SELECT 1 FROM servicing_purgedrecord p WHERE p.table_name = TG_TABLE_NAME AND p.record_id = OLD.id
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'copy of record: rows of % cannot be changed or deleted (F1, F7); submit a correction', TG_TABLE_NAME
    USING ERRCODE = 'integrity_constraint_violation';
END
$$;
"""


def _trigger_names(table: str) -> tuple[str, str]:
    return f"{table}_refuse_update", f"{table}_refuse_delete"


def protection_sql(vendor: str, table: str, *, purgeable: bool = True) -> list[str]:
    """The statements that make ``table`` append-only on ``vendor`` (sqlite or postgresql)."""
    update_trigger, delete_trigger = _trigger_names(table)
    if vendor == "sqlite":
        purge_clause = (
            f'WHEN NOT EXISTS (SELECT 1 FROM "servicing_purgedrecord" p '
            f'WHERE p."table_name" = \'{table}\' AND p."record_id" = OLD."id") '
            if purgeable
            else ""
        )
        return [
            f'CREATE TRIGGER IF NOT EXISTS "{update_trigger}" BEFORE UPDATE ON "{table}" BEGIN '
            f"SELECT RAISE(ABORT, 'copy of record: rows of {table} cannot be changed (F1, F7); submit a correction'); END",
            f'CREATE TRIGGER IF NOT EXISTS "{delete_trigger}" BEFORE DELETE ON "{table}" {purge_clause}BEGIN '
            f"SELECT RAISE(ABORT, 'copy of record: rows of {table} cannot be deleted before they are purged "
            f"after their retention period (F5)'); END",
        ]
    if vendor == "postgresql":
        argument = "purgeable" if purgeable else "strict"
        return [
            _PG_FUNCTION,
            f'DROP TRIGGER IF EXISTS "{update_trigger}" ON "{table}"',
            f'CREATE TRIGGER "{update_trigger}" BEFORE UPDATE OR DELETE ON "{table}" '
            f"FOR EACH ROW EXECUTE FUNCTION fogcontrol_copy_of_record_guard('{argument}')",
        ]
    raise NotImplementedError(f"No copy-of-record triggers for the {vendor} database.")


def unprotection_sql(vendor: str, table: str) -> list[str]:
    update_trigger, delete_trigger = _trigger_names(table)
    if vendor == "sqlite":
        return [f'DROP TRIGGER IF EXISTS "{update_trigger}"', f'DROP TRIGGER IF EXISTS "{delete_trigger}"']
    if vendor == "postgresql":
        return [f'DROP TRIGGER IF EXISTS "{update_trigger}" ON "{table}"']
    raise NotImplementedError(f"No copy-of-record triggers for the {vendor} database.")


def protection_installed(table: str, using=None) -> bool:
    conn = using or connection
    update_trigger, delete_trigger = _trigger_names(table)
    with conn.cursor() as cursor:
        if conn.vendor == "sqlite":
            cursor.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s AND name IN (%s, %s)",
                [table, update_trigger, delete_trigger],
            )
            return cursor.fetchone()[0] == 2
        if conn.vendor == "postgresql":
            cursor.execute(
                "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE c.relname = %s AND t.tgname = %s AND t.tgenabled <> 'D'",
                [table, update_trigger],
            )
            return cursor.fetchone()[0] == 1
    return False


class ProtectCopyOfRecord(Operation):
    """Migration operation: make a table append-only with database triggers (see module docstring).

    ``ProtectCopyOfRecord("servicing_manifest")``; ``purgeable=False`` for tables whose rows may
    never be deleted at all (the purge log itself).
    """

    reduces_to_sql = True
    reversible = True

    def __init__(self, table: str, purgeable: bool = True):
        self.table = table
        self.purgeable = purgeable

    def deconstruct(self):
        return self.__class__.__name__, [self.table], {"purgeable": self.purgeable}

    def state_forwards(self, app_label, state):
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        for statement in protection_sql(
            schema_editor.connection.vendor, self.table, purgeable=self.purgeable
        ):
            schema_editor.execute(statement, params=None)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        for statement in unprotection_sql(schema_editor.connection.vendor, self.table):
            schema_editor.execute(statement, params=None)

    def describe(self):
        return f"Make {self.table} a copy of record (refuse UPDATE and DELETE)"
