"""A service history loaded in bulk (the demo town, issue 19) is judged as the services judge one
record at a time: the same flags, requirements opened and met, device states and audit entries as
``manifest_submit`` and ``reading_record`` make of the same records in the same order, with the
manifests on the keyed chain (E1, E3, E6, E7, E8, F7)."""

import datetime as dt
from collections import Counter
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.records import verify_chain
from fogcontrol.servicing.models import (
    DeviceServiceState,
    Manifest,
    ManifestFlag,
    ServiceRequirement,
    SludgeReading,
)
from fogcontrol.servicing.services import manifest_submit, reading_record
from fogcontrol.servicing.services.history import HistoryNotEmpty, ServiceHistoryBatch
from fogcontrol.servicing.tests.helpers import days_ago, submission
from fogcontrol.testing import factories

JOB = "seed_demo"


class _Undo(Exception):
    pass


def _steps(town, plate: str) -> list[tuple[str, dict]]:
    """Two devices' history with every consequence the rules have: on time, over 25% (met by the
    same visit), a reading over 25% (immediate service, met by the next full pump-out), low volume,
    late, baffles not cleaned, a partial service, and the same truck at two sites 15 minutes apart."""
    own, other = town.own_device, town.other_device
    hauler = town.hauler

    def manifest(device, days, number, **changes):
        values = {"hauler": hauler, "vehicle_plate": plate, "serviced_at": days_ago(days, hour=8)}
        values.update(changes)
        return ("manifest", {"submission": submission(device, manifest_number=number, **values)})

    return [
        manifest(own, 400, "H-1"),
        manifest(own, 310, "H-2", baffles_cleaned=False),
        manifest(own, 220, "H-3", fog_depth_in=Decimal("10"), solids_depth_in=Decimal("6.5")),
        manifest(other, 215, "H-4"),
        (
            "reading",
            {
                "device": own,
                "taken_on": (days_ago(150)).date(),
                "fog_depth_in": Decimal("9"),
                "solids_depth_in": Decimal("5"),
                "source": SludgeReading.Source.INSPECTION,
            },
        ),
        manifest(own, 60, "H-5", gallons_removed=Decimal("250")),
        manifest(other, 60, "H-6", serviced_at=days_ago(60, hour=8) + dt.timedelta(minutes=15)),
        manifest(
            own, 12, "H-7", full_pumpout=False, baffles_cleaned=False, fog_depth_in=None, solids_depth_in=None
        ),
    ]


def _outcome() -> dict:
    """What a person sees of the history: every field but the clock's and the chain's."""
    number = {m.pk: m.manifest_number for m in Manifest.objects.all()}
    reading_day = {r.pk: r.taken_on for r in SludgeReading.objects.all()}
    manifest_fields = [
        f.attname
        for f in Manifest._meta.concrete_fields
        if f.attname not in {"id", "received_at", "record_sequence", "previous_hash", "record_hash"}
    ]
    return {
        "manifests": sorted(Manifest.objects.values_list(*manifest_fields)),
        "flags": sorted(
            (number[f.manifest_id], f.code, f.provision, f.message, f.review)
            for f in ManifestFlag.objects.all()
        ),
        "requirements": sorted(
            (
                r.device_id,
                r.kind,
                r.status,
                r.opened_on,
                r.due_on,
                number.get(r.opened_by_manifest_id),
                reading_day.get(r.opened_by_reading_id),
                number.get(r.closed_by_manifest_id),
                r.close_note,
                r.proposed_frequency_days,
                r.proposed_effective_on,
                str(r.explanation),
            )
            for r in ServiceRequirement.objects.all()
        ),
        "readings": sorted(
            SludgeReading.objects.values_list("device_id", "taken_on", "fog_depth_in", "fill_ratio", "source")
        ),
        "states": sorted(
            tuple(
                number.get(value, value) if key == "last_manifest_id" else value
                for key, value in sorted(state.items())
            )
            for state in DeviceServiceState.objects.values()
            for state in [{k: v for k, v in state.items() if k != "refreshed_at"}]
        ),
        "audit": Counter(AuditEntry.objects.values_list("action", flat=True)),
    }


def _one_at_a_time(steps) -> dict:
    try:
        with transaction.atomic():
            for kind, values in steps:
                if kind == "manifest":
                    manifest_submit(
                        acting_user=JOB, channel=Manifest.Channel.CSV, raw={"demo": True}, **values
                    )
                else:
                    reading_record(acting_user=JOB, **values)
            result = _outcome()
            raise _Undo
    except _Undo:
        return result


def _in_bulk(steps) -> dict:
    batch = ServiceHistoryBatch(acting_user=JOB)
    for kind, values in steps:
        if kind == "manifest":
            batch.manifest(values["submission"], channel=Manifest.Channel.CSV, raw={"demo": True})
        else:
            batch.reading(**values)
    batch.write()
    return _outcome()


@pytest.mark.provision("E6")
def test_e6_e7_f7_a_history_in_bulk_is_judged_as_the_services_judge_it_one_by_one(town):
    vehicle = factories.HaulerVehicleFactory(hauler=town.hauler, plate="7ABC123")
    steps = _steps(town, vehicle.plate)
    expected = _one_at_a_time(steps)
    assert not Manifest.objects.exists()
    # The history has something of every kind, so the comparison means something.
    codes = {flag[1] for flag in expected["flags"]}
    assert {"over_limit", "low_volume", "serviced_late", "baffles_not_cleaned", "vehicle_conflict"} <= codes
    statuses = {(r[1], r[2]) for r in expected["requirements"]}
    assert {("immediate_service", "met"), ("frequency_review", "open")} <= statuses
    assert any(r[6] is not None and r[7] is not None for r in expected["requirements"])  # reading, then met

    assert _in_bulk(_steps(town, vehicle.plate)) == expected
    assert verify_chain(Manifest).ok


def test_a_batch_refuses_a_program_with_service_records(town):
    manifest_submit(acting_user=JOB, submission=submission(town.own_device), channel=Manifest.Channel.CSV)
    with pytest.raises(HistoryNotEmpty, match="one at a time"):
        ServiceHistoryBatch(acting_user=JOB)


@pytest.mark.provision("F7")
def test_f1_f7_a_batch_refuses_what_the_services_refuse(town):
    """F1, F7: a manifest number the hauler already submitted, and a reading dated in the future."""
    batch = ServiceHistoryBatch(acting_user=JOB)
    batch.manifest(submission(town.own_device, manifest_number="N-1", hauler=town.hauler), channel="csv")
    with pytest.raises(ValidationError) as refusal:  # F1, F7: the hauler's own number, twice
        batch.manifest(submission(town.own_device, manifest_number="N-1", hauler=town.hauler), channel="csv")
    assert "already submitted manifest N-1" in str(refusal.value)
    with pytest.raises(ValidationError, match="in the future"):
        batch.reading(
            device=town.own_device,
            taken_on=dt.date.today() + dt.timedelta(days=5),
            fog_depth_in=Decimal("1"),
            solids_depth_in=Decimal("1"),
            source=SludgeReading.Source.SELF_MONITORING,
        )
