"""The set-based manifest ingest (issue 16): the same records as one ``manifest_submit`` at a
time, and a fixed number of queries a chunk, whatever its size (E1, E3, E6, E7, E8, F1, F7)."""

from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ManifestFlag, ServiceRequirement
from fogcontrol.servicing.services import manifest_submit, reading_record
from fogcontrol.servicing.services.ingest import IngestRow, manifests_ingest
from fogcontrol.servicing.tests.helpers import days_ago, submission
from fogcontrol.testing import factories
from fogcontrol.testing.queries import counted

D = Decimal


def _devices(town, n: int):
    return [
        factories.DeviceFactory(
            establishments=[town.own_fse], parcel=town.own_fse.parcel, capacity_gallons=1000
        )
        for _ in range(n)
    ]


def _one_at_a_time(user, rows) -> list:
    ctx, out = ProgramContext(), []
    for row in rows:
        try:
            with transaction.atomic():
                manifest = manifest_submit(
                    acting_user=user,
                    submission=row.submission,
                    channel=Manifest.Channel.CSV,
                    raw=row.raw,
                    ctx=ctx,
                )
            out.append(("accepted", sorted(f.code for f in manifest.flag_list)))
        except Exception as exc:  # noqa: BLE001 - the outcome is compared, whatever it is
            out.append(("rejected", sorted(getattr(exc, "message_dict", {"": [str(exc)]}))))
    return out


def _in_a_chunk(user, rows) -> list:
    results = manifests_ingest(
        acting_user=user, rows=rows, channel=Manifest.Channel.CSV, ctx=ProgramContext()
    )
    return [
        ("accepted", sorted(f.code for f in r.manifest.flag_list))
        if r.accepted
        else ("rejected", sorted(r.errors))
        for r in results
    ]


def _records() -> dict:
    """Everything a user would see of the records, without ids, times and hashes."""
    number = dict(Manifest.objects.values_list("pk", "manifest_number"))
    skip = {"id", "received_at", "record_hash", "previous_hash", "record_sequence", "submitted_by_label"}
    manifests = sorted(
        tuple(sorted((k, str(v)) for k, v in row.items() if k not in skip))
        for row in Manifest.objects.values()
    )
    flags = sorted(
        ManifestFlag.objects.values_list("manifest__manifest_number", "code", "provision", "message")
    )
    requirements = sorted(
        (
            r.device_id,
            r.kind,
            r.status,
            str(r.opened_on),
            str(r.due_on),
            number.get(r.opened_by_manifest_id),
            number.get(r.closed_by_manifest_id),
            r.close_note,
            r.proposed_frequency_days,
            str(r.proposed_effective_on),
        )
        for r in ServiceRequirement.objects.all()
    )
    states = sorted(
        tuple(
            sorted(
                (k, str(number.get(v) if k == "last_manifest_id" else v))
                for k, v in row.items()
                if k != "refreshed_at"
            )
        )
        for row in DeviceServiceState.objects.values()
    )
    audit = sorted(AuditEntry.objects.values_list("action", flat=True))
    return {
        "manifests": manifests,
        "flags": flags,
        "requirements": requirements,
        "states": states,
        "audit": audit,
    }


def _difference(single, chunked) -> list:
    """The items of the first records that differ (for the failure message)."""
    out = []
    for one, other in zip(single, chunked, strict=False):
        if one != other:
            out.append(
                [(a, b) for a, b in zip(one, other, strict=False) if a != b]
                if isinstance(one, tuple)
                else (one, other)
            )
    return out[:3]


def _both_ways(user, make_rows):
    """The rows submitted one at a time, then (rolled back) in one chunk: outcomes and records."""
    with transaction.atomic():
        single = _one_at_a_time(user, make_rows())
        single_records = _records()
        transaction.set_rollback(True)
    with transaction.atomic():
        chunked = _in_a_chunk(user, make_rows())
        chunked_records = _records()
        report = verify_chain(Manifest)
        transaction.set_rollback(True)
    return single, single_records, chunked, chunked_records, report


def _table_rows(town, devices, facility):
    a, b, c = devices
    rows = []

    def add(device, days, number=None, **changes):
        changes.setdefault("receiving_facility", facility.name)
        sub = submission(device.identifier, serviced_at=days_ago(days), **changes)
        sub.manifest_number = number or f"N-{len(rows)}"
        rows.append(IngestRow(submission=sub, raw={"n": len(rows)}))

    add(a, 200)
    add(a, 170, fog_depth_in=D("9"), solids_depth_in=D("8"))  # over 25%: E6 requirement met at once (E3, E6)
    add(a, 140, full_pumpout=False, fog_depth_in=D("12"), solids_depth_in=D("10"))  # open E6, not pumped
    add(a, 120)  # a full pump-out meets it (E6)
    add(a, 60, gallons_removed=D("200"))  # low volume on a full pump-out (E7); serviced late (E1)
    add(b, 100, baffles_cleaned=False, receiving_facility=None)  # E7 flags
    add(b, 100, vehicle_plate="8ABC123", hauler=town.hauler.name)
    add(c, 100, vehicle_plate="8abc123", hauler=town.hauler.name)  # the same truck elsewhere (F7)
    add(c, 70, "DUP-1", hauler=town.hauler.name)
    add(c, 40, "DUP-1", hauler=town.hauler.name)  # the hauler's number again: refused (F7)
    add(b, 30, fog_depth_in=D("50"), solids_depth_in=D("10"))  # deeper than the device: refused (E3)
    rows.append(
        IngestRow(submission=submission("GI-NOPE", serviced_at=days_ago(5)), raw={})
    )  # unknown device
    add(b, -3)  # in the future: refused
    add(c, 10, fog_depth_in=D("6"), solids_depth_in=D("6"))
    return rows


