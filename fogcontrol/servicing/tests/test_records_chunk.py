"""Appending a chunk of copies of record in one statement (issue 16): the same chain, keyed hashes,
head and seal as ``record_append`` one at a time, every trigger firing for every row (F7)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from fogcontrol.core.models import RecordChainHead, RecordChainSeal
from fogcontrol.core.record_chunk import record_append_chunk
from fogcontrol.core.record_hashing import record_mac
from fogcontrol.core.record_keys import keyring
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing.queries import counted


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
def test_f7_a_chunk_append_continues_the_keyed_chain_between_single_appends(town):
    hauler = town.users[Role.HAULER]
    first = submit(hauler, town.own_device, serviced_at=days_ago(40))
    rows = [_unsaved(town.own_device, f"CHUNK-{i}", 30 - i) for i in range(5)]
    with transaction.atomic():
        appended = record_append_chunk(rows, acting_user="seed_demo")
    last = submit(hauler, town.own_device, serviced_at=days_ago(2))

    assert [m.record_sequence for m in appended] == list(
        range(first.record_sequence + 1, first.record_sequence + 6)
    )
    assert appended[0].previous_hash == first.record_hash
    assert last.previous_hash == appended[-1].record_hash
    ring = keyring()
    for manifest in appended:
        stored = Manifest.objects.get(pk=manifest.pk)
        assert stored.manifest_number == manifest.manifest_number
        assert stored.fog_depth_in == manifest.fog_depth_in and stored.serviced_at == manifest.serviced_at
        assert stored.submitted_by_label == "seed_demo" and stored.received_at.utcoffset() == dt.timedelta(0)
        assert (
            record_mac(stored, ring=ring, epoch=stored.key_epoch)
            == stored.record_hash
            == manifest.record_hash
        )
    head = RecordChainHead.objects.get(chain=Manifest._meta.db_table)
    seal = RecordChainSeal.objects.get(chain=Manifest._meta.db_table)
    assert (seal.sealed_sequence, seal.sealed_hash) == (head.last_sequence, head.last_hash)
    report = verify_chain(Manifest)
    assert report.ok, report.problems
    assert report.records == 7


@pytest.mark.provision("F7")
def test_f7_a_chunk_takes_the_same_statements_whatever_its_size(town):
    counts = []
    for size in (1, 3, 40):  # the first warms per-process caches (content types, the key file)
        rows = [_unsaved(town.own_device, f"C{size}-{i}", 300 - i) for i in range(size)]
        with CaptureQueriesContext(connection) as captured, transaction.atomic():
            record_append_chunk(rows, acting_user="seed_demo")
        counts.append(len(counted(captured.captured_queries)))
    assert counts[1] == counts[2]
    assert verify_chain(Manifest).ok


@pytest.mark.provision("F7")
def test_f7_a_chunk_that_breaks_the_chain_is_refused_whole_by_the_triggers(town):
    rows = [_unsaved(town.own_device, f"BAD-{i}", 30 - i) for i in range(3)]
    with transaction.atomic():
        record_append_chunk(rows[:1], acting_user="seed_demo")
    head = RecordChainHead.objects.get(chain=Manifest._meta.db_table)
    # Move the head on behind the writer's back: the chunk computed from a stale head is refused.
    from fogcontrol.core import records

    stale = records._locked_chain

    def behind(model):
        ring, locked, seal = stale(model)
        locked.last_sequence -= 1
        return ring, locked, seal

    records_chunk = __import__("fogcontrol.core.record_chunk", fromlist=["_locked_chain"])
    original = records_chunk._locked_chain
    records_chunk._locked_chain = behind
    try:
        with pytest.raises(DatabaseError), transaction.atomic():
            record_append_chunk(rows[1:], acting_user="seed_demo")
    finally:
        records_chunk._locked_chain = original
    assert Manifest.objects.count() == 1
    assert RecordChainHead.objects.get(pk=head.pk).last_sequence == head.last_sequence


def test_a_chunk_takes_rows_of_one_model(town):
    with pytest.raises(TypeError, match="one model"), transaction.atomic():
        record_append_chunk([_unsaved(town.own_device, "A", 3), object()], acting_user="seed_demo")
    assert record_append_chunk([], acting_user="seed_demo") == []
