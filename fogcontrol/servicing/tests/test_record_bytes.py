"""The bytes a copy of record is signed over do not change when the hashing gets faster (F7).

The canonical text and keyed hash of one manifest with every field set (decimals written with
fewer and more places than stored, an aware non-UTC time, None, non-ASCII text, a file name) are
pinned to the values the code gave before the ingest's per-row work was trimmed (issue 16): a
chain stored before must still verify, byte for byte."""

import datetime as dt
import hashlib
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from fogcontrol.audit.services import snapshot
from fogcontrol.core.record_hashing import canonical_submission, record_digest, record_mac, record_text
from fogcontrol.core.record_keys import Keyring
from fogcontrol.servicing.models import Manifest

# Computed with the code at 6bff729 (before the trim); do not update them to make this pass.
TEXT_SHA256 = "e2d12ffaf3145bb1949209beb92ba121692f23ae0c7df58d58e5440f2a63185f"
MAC = "6d316e629ad818f73a4fc86e1950a43324bf2d819346a3aba5433feac960e162"
DIGEST = "e2d12ffaf3145bb1949209beb92ba121692f23ae0c7df58d58e5440f2a63185f"
SUBMISSION = '{"a":["é","2026-01-02"],"b":"1.50","c":null}'


def _manifest() -> Manifest:
    at = dt.datetime(2026, 3, 8, 1, 30, 15, 123456, tzinfo=ZoneInfo("America/Los_Angeles"))
    return Manifest(
        channel=Manifest.Channel.API,
        device_id=41,
        site_address="12 Calle Ñandú",
        hauler_name="Bömba Pumping",
        hauler_id=7,
        manifest_number="M-ü-001",
        serviced_at=at,
        service_date=at.date(),
        full_pumpout=True,
        baffles_cleaned=False,
        fog_depth_in=Decimal("4.5"),
        solids_depth_in=Decimal("3"),
        gallons_removed=Decimal("900.125"),
        certified_by_name="Dana Driver",
        certification_version="2026-01",
        certification_text="I certify…",
        submission='{"demo":true}',
        received_at=dt.datetime(2026, 3, 9, 17, 0, tzinfo=dt.UTC),
        submitted_by_id=3,
        submitted_by_label="Dana (hauler)",
        record_sequence=12,
        previous_hash="ab" * 32,
        key_epoch=1,
    )


@pytest.mark.provision("F7")
def test_f7_a_manifest_is_signed_over_the_same_bytes_as_before():
    manifest = _manifest()
    ring = Keyring(keys={1: b"k" * 40}, source="test")
    assert hashlib.sha256(record_text(manifest).encode()).hexdigest() == TEXT_SHA256
    assert record_mac(manifest, ring=ring, epoch=1) == MAC
    assert record_digest(manifest) == DIGEST
    assert (
        canonical_submission({"b": Decimal("1.50"), "a": ["é", dt.date(2026, 1, 2)], "c": None}) == SUBMISSION
    )


@pytest.mark.provision("F7")
def test_f7_the_keyed_hash_is_the_same_for_each_row_of_a_run():
    # The key's HMAC state is prepared once and copied for each row: no row's hash leaks into the next.
    ring = Keyring(keys={1: b"k" * 40}, source="test")
    first = record_mac(_manifest(), ring=ring, epoch=1)
    other = _manifest()
    other.manifest_number = "M-2"
    assert record_mac(other, ring=ring, epoch=1) != first
    assert record_mac(_manifest(), ring=ring, epoch=1) == first == MAC


def test_the_audit_snapshot_of_a_manifest_is_unchanged():
    data = snapshot(_manifest())
    assert data["serviced_at"] == "2026-03-08T01:30:15.123456-08:00"
    assert data["fog_depth_in"] == "4.5" and data["gallons_removed"] == "900.125"
    assert data["device_id"] == 41 and data["full_pumpout"] is True and data["corrects_id"] is None
    assert data["site_address"] == "12 Calle Ñandú"
