"""Walking a chain of copies of record and naming every broken link (F7; issue 15, finding 4).

A chain verifies when its triggers are installed, its sequence has no gap, every row links to the
one before, every keyed row's HMAC and every purge entry's HMAC holds under the keyring, no row
after the chain was keyed is unkeyed (``RecordChainSeal.legacy_until``), key epochs never go back,
and the chain's head and signed seal both name its last record. Rows stored before the chain was
keyed carry a plain SHA-256: anyone with the database can recompute those, so they are protected
only by a checkpoint taken since (``record_checkpoints``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from django.db import models

from fogcontrol.core.models import GENESIS_HASH, CopyOfRecord, PurgedRecord, RecordChainHead, RecordChainSeal
from fogcontrol.core.record_hashing import (
    chain_name,
    hash_layouts,
    purge_entry_text,
    record_digest,
    record_mac,
    seal_text,
)
from fogcontrol.core.record_keys import Keyring, RecordKeyMissing, keyring
from fogcontrol.core.record_triggers import protection_installed


@dataclasses.dataclass(frozen=True)
class ChainReport:
    chain: str
    records: int
    purged: int
    problems: tuple[str, ...]
    last_sequence: int = 0
    last_hash: str = GENESIS_HASH

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_broken_link(self) -> str | None:
        return self.problems[0] if self.problems else None


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


def _mac_holds(ring: Keyring, epoch: int, check) -> bool | None:
    """None when the keyring lacks the epoch's key (reported once, by the caller)."""
    try:
        return check()
    except RecordKeyMissing:
        return None


class _Walk:
    """The state of one walk along a chain: what was expected next, what went wrong."""

    def __init__(self, model: type[CopyOfRecord], ring: Keyring, legacy_until: int):
        self.model = model
        self.name = chain_name(model)
        self.label = model._meta.verbose_name
        self.ring = ring
        self.legacy_until = legacy_until
        self.layouts = hash_layouts(model)
        self.oldest_layout_left = 0  # a row hashed under a newer layout closes the older ones
        self.epoch = 0  # the newest key epoch seen so far: epochs never go back
        self.missing_keys: set[int] = set()
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(f"{self.name}: {text}")

    def _epoch_ok(self, epoch: int, where: str) -> None:
        if epoch < self.epoch:
            self.problem(f"{where} is signed under key epoch {epoch}, after a record of epoch {self.epoch}.")
        self.epoch = max(self.epoch, epoch)

    def _missing(self, epoch: int) -> None:
        if epoch not in self.missing_keys:
            self.missing_keys.add(epoch)
            self.problem(f"no key for epoch {epoch} in the keyring: its records cannot be verified.")

    def _unkeyed_after_upgrade(self, sequence: int, where: str) -> bool:
        if sequence > self.legacy_until:
            self.problem(
                f"{where} carries no key epoch but comes after the chain was keyed (sequence "
                f"{self.legacy_until}): it was written or rehashed without the key."
            )
            return True
        return False

    def row(self, sequence: int, row, where: str) -> None:
        altered = f"{where} was altered after it was received: its contents no longer match its SHA-256."
        if row.key_epoch is None:
            if self._unkeyed_after_upgrade(sequence, where):
                return
            layout = self._matching_layout(row)
            if layout is None:
                self.problem(altered)
            else:
                self.oldest_layout_left = layout
            return
        self._epoch_ok(row.key_epoch, where)
        holds = _mac_holds(
            self.ring,
            row.key_epoch,
            lambda: record_mac(row, ring=self.ring, epoch=row.key_epoch) == row.record_hash,
        )
        if holds is None:
            self._missing(row.key_epoch)
        elif not holds:
            self.problem(altered)

    def purge(self, sequence: int, entry: PurgedRecord, where: str) -> None:
        if entry.key_epoch is None:
            self._unkeyed_after_upgrade(sequence, f"the purge entry of {where}")
            return
        self._epoch_ok(entry.key_epoch, f"the purge entry of {where}")
        holds = _mac_holds(
            self.ring,
            entry.key_epoch,
            lambda: self.ring.verify(entry.key_epoch, "purge", purge_entry_text(entry), entry.entry_mac),
        )
        if holds is None:
            self._missing(entry.key_epoch)
        elif not holds:
            self.problem(
                f"the purge entry of {where} was not written by the program (its signature fails): "
                "the record was deleted without a lawful purge."
            )

    def _matching_layout(self, row) -> int | None:
        """The newest hash layout, no older than the one last seen, under which the row matches."""
        for generation in range(len(self.layouts) - 1, self.oldest_layout_left - 1, -1):
            if record_digest(row, leave_out=self.layouts[generation]) == row.record_hash:
                return generation
        return None


