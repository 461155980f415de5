"""Appending many copies of record at once (the demo's manifest history; issue 19): the same chain,
keyed hashes, head and seal as one ``record_append`` at a time, under the same triggers (F7)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import transaction

from fogcontrol.core.models import RecordChainHead, RecordChainSeal
from fogcontrol.core.record_hashing import record_mac
from fogcontrol.core.record_keys import keyring
from fogcontrol.core.records import record_append_bulk, verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.helpers import days_ago, submit


def _unsaved(device, number: str, days: int) -> Manifest:
    serviced_at = days_ago(days)
    return Manifest(
        channel=Manifest.Channel.CSV,
        device=device,
        site_address="1 Test Street",
        hauler_name="Test Hauling",
        manifest_number=number,
        serviced_at=serviced_at.astimezone(dt.UTC),
        service_date=serviced_at.date(),
        full_pumpout=True,
        baffles_cleaned=True,
        fog_depth_in=Decimal("4.5"),
        solids_depth_in=Decimal("3"),
        gallons_removed=Decimal("900"),
        certified_by_name="Dana Driver",
        certification_version=certification.CURRENT_VERSION,
        certification_text=certification.certification_text(certification.CURRENT_VERSION),
        submission='{"demo":true}',
    )


@pytest.mark.provision("F7")
def test_f7_a_bulk_append_continues_the_keyed_chain_between_single_appends(town):
    hauler = town.users[Role.HAULER]
    first = submit(hauler, town.own_device, serviced_at=days_ago(40))
    rows = [_unsaved(town.own_device, f"BULK-{i}", 30 - i) for i in range(5)]
    with transaction.atomic():
        appended = record_append_bulk(rows, acting_user="seed_demo")
    last = submit(hauler, town.own_device, serviced_at=days_ago(2))

    assert [m.record_sequence for m in appended] == list(
        range(first.record_sequence + 1, first.record_sequence + 6)
    )
    assert appended[0].previous_hash == first.record_hash
    assert last.previous_hash == appended[-1].record_hash
    ring = keyring()
    for manifest in appended:
        stored = Manifest.objects.get(pk=manifest.pk)  # the ids came back from the database
        assert stored.manifest_number == manifest.manifest_number
        assert stored.submitted_by_label == "seed_demo" and stored.received_at.utcoffset() == dt.timedelta(0)
        assert (
            record_mac(stored, ring=ring, epoch=stored.key_epoch)
            == stored.record_hash
            == manifest.record_hash
        )
    report = verify_chain(Manifest)
    assert report.ok, report.problems
    assert report.records == 7 and report.last_sequence == last.record_sequence


@pytest.mark.provision("F7")
def test_f7_after_a_bulk_append_the_head_and_signed_seal_name_its_last_record(town):
    rows = [_unsaved(town.own_device, f"BULK-{i}", 20 - i) for i in range(3)]
    with transaction.atomic():
        record_append_bulk(rows, acting_user="seed_demo")
    head = RecordChainHead.objects.get(chain=Manifest._meta.db_table)
    seal = RecordChainSeal.objects.get(chain=Manifest._meta.db_table)
    assert (head.last_sequence, head.last_hash) == (rows[-1].record_sequence, rows[-1].record_hash)
    assert (seal.sealed_sequence, seal.sealed_hash) == (head.last_sequence, head.last_hash)
    assert verify_chain(Manifest).ok


def test_a_bulk_append_takes_rows_of_one_model(town):
    with pytest.raises(TypeError, match="one model"):
        record_append_bulk([_unsaved(town.own_device, "A", 3), object()], acting_user="seed_demo")
    assert record_append_bulk([], acting_user="seed_demo") == []
