"""Issue 15, finding 4: the copy of record resists rewriting by whoever can write to the database.

The chain is keyed (HMAC under a key outside the database, with epochs), checkpoints are signed,
the database refuses a purge before the retention ends or without a recorded approval, refuses
INSERT OR REPLACE, and guards the chain head and seal. F5, F7."""

import json
import os
import stat
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from fogcontrol.core import record_keys
from fogcontrol.core.models import PurgedRecord, RecordChainHead, RecordChainSeal
from fogcontrol.core.record_checkpoints import checkpoint_check, latest_checkpoint
from fogcontrol.core.record_hashing import record_digest
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest, ManifestFlag
from fogcontrol.servicing.services import manifest_purge
from fogcontrol.servicing.tests.helpers import days_ago, submit, town_approves_destruction
from fogcontrol.servicing.tests.record_attacks import drop_triggers, insert_copy, recreate_triggers


@pytest.fixture
def key_file(tmp_path, settings, monkeypatch):
    """A keyring of the test's own, in a file (development: created on first use)."""
    monkeypatch.delenv(record_keys.ENV_NAME, raising=False)
    settings.FOGCONTROL_RECORD_KEY_FILE = tmp_path / "keys" / "record-keys.json"
    record_keys._cache.clear()
    yield settings.FOGCONTROL_RECORD_KEY_FILE
    record_keys._cache.clear()


def _verify_records(**options) -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("verify_records", stdout=out, **options)
    except CommandError:
        return False, out.getvalue()
    return True, out.getvalue()


def _chain(town, count=3):
    return [
        submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(30 - i)) for i in range(count)
    ]


def test_in_development_the_key_file_is_created_on_first_use_readable_by_its_owner_only(key_file, town):
    assert not key_file.exists()
    _chain(town, 1)
    assert key_file.exists()
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert list(json.loads(key_file.read_text())["keys"]) == ["1"]


def test_a_process_racing_to_create_the_key_file_keeps_the_first_key(key_file, monkeypatch):
    """Two server workers starting at once both find no key file: the second must use the key the
    first wrote, not replace it (the first's records would be signed by a key nobody keeps)."""
    first = record_keys.keyring().key(1)
    record_keys._cache.clear()
    monkeypatch.setattr(type(key_file), "exists", lambda path: False)  # it looked before the file was made
    assert record_keys.keyring().key(1) == first
    assert [p.name for p in key_file.parent.iterdir()] == [key_file.name]  # no scratch file left


def test_in_production_nothing_is_written_without_the_key(key_file, settings, town):
    settings.FOGCONTROL_PRODUCTION = True
    with pytest.raises(record_keys.RecordKeyMissing, match="FOGCONTROL_RECORD_KEY"):
        _chain(town, 1)
    assert not key_file.exists() and not Manifest.objects.exists()


def test_the_key_from_the_environment_with_epochs(monkeypatch):
    monkeypatch.setenv(record_keys.ENV_NAME, f"1:{'a' * 32},2:{'b' * 32}")
    record_keys._cache.clear()
    ring = record_keys.keyring()
    assert ring.current_epoch == 2 and ring.key(1) == b"a" * 32
    monkeypatch.setenv(record_keys.ENV_NAME, "short")
    record_keys._cache.clear()
    with pytest.raises(Exception, match="at least 32"):
        record_keys.keyring()
    record_keys._cache.clear()


@pytest.mark.provision("F7")
def test_f7_the_audits_attack_rehashing_the_chain_without_the_key_is_found(key_file, town):
    """Drop the triggers, edit a manifest, recompute every SHA-256 after it and the head, re-create
    the triggers: the audit's "All records verify" no longer happens."""
    manifests = _chain(town, 4)
    drop_triggers()
    target = manifests[1]
    Manifest.objects.filter(pk=target.pk).update(gallons_removed=10)
    previous = manifests[0].record_hash
    for manifest in Manifest.objects.filter(record_sequence__gte=target.record_sequence).order_by(
        "record_sequence"
    ):
        manifest.previous_hash = previous
        previous = record_digest(manifest)
        Manifest.objects.filter(pk=manifest.pk).update(
            previous_hash=manifest.previous_hash, record_hash=previous
        )
    RecordChainHead.objects.filter(chain="servicing_manifest").update(last_hash=previous)
    RecordChainSeal.objects.filter(chain="servicing_manifest").update(sealed_hash=previous)
    recreate_triggers()
    ok, out = _verify_records()
    assert not ok
    assert f"manifest #{target.pk} (sequence {target.record_sequence}) was altered" in out
    assert "seal was not written by the program" in out