def _seal_checked(name: str, ring: Keyring) -> tuple[RecordChainSeal | None, str | None]:
    """The chain's seal if it exists and its signature holds, else what is wrong with it (a chain
    never appended to has no seal, which is reported only if the chain has records)."""
    seal = RecordChainSeal.objects.filter(chain=name).first()
    if seal is None:
        return None, None
    holds = _mac_holds(
        ring, seal.key_epoch, lambda: ring.verify(seal.key_epoch, "seal", seal_text(seal), seal.seal)
    )
    if holds is None:
        return None, f"no key for epoch {seal.key_epoch} in the keyring: the chain's seal cannot be verified."
    if not holds:
        return None, "the chain's seal was not written by the program (its signature fails): it was forged."
    return seal, None


def verify_chain(model: type[CopyOfRecord], *, ring: Keyring | None = None) -> ChainReport:
    """Walk a chain from its first record; list every broken link, the first one first (F7)."""
    ring = ring or keyring()
    name = chain_name(model)
    seal, seal_problem = _seal_checked(name, ring)
    walk = _Walk(model, ring, seal.legacy_until if seal is not None else 0)
    if not protection_installed(name):
        walk.problem("the triggers that refuse UPDATE and DELETE are missing; records can be altered.")
    expected_sequence, expected_previous = 1, GENESIS_HASH
    records = purged_count = 0
    for sequence, row, purge in _merged(model):
        stored_previous = row.previous_hash if row is not None else purge.previous_hash
        stored_hash = row.record_hash if row is not None else purge.record_hash
        where = f"{walk.label} #{row.pk if row is not None else purge.record_id} (sequence {sequence})"
        if sequence != expected_sequence:
            missing = f"{expected_sequence}" + (
                f"-{sequence - 1}" if sequence - 1 > expected_sequence else ""
            )
            walk.problem(f"record(s) at sequence {missing} are missing: deleted without a purge entry.")
        if stored_previous != expected_previous:
            walk.problem(f"{where} does not link to the record before it: the chain was broken.")
        if row is not None:
            records += 1
            walk.row(sequence, row, where)
        else:
            purged_count += 1
            walk.purge(sequence, purge, where)
        expected_sequence, expected_previous = sequence + 1, stored_hash
    last_sequence = expected_sequence - 1
    head = RecordChainHead.objects.filter(chain=name).first()
    if head is None and last_sequence:
        walk.problem("the chain has no head: it was deleted.")
    elif head is not None and head.last_sequence != last_sequence:
        walk.problem(
            f"the chain ends at sequence {last_sequence} but {head.last_sequence} records were "
            "appended: the last record(s) were deleted."
        )
    elif head is not None and head.last_sequence and head.last_hash != expected_previous:
        walk.problem("the last record's hash differs from the one recorded when it was appended.")
    if seal_problem:
        walk.problem(seal_problem)
    elif seal is None and last_sequence:
        walk.problem("the chain has no seal: it was deleted.")
    elif seal is not None and (seal.sealed_sequence, seal.sealed_hash) != (last_sequence, expected_previous):
        walk.problem(
            f"the chain's signed seal names sequence {seal.sealed_sequence} as its last record, but the chain "
            f"ends at sequence {last_sequence} with another hash: records were deleted, added or rewritten."
        )
    return ChainReport(
        chain=name,
        records=records,
        purged=purged_count,
        problems=tuple(walk.problems),
        last_sequence=last_sequence,
        last_hash=expected_previous,
    )


def record_at(model: type[models.Model], sequence: int) -> str | None:
    """The hash stored at a place of a chain (a live row or a purge entry), None if nothing is there."""
    row = model.objects.filter(record_sequence=sequence).values_list("record_hash", flat=True).first()
    if row is not None:
        return row
    return (
        PurgedRecord.objects.filter(table_name=chain_name(model), record_sequence=sequence)
        .values_list("record_hash", flat=True)
        .first()
    )
