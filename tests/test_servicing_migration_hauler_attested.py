"""Servicing 0005 on the manifests already stored (F1, F5, F7): it fills ``hauler_attested`` from
who sent each one, keeps every old hash valid, and leaves the table protected by its triggers.

Runs on the database the suite runs on (SQLite by default; PostgreSQL with DATABASE_URL). It lives
under tests/ so that it runs after every other transactional test: migrating back and forth leaves
the content types with new ids, which a later test with serialized rollback could not restore.
"""

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from fogcontrol.core.models import RecordChainHead
from fogcontrol.core.records import (
    protection_installed,
    protection_sql,
    record_digest,
    unprotection_sql,
    verify_chain,
)
from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.helpers import days_ago, submit

BEFORE = ("servicing", "0004_jobs_are_actors")
TABLE = "servicing_manifest"


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader


@pytest.fixture
def before_0005(transactional_db, django_db_serialized_rollback):
    """The database as it was before servicing 0005; migrated forward again and emptied after
    (the copy-of-record triggers would refuse the flush between tests on SQLite)."""
    loader = _migrate([BEFORE])
    yield loader.project_state(BEFORE).apps
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    with connection.cursor() as cursor:
        for statement in unprotection_sql(connection.vendor, TABLE):
            cursor.execute(statement)
    call_command("flush", interactive=False, verbosity=0)
    with connection.cursor() as cursor:
        for statement in protection_sql(connection.vendor, TABLE):
            cursor.execute(statement)


def _append_as_before(old_manifest_model, *, sender, label, number, town, hauler=None, hauler_name=""):
    """A manifest stored by the code before 0005: every stored field hashed, with the chain."""
    head, _ = RecordChainHead.objects.get_or_create(chain=TABLE)
    serviced_at = days_ago(5).astimezone(dt.UTC)
    row = old_manifest_model(
        channel="api",
        device_id=town.own_device.pk,
        establishment_id=town.own_fse.pk,
        site_address=town.own_fse.site_address,
        hauler_id=hauler.pk if hauler else None,
        hauler_name=hauler.name if hauler else hauler_name,
        manifest_number=number,
        serviced_at=serviced_at,
        service_date=timezone.localtime(serviced_at).date(),
        full_pumpout=True,
        baffles_cleaned=True,
        certified_by_name="Dana Driver",
        certification_version=certification.CURRENT_VERSION,
        certification_text=certification.certification_text(certification.CURRENT_VERSION),
        submission='{"before":"0005"}',
        received_at=timezone.now().astimezone(dt.UTC),
        submitted_by_id=sender.pk if sender else None,
        submitted_by_label=label,
        record_sequence=head.last_sequence + 1,
        previous_hash=head.last_hash,
    )
    row.record_hash = record_digest(row)
    row.save(force_insert=True)
    head.last_sequence, head.last_hash = row.record_sequence, row.record_hash
    head.save()
    return row.pk, row.record_hash


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_0005_fills_hauler_attested_from_the_sender_and_old_hashes_still_verify(before_0005, town):
    old = before_0005.get_model("servicing", "Manifest")
    hauler_user, fse_user = town.users[Role.HAULER], town.users[Role.FSE]
    stored = {
        "hauler": _append_as_before(
            old, sender=hauler_user, label="hauler", number="H-1", town=town, hauler=town.hauler
        ),  # fmt: skip
        "fse naming hauler": _append_as_before(
            old, sender=fse_user, label="fse", number="H-2", town=town, hauler=town.hauler
        ),  # fmt: skip
        "staff": _append_as_before(
            old,
            sender=town.users[Role.INSPECTOR],
            label="inspector",
            number="H-3",
            town=town,
            hauler=town.hauler,
        ),  # fmt: skip
        "job": _append_as_before(
            old, sender=None, label="seed_demo", number="H-4", town=town, hauler=town.hauler
        ),  # fmt: skip
        "fse self": _append_as_before(
            old, sender=fse_user, label="fse", number="H-5", town=town, hauler_name="Ourselves"
        ),  # fmt: skip
    }

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    after = {key: Manifest.objects.get(pk=pk) for key, (pk, _) in stored.items()}
    assert {key: m.hauler_attested for key, m in after.items()} == {
        "hauler": True,
        "fse naming hauler": False,
        "staff": True,
        "job": True,
        "fse self": False,
    }
    assert all(after[key].record_hash == digest for key, (_, digest) in stored.items())
    report = verify_chain(Manifest)
    assert report.ok, report.problems
    assert report.records == 5
    # The table is protected again: no UPDATE gets through, from the ORM or raw SQL.
    assert protection_installed(TABLE)
    with pytest.raises(DatabaseError), transaction.atomic():
        Manifest.objects.filter(pk=after["fse naming hauler"].pk).update(hauler_attested=True)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{TABLE}" SET hauler_attested = %s', [True])
    # The FSE's old manifest no longer holds the hauler's number; the hauler files it, and new
    # rows (hashed with the new field) follow the old ones in one chain that verifies.
    submit(hauler_user, town.own_device, manifest_number="H-2")
    assert verify_chain(Manifest).ok


@pytest.mark.provision("F7")
def test_f7_after_0005_tampering_with_an_old_or_a_new_manifest_is_still_found(before_0005, town):
    old = before_0005.get_model("servicing", "Manifest")
    old_pk, _ = _append_as_before(
        old, sender=town.users[Role.HAULER], label="hauler", number="T-1", town=town, hauler=town.hauler
    )
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    new = submit(town.users[Role.FSE], town.own_device, manifest_number="T-2", hauler=town.hauler)
    assert verify_chain(Manifest).ok
    with connection.cursor() as cursor:
        for statement in unprotection_sql(connection.vendor, TABLE):
            cursor.execute(statement)
        cursor.execute(f'UPDATE "{TABLE}" SET hauler_attested = %s WHERE id = %s', [True, new.pk])
        cursor.execute(f'UPDATE "{TABLE}" SET gallons_removed = 5 WHERE id = %s', [old_pk])
        for statement in protection_sql(connection.vendor, TABLE):
            cursor.execute(statement)
    problems = verify_chain(Manifest).problems
    assert any(f"manifest #{old_pk} " in p and "was altered" in p for p in problems)
    assert any(f"manifest #{new.pk} " in p and "was altered" in p for p in problems)


@pytest.mark.provision("F7")
def test_f7_the_manifest_triggers_refuse_an_update_of_hauler_attested(town):
    manifest = submit(town.users[Role.FSE], town.own_device, hauler=town.hauler)
    assert protection_installed(TABLE)
    with pytest.raises(DatabaseError), transaction.atomic():
        Manifest.objects.filter(pk=manifest.pk).update(hauler_attested=True)
    with pytest.raises(DatabaseError), transaction.atomic():
        Manifest.objects.filter(pk=manifest.pk).delete()
    assert Manifest.objects.get(pk=manifest.pk).hauler_attested is False
    assert verify_chain(Manifest).ok