@pytest.mark.provision("F7")
def test_f7_after_a_key_rotation_old_and_new_records_verify_under_their_epochs(key_file, town):
    first = _chain(town, 1)[0]
    out = StringIO()
    call_command("rotate_record_key", stdout=out)
    assert "epoch 2 started" in out.getvalue()
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    second = _chain(town, 1)[0]
    assert (Manifest.objects.get(pk=first.pk).key_epoch, Manifest.objects.get(pk=second.pk).key_epoch) == (
        1,
        2,
    )
    assert verify_chain(Manifest).ok
    # Without the old epoch's key, its records cannot be verified: the report says so.
    keys = json.loads(key_file.read_text())
    del keys["keys"]["1"]
    key_file.write_text(json.dumps(keys))
    record_keys._cache.clear()
    assert any("no key for epoch 1" in problem for problem in verify_chain(Manifest).problems)


def test_rotation_refuses_when_the_keys_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(record_keys.ENV_NAME, "k" * 40)
    record_keys._cache.clear()
    with pytest.raises(CommandError, match="FOGCONTROL_RECORD_KEY"):
        call_command("rotate_record_key", stdout=StringIO())
    record_keys._cache.clear()


@pytest.mark.provision("F7")
def test_f7_a_checkpoint_catches_a_rollback_to_a_genuine_earlier_head(key_file, town, tmp_path, settings):
    """Replaying a saved head and seal after deleting the last record leaves a chain whose every
    signature is genuine; only the checkpoint, kept outside the database, shows the rollback."""
    settings.DATA_DIR = tmp_path / "data"
    _chain(town, 2)
    saved_head = RecordChainHead.objects.filter(chain="servicing_manifest").values().get()
    saved_seal = RecordChainSeal.objects.filter(chain="servicing_manifest").values().get()
    last = _chain(town, 1)[0]
    ok, out = _verify_records(checkpoint=str(tmp_path / "town-clerk" / "checkpoint.json"))
    assert ok and "Checkpoint written" in out
    assert latest_checkpoint() is not None and latest_checkpoint().parent == tmp_path / "data" / "checkpoints"
    drop_triggers()
    ManifestFlag.objects.filter(manifest_id=last.pk).delete()
    Manifest.objects.filter(pk=last.pk).delete()
    RecordChainHead.objects.filter(pk=saved_head["id"]).update(**saved_head)
    RecordChainSeal.objects.filter(pk=saved_seal["id"]).update(**saved_seal)
    recreate_triggers()
    assert verify_chain(Manifest).ok  # every signature genuine: the chain alone cannot tell
    ok, out = _verify_records()  # the newest checkpoint in the data dir, by default
    assert not ok and "it was rolled back" in out
    ok, out = _verify_records(against=str(tmp_path / "town-clerk" / "checkpoint.json"))
    assert not ok and "it was rolled back" in out


def test_an_edited_checkpoint_is_refused(key_file, town, tmp_path, settings):
    settings.DATA_DIR = tmp_path / "data"
    _chain(town, 1)
    path = tmp_path / "checkpoint.json"
    call_command("verify_records", checkpoint=str(path), stdout=StringIO())
    body = json.loads(path.read_text())
    entry = next(entry for entry in body["chains"] if entry["chain"] == "servicing_manifest")
    entry["last_sequence"] = 0
    path.write_text(json.dumps(body))
    assert "signature fails" in checkpoint_check(path)[0]


def test_no_checkpoint_is_written_of_a_broken_chain(key_file, town, tmp_path):
    manifest = _chain(town, 1)[0]
    drop_triggers()
    Manifest.objects.filter(pk=manifest.pk).update(gallons_removed=1)
    recreate_triggers()
    ok, _ = _verify_records(checkpoint=str(tmp_path / "checkpoint.json"))
    assert not ok and not (tmp_path / "checkpoint.json").exists()


def _forge_purge(manifest, *, approval_id, record_date=None):
    PurgedRecord.objects.create(
        table_name="servicing_manifest",
        record_id=manifest.pk,
        record_sequence=manifest.record_sequence,
        previous_hash=manifest.previous_hash,
        record_hash=manifest.record_hash,
        record_date=record_date or manifest.service_date,
        purged_by_label="attacker",
        reason="forged",
        retention_approval_id=approval_id,
        key_epoch=1,
        entry_mac="0" * 64,
    )
    with connection.cursor() as cursor:
        cursor.execute('DELETE FROM "servicing_manifestflag" WHERE manifest_id = %s', [manifest.pk])
        cursor.execute(
            'UPDATE "servicing_deviceservicestate" SET last_manifest_id = NULL WHERE last_manifest_id = %s',
            [manifest.pk],
        )
        cursor.execute('DELETE FROM "servicing_manifest" WHERE id = %s', [manifest.pk])


