"""Copies of record (F1, F5, F7): submissions kept exactly as received, impossible to alter quietly.

Reusable by any app whose submissions are records (servicing's manifests, permits' application
submissions; spill notifications next). To make a model a copy of record:

1. Subclass ``CopyOfRecord`` (abstract, in ``fogcontrol.core.models``). It adds: ``received_at`` (UTC), ``submitted_by`` and
   ``submitted_by_label``, ``submission`` (the exact submission as received, text), the record's
   place in its chain (``record_sequence``, ``previous_hash``), its hash (``record_hash``: an
   HMAC-SHA-256 under the record key, ``fogcontrol.core.record_keys``) and the key's epoch.
2. Write rows only with ``record_append(instance)``: it sets ``received_at``, takes the next
   place in the table's chain (the chain head is locked, so two writers cannot fork it), signs
   every stored field including the previous record's hash with the key, inserts, and moves the
   chain's head and signed seal (``RecordChainSeal``) forward. ``record_append_chunk(instances)``
   (``fogcontrol.core.record_chunk``) appends many rows of one table in order with the same
   hashes, head and seal, in one statement a chunk under the same triggers: for an ingest batch
   or a history loaded at once (the demo town, the benchmark generator).
3. In the model's migration, after CreateModel, add ``ProtectCopyOfRecord("<db_table>")``: it
   installs database triggers (SQLite and PostgreSQL) that refuse every UPDATE and DELETE, so no
   path (ORM, admin, raw SQL) changes a row, and an INSERT only appends at the chain head. The one
   exception is a purge after the retention period (F5): a DELETE is let through only for a row
   named in ``PurgedRecord`` under a recorded retention approval of the model's
   ``purge_record_class`` covering its ``purge_record_date_sql``, once the period has ended; the
   entry keeps the purged row's hash so the chain stays verifiable (``record_triggers``).
   Note: a later migration that alters the table on SQLite rebuilds it and drops its triggers; add
   ``ProtectCopyOfRecord`` again after such an operation. ``verify_chain`` reports missing triggers.
   A field added to the model later is not in the hashes of the rows stored before it: name it in
   the model's ``hash_fields_added_later`` (see ``hash_layouts``), or the chain stops verifying.
   Example: servicing 0005 (``Manifest.hauler_attested``).
4. A correction is a new record that points to the one it corrects (the model's own foreign key,
   e.g. ``Manifest.corrects``); nothing is ever edited in place.

``verify_chain(model)`` walks a chain and names the first broken link; ``fogcontrol
verify_records`` runs it over every copy-of-record model, and writes or checks signed
checkpoints (``record_checkpoints``).
"""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.utils import timezone

from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.models import GENESIS_HASH, CopyOfRecord, PurgedRecord, RecordChainHead, RecordChainSeal
from fogcontrol.core.record_hashing import (
    canonical_submission,
    chain_name,
    copy_of_record_models,
    hash_layouts,
    purge_entry_text,
    record_digest,
    record_mac,
    seal_text,
)
from fogcontrol.core.record_keys import Keyring, keyring
from fogcontrol.core.record_triggers import (
    ProtectCopyOfRecord,
    protection_installed,
    protection_sql,
    unprotection_sql,
)
from fogcontrol.core.record_verify import ChainReport, verify_chain

__all__ = [
    "ChainReport",
    "ProtectCopyOfRecord",
    "canonical_submission",
    "chain_name",
    "copy_of_record_models",
    "hash_layouts",
    "protection_installed",
    "protection_sql",
    "record_append",
    "record_digest",
    "record_purge",
    "seal_chain",
    "unprotection_sql",
    "verify_chain",
]


def seal_chain(seal: RecordChainSeal, *, ring: Keyring, sequence: int, last_hash: str) -> None:
    """Move a chain's seal to its last record and sign it under the current epoch."""
    seal.sealed_sequence = sequence
    seal.sealed_hash = last_hash
    seal.key_epoch = ring.current_epoch
    seal.seal = ring.mac(seal.key_epoch, "seal", seal_text(seal))


def _locked_seal(name: str, ring: Keyring) -> RecordChainSeal:
    seal = RecordChainSeal.objects.select_for_update().filter(chain=name).first()
    if seal is None:
        seal = RecordChainSeal(chain=name, legacy_until=0)
        seal_chain(seal, ring=ring, sequence=0, last_hash=GENESIS_HASH)
        seal.save(force_insert=True)
    return seal


def _locked_chain(model: type[CopyOfRecord]) -> tuple[Keyring, RecordChainHead, RecordChainSeal]:
    """The key ring (first: without a key nothing is written), and the chain's head and seal, locked."""
    ring = keyring()
    name = chain_name(model)
    head, _ = RecordChainHead.objects.select_for_update().get_or_create(chain=name)
    return ring, head, _locked_seal(name, ring)


def _stamp(instance: CopyOfRecord, *, ring: Keyring, received_at, submitted_by, label: str, sequence: int,
           previous: str) -> str:  # fmt: skip
    """Give ``instance`` its receipt, its place ``sequence`` after ``previous`` and its keyed hash."""
    instance.received_at = received_at
    instance.submitted_by = submitted_by
    instance.submitted_by_label = label
    instance.record_sequence = sequence
    instance.previous_hash = previous
    instance.key_epoch = ring.current_epoch
    instance.record_hash = record_mac(instance, ring=ring, epoch=instance.key_epoch)
    return instance.record_hash


def record_append(instance: CopyOfRecord, *, acting_user) -> CopyOfRecord:
    """Insert a copy of record at the end of its table's chain. Call inside a transaction."""
    ring, head, seal = _locked_chain(type(instance))
    _stamp(
        instance, ring=ring, received_at=timezone.now().astimezone(dt.UTC), submitted_by=person(acting_user),
        label=actor_label_for(acting_user)[:150], sequence=head.last_sequence + 1, previous=head.last_hash,
    )  # fmt: skip
    instance.save(force_insert=True)
    head.last_sequence = instance.record_sequence
    head.last_hash = instance.record_hash
    head.save(update_fields=["last_sequence", "last_hash"])
    seal_chain(seal, ring=ring, sequence=instance.record_sequence, last_hash=instance.record_hash)
    seal.save(update_fields=["sealed_sequence", "sealed_hash", "key_epoch", "seal"])
    return instance


def record_purge(
    instance: CopyOfRecord, *, record_date: dt.date, acting_user, reason: str, retention_approval_id: int
) -> PurgedRecord:
    """Destroy a copy of record whose retention has ended (the caller checks F5 and holds) under
    the Town's recorded approval (``retention_approval_id``).

    The purge entry is written first, signed with the record key; the trigger then lets this one
    DELETE through, and only if the approval covers ``record_date`` and F5's period has ended.
    """
    ring = keyring()
    purged = PurgedRecord(
        table_name=chain_name(type(instance)),
        record_id=instance.pk,
        record_sequence=instance.record_sequence,
        previous_hash=instance.previous_hash,
        record_hash=instance.record_hash,
        record_date=record_date,
        purged_at=timezone.now(),
        purged_by_label=actor_label_for(acting_user),
        reason=reason,
        retention_approval_id=retention_approval_id,
        key_epoch=ring.current_epoch,
    )
    purged.entry_mac = ring.mac(purged.key_epoch, "purge", purge_entry_text(purged))
    purged.save(force_insert=True)
    # Past the model's own guard (which refuses every other delete); related rows follow their
    # on_delete rules as usual.
    models.Model.delete(instance)
    return purged
