"""The set-based ingest judges each device's snapshot without formatting its working (issue 16,
``worded=False``): the rows it writes, the requirements' stored workings included, are the
rows ``manifest_submit`` writes one at a time with every working said (E1, E6, E8)."""

from decimal import Decimal

import pytest
from django.db import transaction

from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import DeviceServiceState, ManifestFlag, ServiceRequirement
from fogcontrol.servicing.services import manifest_submit, reading_record
from fogcontrol.servicing.tests.helpers import days_ago, submission
from fogcontrol.servicing.tests.test_ingest import _devices, _in_a_chunk, _one_at_a_time, _table_rows
from fogcontrol.testing import factories

D = Decimal


def _written() -> dict:
    """The requirements with their stored working, the flags' words and the device states, keyed
    by what a user sees (no ids or times)."""
    requirements = sorted(
        (r.device_id, r.kind, r.status, str(r.opened_on), r.close_note, repr(r.explanation))
        for r in ServiceRequirement.objects.all()
    )
    flags = sorted(ManifestFlag.objects.values_list("manifest__manifest_number", "code", "message"))
    states = sorted(
        tuple(
            sorted((k, str(v)) for k, v in row.items() if k not in {"refreshed_at", "last_manifest_id", "id"})
        )
        for row in DeviceServiceState.objects.values()
    )
    return {"requirements": requirements, "flags": flags, "states": states}


@pytest.mark.provision("E6")
def test_e6_a_chunk_writes_the_workings_one_at_a_time_writes(town):
    manager = town.users[Role.FOG_MANAGER]
    devices = _devices(town, 3)
    facility = factories.ReceivingFacilityFactory()
    manifest_submit(
        acting_user=manager, submission=submission(devices[1], serviced_at=days_ago(400)), channel="portal"
    )
    reading_record(
        device=devices[2], acting_user=manager, taken_on=days_ago(300).date(), fog_depth_in=D("10"),
        solids_depth_in=D("10"), source="inspection",
    )  # fmt: skip
    with transaction.atomic():
        single = _one_at_a_time(manager, _table_rows(town, devices, facility))
        one_at_a_time = _written()
        transaction.set_rollback(True)
    with transaction.atomic():
        chunked = _in_a_chunk(manager, _table_rows(town, devices, facility))
        in_a_chunk = _written()
        stored = list(ServiceRequirement.objects.values_list("explanation", flat=True))
        transaction.set_rollback(True)
    assert chunked == single
    assert one_at_a_time["requirements"], "the rows open requirements: their workings are compared"
    assert in_a_chunk == one_at_a_time
    # Every stored working is said in full: English text and the template of each step.
    for explanation in stored:
        assert explanation["said"] and all(step is not None for step in explanation["said"])
        assert all(isinstance(step, str) and "%(" not in step for step in explanation["steps"])
