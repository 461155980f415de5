"""The nightly sweep creates missing device states set-based (issue 16), with the same verdicts as
``device_state_refresh`` gives one device at a time (D4, E1-E4), in queries that do not grow with
the number of devices."""

from decimal import Decimal

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState, Manifest
from fogcontrol.servicing.services import reading_record, state, state_bulk, status_sweep
from fogcontrol.servicing.services.state import device_state_refresh
from fogcontrol.servicing.services.state_bulk import device_states_create_missing
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories


def _states() -> dict[int, dict]:
    return {
        row.pop("device_id"): row
        for row in DeviceServiceState.objects.values().order_by("device_id")
        if row.pop("refreshed_at")
    }


def _histories(town) -> None:
    hauler = town.users[Role.HAULER]
    on_time, partial, over, trap = (factories.DeviceFactory(establishments=[town.own_fse]) for _ in range(4))
    for days in (400, 310, 220, 130, 40):
        submit(hauler, on_time, serviced_at=days_ago(days))
    submit(hauler, partial, serviced_at=days_ago(200))
    submit(hauler, partial, serviced_at=days_ago(100), full_pumpout=False, baffles_cleaned=False)
    submit(hauler, over, serviced_at=days_ago(150))
    # Over 25% (E6): opens the immediate-service requirement the state shows.
    reading_record(device=over, acting_user=town.users[Role.INSPECTOR], taken_on=days_ago(5).date(),
                   fog_depth_in=Decimal("12"), solids_depth_in=Decimal("9"), source="inspection")  # fmt: skip
    trap.kind, trap.total_design_depth_in = GreaseControlDevice.Kind.HYDROMECHANICAL, Decimal("12")
    trap.save()
    submit(hauler, trap, serviced_at=days_ago(20), fog_depth_in=Decimal("1"), solids_depth_in=Decimal("1"))


@pytest.mark.provision("D4")
@pytest.mark.provision("E1")
def test_d4_e1_states_made_in_bulk_are_those_of_device_state_refresh(town, monkeypatch):
    # A bound of two manifests and two readings, so that the bound itself is compared (E4, E5).
    for module in (state, state_bulk):
        monkeypatch.setattr(module, "HISTORY_MANIFESTS", 2)
        monkeypatch.setattr(module, "HISTORY_READINGS", 2)
    _histories(town)
    ctx = ProgramContext()
    DeviceServiceState.objects.all().delete()
    assert device_states_create_missing(ctx=ctx) == GreaseControlDevice.objects.count()
    in_bulk = _states()
    DeviceServiceState.objects.all().delete()
    for device in GreaseControlDevice.objects.all():
        device_state_refresh(device=device, ctx=ctx)
    one_by_one = _states()
    assert in_bulk == one_by_one
    statuses = {row["status"] for row in in_bulk.values()}
    assert {"never_serviced", "over_limit"} <= statuses
    assert any(row["immediate_service_required"] for row in in_bulk.values())


def test_a_batch_boundary_leaves_no_device_out(town, monkeypatch):
    monkeypatch.setattr(state_bulk, "STATE_BATCH", 2)
    for _ in range(3):
        factories.DeviceFactory(establishments=[town.own_fse])
    assert status_sweep()["created"] == GreaseControlDevice.objects.count()
    assert not GreaseControlDevice.objects.filter(service_state__isnull=True).exists()


@pytest.mark.parametrize("devices", [3, 30])
def test_creating_missing_states_takes_the_same_queries_for_3_and_30_devices(
    town, devices, django_assert_num_queries
):
    for index in range(devices):
        device = factories.DeviceFactory(establishments=[town.own_fse])
        submit(town.users[Role.HAULER], device, serviced_at=days_ago(index + 60))
    DeviceServiceState.objects.all().delete()
    ctx = ProgramContext(today=town_today())
    ctx.ruleset(ctx.today()), ctx.calendar()  # the program's settings, read once a run
    # The devices, their manifests, readings and open requirements, then one INSERT.
    with django_assert_num_queries(5):
        device_states_create_missing(ctx=ctx)
    assert DeviceServiceState.objects.count() == GreaseControlDevice.objects.count()


def test_the_columns_read_in_bulk_are_the_values_django_reads(town):
    # _columns converts each distinct value once (keyed by the value in a column of one type, by
    # type and value where SQLite mixes integers and reals, as it stores 4 and 2.5 in one depth
    # column) and the days are read as text (_undeclared): the values must be those values_list
    # gives, type, places and all (issue 16).
    hauler = town.users[Role.HAULER]
    device = factories.DeviceFactory(establishments=[town.own_fse])
    depths = [(Decimal("4"), Decimal("3")), (Decimal("2.5"), Decimal("3.25")), (Decimal("0"), Decimal("1.5"))]
    for days, (fog, solids) in zip((300, 200, 10), depths, strict=True):
        submit(hauler, device, serviced_at=days_ago(days), fog_depth_in=fog, solids_depth_in=solids)
    submit(hauler, device, serviced_at=days_ago(100), full_pumpout=False, baffles_cleaned=False)
    manifests = Manifest.objects.filter(device=device).order_by("pk")
    fields = ["pk", "full_pumpout", "fog_depth_in", "solids_depth_in"]
    expected = [tuple(map(repr, row)) for row in manifests.values_list("service_date", *fields)]
    read = state_bulk._columns(
        manifests.annotate(day=state_bulk._undeclared("service_date")).values_list("day", *fields), 5
    )
    assert [tuple(map(repr, row)) for row in zip(*read, strict=True)] == expected
