"""Issue 15, finding 4: 200 random tamperings of the copies of record, every one detected (F7).

Each tampering is made as an attacker with write access to the database would: drop the triggers,
rewrite rows in SQL, re-create the triggers. Then ``verify_records`` (against the Town's last
signed checkpoint) must fail. Every tampering is rolled back before the next (a savepoint), so all
200 start from the same chain. Seeded: a failure names its seed and kind, and replays.

Runs on the database the suite runs on (SQLite by default; PostgreSQL with DATABASE_URL).
"""

from __future__ import annotations

import random
import secrets
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Concat

from fogcontrol.core.models import PurgedRecord, RecordChainHead, RecordChainSeal
from fogcontrol.core.record_checkpoints import checkpoint_check
from fogcontrol.core.record_hashing import record_digest, record_mac
from fogcontrol.core.record_keys import Keyring, keyring
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ManifestFlag
from fogcontrol.servicing.services import manifest_purge
from fogcontrol.servicing.tests.helpers import days_ago, submit, town_approves_destruction
from fogcontrol.servicing.tests.record_attacks import drop_triggers, insert_copy, recreate_triggers

TAMPERINGS = 200
SEED = 20261130
CHAIN = "servicing_manifest"


class _Undo(Exception):
    pass


@pytest.fixture
def chain(town, tmp_path, settings):
    """Ten manifests, two of them old; one purged lawfully; the head and seal saved at each step
    (for replays); a signed checkpoint of the end, where the Town keeps it."""
    settings.DATA_DIR = tmp_path / "data"
    hauler, manager = town.users[Role.HAULER], town.users[Role.FOG_MANAGER]
    snapshots = {}
    for days in (900, 800, 60, 50, 40, 30, 20, 10, 5, 2):
        submit(hauler, town.own_device, serviced_at=days_ago(days))
        head = RecordChainHead.objects.filter(chain=CHAIN).values().get()
        seal = RecordChainSeal.objects.filter(chain=CHAIN).values().get()
        snapshots[head["last_sequence"]] = (head, seal)
    town_approves_destruction(manager)
    manifest_purge(
        manifest=Manifest.objects.get(record_sequence=1), acting_user=manager, reason="Schedule 14"
    )
    checkpoint = tmp_path / "clerk" / "checkpoint.json"
    call_command("verify_records", checkpoint=str(checkpoint), stdout=StringIO())
    return checkpoint, snapshots


def _items() -> list[tuple[int, Manifest | None, PurgedRecord | None]]:
    rows = {m.record_sequence: (m, None) for m in Manifest.objects.all()}
    rows.update({p.record_sequence: (None, p) for p in PurgedRecord.objects.filter(table_name=CHAIN)})
    return [(sequence, *rows[sequence]) for sequence in sorted(rows)]


def _remove(manifest: Manifest) -> None:
    ManifestFlag.objects.filter(manifest=manifest).delete()
    DeviceServiceState.objects.filter(last_manifest=manifest).update(last_manifest=None)
    Manifest.objects.filter(corrects=manifest).update(corrects=None)
    Manifest.objects.filter(pk=manifest.pk).delete()


def _raw_delete(queryset) -> None:
    """A DELETE in SQL, past Django's on_delete rules (the attacker's way)."""
    queryset._raw_delete(queryset.db)


def _set_head(sequence: int, last_hash: str, rng: random.Random, ring: Keyring) -> None:
    """Point the head at a new end, and try the seal: left alone, moved without a valid signature,
    or signed with a key the attacker guessed."""
    RecordChainHead.objects.filter(chain=CHAIN).update(last_sequence=sequence, last_hash=last_hash)
    choice = rng.choice(["leave", "move", "guess"])
    if choice == "leave":
        return
    seal = RecordChainSeal.objects.get(chain=CHAIN)
    seal.sealed_sequence, seal.sealed_hash = sequence, last_hash
    if choice == "guess":
        seal.seal = ring.mac(
            seal.key_epoch, "seal", f"{seal.chain}:{seal.legacy_until}:{sequence}:{last_hash}"
        )
    RecordChainSeal.objects.filter(pk=seal.pk).update(
        sealed_sequence=sequence, sealed_hash=last_hash, seal=seal.seal
    )


def _forged_hash(row: Manifest, rng: random.Random, guessed: Keyring) -> tuple[str, int | None]:
    """What an attacker without the key can write as a row's hash, and the epoch it claims."""
    choice = rng.choice(["sha256-legacy", "sha256-keyed", "guessed-key", "random"])
    epoch = keyring().current_epoch
    if choice == "sha256-legacy":
        return record_digest(row), None
    if choice == "sha256-keyed":
        return record_digest(row), epoch
    if choice == "guessed-key":
        return record_mac(row, ring=guessed, epoch=epoch), epoch
    return secrets.token_hex(32), epoch


def tamper_edit(rng, guessed):
    row = rng.choice(list(Manifest.objects.all()))
    change = rng.choice(
        [
            {"gallons_removed": F("gallons_removed") + 1},
            {"manifest_number": Concat(F("manifest_number"), Value("X"))},
            {"submission": Concat(F("submission"), Value(" "))},
            {"submitted_by_label": Value("someone else")},
            {"full_pumpout": Value(not row.full_pumpout)},
            {"certified_by_name": Value("Nobody")},
        ]
    )
    Manifest.objects.filter(pk=row.pk).update(**change)


def tamper_delete(rng, guessed):
    _remove(rng.choice(list(Manifest.objects.all())))