@pytest.mark.provision("E6")
@pytest.mark.provision("F7")
def test_e6_f7_a_chunk_stores_the_same_records_as_one_manifest_at_a_time(town):
    manager = town.users[Role.FOG_MANAGER]
    devices = _devices(town, 3)
    facility = factories.ReceivingFacilityFactory()
    # History on record before the chunk: a pump-out and an inspection reading over the limit.
    manifest_submit(
        acting_user=manager, submission=submission(devices[1], serviced_at=days_ago(400)), channel="portal"
    )
    reading_record(
        device=devices[2], acting_user=manager, taken_on=days_ago(300).date(), fog_depth_in=D("10"),
        solids_depth_in=D("10"), source="inspection",
    )  # fmt: skip
    single, single_records, chunked, chunked_records, report = _both_ways(
        manager, lambda: _table_rows(town, devices, facility)
    )
    assert chunked == single
    assert [outcome for outcome, _ in single].count("rejected") == 4
    assert any("vehicle_conflict" in codes or "vehicle" in " ".join(codes) for _, codes in single)
    for key in single_records:
        assert chunked_records[key] == single_records[key], (
            key,
            _difference(single_records[key], chunked_records[key]),
        )
    assert report.ok, report.problems


rows_strategy = st.lists(
    st.tuples(
        st.integers(0, 2),  # device
        st.integers(1, 400),  # days ago
        st.booleans(),  # full pump-out
        st.booleans(),  # baffles cleaned
        st.sampled_from([None, (D("2"), D("3")), (D("9"), D("8")), (D("14"), D("12"))]),  # depths
        st.sampled_from([D("900"), D("150"), D("1400")]),  # gallons
        st.sampled_from(["", "7XYZ001"]),  # plate
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.provision("E6")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=rows_strategy)
def test_e6_any_chunk_stores_what_one_at_a_time_stores(town, rows):
    manager = town.users[Role.FOG_MANAGER]
    devices = list(
        town.__dict__.setdefault("_ingest_devices", _devices(town, 3))
    )  # the same devices for every example

    def make_rows():
        made = []
        for i, (device, days, full, baffles, depths, gallons, plate) in enumerate(rows):
            fog, solids = depths or (None, None)
            sub = submission(
                devices[device].identifier,
                manifest_number=f"H-{i}", serviced_at=days_ago(days), full_pumpout=full, baffles_cleaned=baffles,
                fog_depth_in=fog, solids_depth_in=solids, gallons_removed=gallons, vehicle_plate=plate,
                hauler=town.hauler.name,
            )  # fmt: skip
            made.append(IngestRow(submission=sub, raw={}))
        return made

    single, single_records, chunked, chunked_records, report = _both_ways(manager, make_rows)
    assert chunked == single
    for key in single_records:
        assert chunked_records[key] == single_records[key], (
            key,
            _difference(single_records[key], chunked_records[key]),
        )
    assert report.ok, report.problems


def _chunk_rows(town, devices, n: int, start: int):
    return [
        IngestRow(
            submission=submission(
                devices[i % len(devices)].identifier,
                manifest_number=f"Q-{start + i}",
                serviced_at=days_ago(1000 - (i // len(devices)) * 7 - start // 100, hour=8 + i % 8),
                fog_depth_in=D("9") if i % 5 == 0 else D("3"),
                solids_depth_in=D("8") if i % 5 == 0 else D("3"),
                vehicle_plate="7XYZ001" if i % 3 == 0 else "",
            ),
            raw={"row": i},
        )
        for i in range(n)
    ]


@pytest.mark.provision("F7")
def test_f7_a_chunk_of_1000_rows_takes_the_same_queries_as_one_of_100(town):
    hauler = town.users[Role.HAULER]
    devices = [town.own_device, *_devices(town, 9)]
    counts = {}
    sizes = (("warm-up", 10, 0), ("100", 100, 1000), ("1000", 1000, 5000), ("100 again", 100, 75000))
    for label, size, start in sizes:
        rows = _chunk_rows(town, devices, size, start)
        with CaptureQueriesContext(connection) as captured, transaction.atomic():
            results = manifests_ingest(acting_user=hauler, rows=rows, channel=Manifest.Channel.CSV)
        assert all(r.accepted for r in results), [r.errors for r in results if not r.accepted][:3]
        counts[label] = counted(captured.captured_queries)
    # The same statements, one for one, whatever the size: reads, the chain, flags, requirements,
    # audit, states (about 25, on SQLite and PostgreSQL alike, once the process's caches are filled).
    shapes = {label: [q[:30] for q in sql] for label, sql in counts.items() if label != "warm-up"}
    assert shapes["1000"] == shapes["100"] == shapes["100 again"], "\n".join(q[:150] for q in counts["1000"])
    assert Manifest.objects.count() == 1210
    assert verify_chain(Manifest).ok
