"""Copies of record (F1, F5, F7): unalterable by any path, chained by SHA-256, verifiable."""

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.utils import DatabaseError

from fogcontrol.core.errors import RecordImmutable
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.models import GENESIS_HASH, PurgedRecord
from fogcontrol.core.record_hashing import record_mac
from fogcontrol.core.record_keys import keyring
from fogcontrol.core.records import (
    protection_installed,
    protection_sql,
    record_digest,
    unprotection_sql,
    verify_chain,
)
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.services import hold_place, manifest_purge
from fogcontrol.servicing.tests.helpers import submit, town_approves_destruction


@pytest.fixture
def manifests(town):
    hauler = town.users[Role.HAULER]
    return [submit(hauler, town.own_device, serviced_at=_days(30 - i)) for i in range(3)]


def _days(n):
    from fogcontrol.servicing.tests.helpers import days_ago

    return days_ago(n)


@pytest.mark.provision("F7")
def test_f7_each_manifest_is_chained_to_the_previous_by_a_keyed_hash(manifests):
    """Issue 15, finding 4: the hash is an HMAC under the record key, not a SHA-256 anyone can
    recompute from the row."""
    first, second, third = sorted(manifests, key=lambda m: m.record_sequence)
    assert first.previous_hash == GENESIS_HASH
    assert second.previous_hash == first.record_hash
    assert third.previous_hash == second.record_hash
    stored = Manifest.objects.get(pk=third.pk)
    assert stored.key_epoch == keyring().current_epoch
    assert record_mac(stored, ring=keyring(), epoch=stored.key_epoch) == stored.record_hash
    assert record_digest(stored) != stored.record_hash
    assert stored.received_at.utcoffset() == dt.timedelta(0)
    assert stored.submitted_by_label == "hauler"
    assert stored.submission == '{"test":true}'


@pytest.mark.provision("F7")
def test_f7_the_orm_cannot_change_or_delete_a_manifest(manifests):
    manifest = Manifest.objects.get(pk=manifests[0].pk)
    manifest.gallons_removed = 1
    with pytest.raises(RecordImmutable):
        manifest.save()
    with pytest.raises(RecordImmutable):
        manifest.delete()


@pytest.mark.provision("F7")
def test_f7_a_queryset_update_or_delete_is_refused_by_the_database_trigger(manifests):
    with pytest.raises(DatabaseError), transaction.atomic():
        Manifest.objects.filter(pk=manifests[0].pk).update(gallons_removed=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        Manifest.objects.filter(pk=manifests[0].pk).delete()
    assert Manifest.objects.count() == 3


@pytest.mark.provision("F7")
def test_f7_raw_sql_update_and_delete_are_refused(manifests):
    table = Manifest._meta.db_table
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{table}" SET gallons_removed = 1 WHERE id = %s', [manifests[0].pk])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'DELETE FROM "{table}" WHERE id = %s', [manifests[0].pk])
    assert verify_chain(Manifest).ok


def _drop_triggers(table):
    with connection.cursor() as cursor:
        for statement in unprotection_sql(connection.vendor, table):
            cursor.execute(statement)


def _restore_triggers(table):
    with connection.cursor() as cursor:
        for statement in protection_sql(connection.vendor, table):
            cursor.execute(statement)


@pytest.mark.provision("F7")
def test_f7_tampering_around_the_trigger_is_found_by_verify_records(manifests):
    table = Manifest._meta.db_table
    target = sorted(manifests, key=lambda m: m.record_sequence)[1]
    _drop_triggers(table)
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{table}" SET gallons_removed = 10 WHERE id = %s', [target.pk])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_records", stdout=out)
    text = out.getvalue()
    assert "servicing_manifest: BROKEN" in text
    assert "triggers that refuse UPDATE and DELETE are missing" in text
    _restore_triggers(table)
    report = verify_chain(Manifest)
    assert report.first_broken_link == (
        f"servicing_manifest: manifest #{target.pk} (sequence {target.record_sequence}) was altered after "
        "it was received: its contents no longer match its SHA-256."
    )