def tamper_reorder(rng, guessed):
    first, second = rng.sample(list(Manifest.objects.all()), 2)
    Manifest.objects.filter(pk=first.pk).update(record_sequence=10**9)
    Manifest.objects.filter(pk=second.pk).update(record_sequence=first.record_sequence)
    Manifest.objects.filter(pk=first.pk).update(record_sequence=second.record_sequence)


def tamper_insert(rng, guessed):
    items = _items()
    last_sequence, last_row, last_purge = items[-1]
    last_hash = (last_row or last_purge).record_hash
    source = rng.choice(list(Manifest.objects.all()))
    new_pk = insert_copy(
        Manifest,
        source.pk,
        record_sequence=last_sequence + 1,
        previous_hash=last_hash,
        record_hash=secrets.token_hex(32),
        manifest_number=f"FORGED-{rng.randrange(10**6)}",
    )
    row = Manifest.objects.get(pk=new_pk)
    forged, epoch = _forged_hash(row, rng, guessed)
    Manifest.objects.filter(pk=new_pk).update(record_hash=forged, key_epoch=epoch)
    _set_head(last_sequence + 1, forged, rng, guessed)


def tamper_forged_purge(rng, guessed):
    row = rng.choice(list(Manifest.objects.all()))
    entry = PurgedRecord(
        table_name=CHAIN,
        record_id=row.pk,
        record_sequence=row.record_sequence,
        previous_hash=row.previous_hash,
        record_hash=row.record_hash,
        record_date=row.service_date,
        purged_by_label="fog_manager",
        reason="Records schedule",
        retention_approval_id=PurgedRecord.objects.values_list("retention_approval_id", flat=True).first(),
        key_epoch=keyring().current_epoch,
    )
    entry.entry_mac = rng.choice([secrets.token_hex(32), guessed.mac(entry.key_epoch, "purge", entry.reason)])
    entry.save()
    _remove(row)


def tamper_purge_log(rng, guessed):
    entry = PurgedRecord.objects.get(table_name=CHAIN)
    if rng.random() < 0.5:
        PurgedRecord.objects.filter(pk=entry.pk).update(reason="Another reason")
    else:
        _raw_delete(PurgedRecord.objects.filter(pk=entry.pk))


def tamper_rehash(rng, guessed):
    """Edit a row, then recompute every hash after it without the key, and the head."""
    items = _items()
    start = rng.randrange(len(items))
    while items[start][1] is None:
        start = rng.randrange(len(items))
    Manifest.objects.filter(pk=items[start][1].pk).update(gallons_removed=F("gallons_removed") + 5)
    previous = items[start - 1][1 if items[start - 1][1] else 2].record_hash if start else "0" * 64
    for _sequence, row, purge in items[start:]:
        if purge is not None:
            PurgedRecord.objects.filter(pk=purge.pk).update(previous_hash=previous)
            previous = purge.record_hash
            continue
        row = Manifest.objects.get(pk=row.pk)
        row.previous_hash = previous
        forged, epoch = _forged_hash(row, rng, guessed)
        Manifest.objects.filter(pk=row.pk).update(previous_hash=previous, record_hash=forged, key_epoch=epoch)
        previous = forged
    _set_head(items[-1][0], previous, rng, guessed)


def tamper_head_rollback(rng, guessed, snapshots):
    """Delete the last record(s) and put the head back: by hand, or replaying a genuine saved
    head and seal (every signature then holds; only the checkpoint can tell)."""
    items = _items()
    cut = rng.randint(1, 3)
    for _sequence, row, purge in items[-cut:]:
        if row is not None:
            _remove(row)
        else:
            _raw_delete(PurgedRecord.objects.filter(pk=purge.pk))
    new_end, row, purge = items[-cut - 1]
    if rng.random() < 0.5 and new_end in snapshots:
        head, seal = snapshots[new_end]
        RecordChainHead.objects.filter(pk=head["id"]).update(**head)
        RecordChainSeal.objects.filter(pk=seal["id"]).update(**seal)
    else:
        _set_head(new_end, (row or purge).record_hash, rng, guessed)


KINDS = {
    "edit": tamper_edit,
    "delete": tamper_delete,
    "reorder": tamper_reorder,
    "insert": tamper_insert,
    "forged purge": tamper_forged_purge,
    "purge log": tamper_purge_log,
    "rehash without the key": tamper_rehash,
    "head rollback": tamper_head_rollback,
}


def _detected(checkpoint) -> bool:
    """What ``verify_records --against`` checks of the manifests' chain (every tampering here is
    in that chain): the chain itself, then the checkpoint."""
    return not verify_chain(Manifest).ok or bool(checkpoint_check(checkpoint))


@pytest.mark.provision("F7")
def test_f7_two_hundred_random_tamperings_are_all_detected(chain):
    checkpoint, snapshots = chain
    call_command("verify_records", against=str(checkpoint), stdout=StringIO())  # all verifies
    rng = random.Random(SEED)
    guessed = Keyring({keyring().current_epoch: secrets.token_bytes(32)}, "the attacker's guess")
    missed, tried = [], {kind: 0 for kind in KINDS}
    for number in range(TAMPERINGS):
        kind = rng.choice(list(KINDS))
        tried[kind] += 1
        try:
            with transaction.atomic():
                drop_triggers()
                if kind == "head rollback":
                    tamper_head_rollback(rng, guessed, snapshots)
                else:
                    KINDS[kind](rng, guessed)
                recreate_triggers()
                if not _detected(checkpoint):
                    missed.append(f"#{number} {kind}")
                raise _Undo
        except _Undo:
            pass
    assert not missed, f"undetected (seed {SEED}): {missed}"
    assert all(tried.values()), tried  # every kind was tried
    assert not _detected(checkpoint)  # and each was undone
