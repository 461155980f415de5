"""What a copy of record's hash covers, and the keyed HMAC that replaced the plain SHA-256.

Rows stored before the chain was keyed (``key_epoch`` NULL) keep their SHA-256 over the canonical
JSON of their fields (``record_digest``). Every row since carries ``record_mac``: an HMAC-SHA-256
of the same text under the key of its epoch (fogcontrol.core.record_keys), which whoever writes
to the database cannot recompute. Purge entries and chain seals are signed the same way.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from decimal import Decimal

from django.apps import apps
from django.db import models

from fogcontrol.core.models import CopyOfRecord
from fogcontrol.core.record_keys import Keyring

# Left out of the hash: the row id (assigned by the database after hashing), the hash itself, and
# the key epoch (signed as part of the HMAC's message instead, so it is covered either way).
_UNHASHED = frozenset({"id", "record_hash", "key_epoch"})


def _canonical(field: models.Field, value):
    """A stored value as text that reads back identically from SQLite and PostgreSQL."""
    if value is None:
        return None
    return _canonicaliser(field)(value)


def _canonicaliser(field: models.Field):
    """``_canonical`` for one field, its type's branch chosen once (a chunk hashes thousands of rows)."""
    if isinstance(field, models.DecimalField):
        quantum = Decimal(1).scaleb(-field.decimal_places)
        return lambda value: str(Decimal(value).quantize(quantum))
    if isinstance(field, models.DateTimeField):
        return lambda value: value.astimezone(dt.UTC).isoformat()
    if isinstance(field, models.DateField):
        return lambda value: value.isoformat()
    if isinstance(field, models.FileField):
        return lambda value: str(value) or None
    if isinstance(field, models.BooleanField | models.IntegerField):
        return None  # the value itself
    return str


# sort_keys as before; one encoder for every row instead of a new one a call (json.dumps with options).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_PLANS: dict[tuple[type, frozenset], list] = {}


def _plan(model: type[models.Model], leave_out: frozenset[str]) -> list:
    """The hashed fields of ``model`` as ``(attname, canonicaliser)``, in key order, once a model."""
    key = (model, leave_out)
    plan = _PLANS.get(key)
    if plan is None:
        fields = [
            field
            for field in model._meta.concrete_fields
            if field.attname not in _UNHASHED and field.name not in leave_out
        ]
        plan = _PLANS[key] = sorted(
            ((field.attname, _canonicaliser(field)) for field in fields), key=lambda item: item[0]
        )
    return plan


def record_text(instance: models.Model, *, leave_out: frozenset[str] = frozenset()) -> str:
    """Every stored field of the row (with the previous record's hash), as canonical JSON."""
    payload = {}
    for attname, canonical in _plan(type(instance), leave_out):
        value = getattr(instance, attname)
        payload[attname] = value if value is None or canonical is None else canonical(value)
    return _ENCODER.encode(payload)


def record_digest(instance: models.Model, *, leave_out: frozenset[str] = frozenset()) -> str:
    """The plain SHA-256 of the rows stored before the chain was keyed (``key_epoch`` NULL).

    ``leave_out`` names fields added to the model after the row was stored (see ``hash_layouts``).
    """
    return hashlib.sha256(record_text(instance, leave_out=leave_out).encode("utf-8")).hexdigest()


def record_mac(instance: models.Model, *, ring: Keyring, epoch: int) -> str:
    """The keyed hash of a row: HMAC-SHA-256 of every stored field under the epoch's key."""
    return ring.mac(epoch, f"record:{instance._meta.db_table}", record_text(instance))


def hash_layouts(model: type[models.Model]) -> list[frozenset[str]]:
    """The fields each generation of a chain's rows was hashed without, oldest generation first.

    A field added to a copy-of-record model after rows were stored is not in those rows' hashes.
    The model names such fields, oldest first, in ``hash_fields_added_later``; a new row is hashed
    over every field (the last layout leaves nothing out). Rows of an older layout may only come
    before rows of a newer one in the chain (``verify_chain``).
    """
    added = tuple(getattr(model, "hash_fields_added_later", ()))
    return [frozenset(added[generation:]) for generation in range(len(added) + 1)]


def purge_entry_text(entry) -> str:
    """What a purge entry's HMAC covers: every field but its id and the HMAC itself."""
    return json.dumps(
        [
            entry.table_name,
            entry.record_id,
            entry.record_sequence,
            entry.previous_hash,
            entry.record_hash,
            entry.record_date.isoformat(),
            entry.purged_at.astimezone(dt.UTC).isoformat(),
            entry.purged_by_label,
            entry.reason,
            entry.retention_approval_id,
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )


def seal_text(seal) -> str:
    return f"{seal.chain}:{seal.legacy_until}:{seal.sealed_sequence}:{seal.sealed_hash}"


def chain_name(model: type[models.Model]) -> str:
    return model._meta.db_table


def copy_of_record_models() -> list[type[CopyOfRecord]]:
    return [model for model in apps.get_models() if issubclass(model, CopyOfRecord)]


def canonical_submission(data) -> str:
    """The exact submission as JSON text: keys sorted, so the same body always reads the same."""
    return _SUBMISSION_ENCODER.encode(data)


_SUBMISSION_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