@pytest.mark.provision("F7")
def test_f7_a_deleted_record_breaks_the_chain_at_that_link(manifests):
    table = Manifest._meta.db_table
    target = sorted(manifests, key=lambda m: m.record_sequence)[1]
    _drop_triggers(table)
    with connection.cursor() as cursor:
        cursor.execute('DELETE FROM "servicing_manifestflag" WHERE manifest_id = %s', [target.pk])
        cursor.execute(f'DELETE FROM "{table}" WHERE id = %s', [target.pk])
    _restore_triggers(table)
    report = verify_chain(Manifest)
    assert not report.ok
    assert f"sequence {target.record_sequence} are missing" in report.first_broken_link


def test_verify_records_reports_intact_chains(manifests):
    out = StringIO()
    call_command("verify_records", stdout=out)
    assert "servicing_manifest: 3 record(s), 0 purged: intact." in out.getvalue()
    assert "All records verify." in out.getvalue()


def test_triggers_are_installed_by_the_migration(db):
    assert protection_installed("servicing_manifest")
    assert protection_installed("servicing_manifestattachment")
    assert protection_installed("servicing_purgedrecord")


@pytest.mark.provision("F5")
def test_f5_a_manifest_younger_than_the_retention_period_cannot_be_purged(manifests, town):
    with pytest.raises(Conflict, match="F5 keeps this record at least 2 year"):
        manifest_purge(manifest=manifests[0], acting_user=town.users[Role.FOG_MANAGER], reason="tidy up")
    assert Manifest.objects.filter(pk=manifests[0].pk).exists()


@pytest.mark.provision("F5")
def test_f5_an_old_manifest_is_purged_and_the_chain_still_verifies(town):
    from fogcontrol.servicing.tests.helpers import days_ago

    old = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(800))
    newer = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(10))
    old_pk = old.pk
    town_approves_destruction(town.users[Role.FOG_MANAGER])  # Gov. Code §34090
    manifest_purge(manifest=old, acting_user=town.users[Role.FOG_MANAGER], reason="F5 retention ended")
    assert not Manifest.objects.filter(pk=old_pk).exists()
    assert PurgedRecord.objects.get(record_id=old_pk).record_hash == old.record_hash
    report = verify_chain(Manifest)
    assert report.ok and report.purged == 1 and report.records == 1
    assert Manifest.objects.filter(pk=newer.pk).exists()


@pytest.mark.provision("F5")
def test_f5_a_litigation_hold_keeps_an_old_manifest(town):
    from fogcontrol.servicing.tests.helpers import days_ago

    old = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(800))
    manager = town.users[Role.FOG_MANAGER]
    hold_place(device=town.own_device, acting_user=manager, reason="Claim 2025-14: sewer overflow on Main St")
    with pytest.raises(Conflict, match="litigation hold"):
        manifest_purge(manifest=old, acting_user=manager, reason="F5 retention ended")
    assert Manifest.objects.filter(pk=old.pk).exists()


@pytest.mark.provision("F5")
def test_f5_the_purge_log_itself_cannot_be_deleted(town):
    from fogcontrol.servicing.tests.helpers import days_ago

    old = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(800))
    town_approves_destruction(town.users[Role.FOG_MANAGER])  # Gov. Code §34090
    manifest_purge(manifest=old, acting_user=town.users[Role.FOG_MANAGER], reason="F5 retention ended")
    with pytest.raises(DatabaseError), transaction.atomic():
        PurgedRecord.objects.all().delete()


def test_the_admin_shows_manifests_read_only(manifests, town, client):
    from fogcontrol.accounts.models import User

    admin_user = User.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin_user)
    page = client.get(f"/admin/servicing/manifest/{manifests[0].pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert (
        client.post(f"/admin/servicing/manifest/{manifests[0].pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert Manifest.objects.count() == 3