@pytest.mark.provision("F5")
def test_f5_the_database_refuses_a_forged_purge_of_a_manifest_still_under_retention(key_file, town):
    manager = town.users[Role.FOG_MANAGER]
    young = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(10))
    old = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(800))
    approval = town_approves_destruction(manager)
    # Under retention, even with an approval wrongly stretched over its date.
    with pytest.raises(DatabaseError), transaction.atomic():
        _forge_purge(young, approval_id=approval.pk, record_date=approval.records_to)
    with pytest.raises(DatabaseError), transaction.atomic():
        wide = type(approval).objects.create(
            record_class="manifests", records_from=approval.records_from, records_to=young.service_date,
            council_resolution_number="forged", council_resolution_date=approval.council_resolution_date,
            city_attorney_name="x", city_attorney_consent_date=approval.city_attorney_consent_date,
            recorded_by_label="attacker",
        )  # fmt: skip
        _forge_purge(young, approval_id=wide.pk)
    # Past retention, but naming no recorded approval, or one that does not cover its date.
    with pytest.raises(DatabaseError), transaction.atomic():
        _forge_purge(old, approval_id=None)
    with pytest.raises(DatabaseError), transaction.atomic():
        _forge_purge(old, approval_id=approval.pk + 1000)
    assert Manifest.objects.filter(pk__in=[young.pk, old.pk]).count() == 2
    # The lawful purge goes through the same trigger.
    manifest_purge(manifest=old, acting_user=manager, reason="Records schedule")
    assert not Manifest.objects.filter(pk=old.pk).exists()
    assert verify_chain(Manifest).ok


@pytest.mark.provision("F5")
def test_f5_a_purge_entry_written_without_the_key_is_found(key_file, town):
    old = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(800))
    approval = town_approves_destruction(town.users[Role.FOG_MANAGER])
    _forge_purge(old, approval_id=approval.pk)  # retention ended, approval recorded: the trigger allows it
    assert any(
        "purge entry" in problem and "signature fails" in problem
        for problem in verify_chain(Manifest).problems
    )


@pytest.mark.provision("F7")
def test_f7_insert_or_replace_cannot_replace_a_manifest(key_file, town):
    if connection.vendor != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's")
    manifest = _chain(town, 1)[0]
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA recursive_triggers")
        assert cursor.fetchone()[0] == 0  # as in a sqlite3 shell: DELETE triggers would not fire
    columns = [field.column for field in Manifest._meta.concrete_fields]
    names = ", ".join(f'"{column}"' for column in columns)
    values = ", ".join(
        '"gallons_removed" + 1' if column == "gallons_removed" else f'"{column}"' for column in columns
    )
    with (
        pytest.raises(DatabaseError, match="never replaced"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            f'INSERT OR REPLACE INTO "servicing_manifest" ({names}) SELECT {values} FROM "servicing_manifest" '
            "WHERE id = %s",
            [manifest.pk],
        )
    assert Manifest.objects.get(pk=manifest.pk).gallons_removed == manifest.gallons_removed


@pytest.mark.provision("F7")
def test_f7_a_row_is_inserted_only_at_the_head_of_its_chain(key_file, town):
    first, second = _chain(town, 2)
    with pytest.raises(DatabaseError), transaction.atomic():  # a second row at an existing place
        insert_copy(Manifest, first.pk, record_hash="f" * 64, manifest_number="F-1")
    with pytest.raises(DatabaseError), transaction.atomic():  # not linked to the head
        insert_copy(Manifest, first.pk, record_sequence=3, record_hash="f" * 64, manifest_number="F-2")
    assert Manifest.objects.count() == 2


@pytest.mark.provision("F7")
def test_f7_the_chain_head_and_seal_cannot_be_rolled_back_or_deleted(key_file, town):
    _chain(town, 2)
    head = RecordChainHead.objects.get(chain="servicing_manifest")
    first = Manifest.objects.get(record_sequence=1)
    for attempt in (
        lambda: RecordChainHead.objects.filter(pk=head.pk).update(
            last_sequence=1, last_hash=first.record_hash
        ),
        lambda: RecordChainHead.objects.filter(pk=head.pk).update(last_sequence=3, last_hash="f" * 64),
        lambda: RecordChainHead.objects.filter(pk=head.pk).delete(),
        lambda: RecordChainSeal.objects.filter(chain="servicing_manifest").update(sealed_sequence=1),
        lambda: RecordChainSeal.objects.filter(chain="servicing_manifest").update(legacy_until=2),
        lambda: RecordChainSeal.objects.filter(chain="servicing_manifest").delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            attempt()
    assert RecordChainHead.objects.get(pk=head.pk).last_sequence == 2
    assert verify_chain(Manifest).ok


@pytest.mark.provision("F7")
def test_f7_a_head_that_disagrees_with_the_last_record_is_found(key_file, town):
    manifests = _chain(town, 3)
    drop_triggers()
    ManifestFlag.objects.filter(manifest_id=manifests[-1].pk).delete()
    Manifest.objects.filter(pk=manifests[-1].pk).delete()
    RecordChainHead.objects.filter(chain="servicing_manifest").update(
        last_sequence=2, last_hash=manifests[1].record_hash
    )
    recreate_triggers()
    problems = verify_chain(Manifest).problems
    assert any("signed seal names sequence 3" in problem for problem in problems)
