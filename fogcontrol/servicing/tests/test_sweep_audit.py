"""The nightly sweep moves statuses set-based, and audits each move set-based too (D4, E1):
every device whose status the date changed has an entry naming the job, with before and after."""

import datetime as dt

import pytest

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.servicing.services import status_sweep, sweep
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories


def _sweep_entries() -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action="device_state.sweep").order_by("object_id"))


def _due_soon_devices(town, count: int) -> list:
    devices = [factories.DeviceFactory(establishments=[town.own_fse]) for _ in range(count)]
    for device in devices:
        submit(town.users[Role.HAULER], device, serviced_at=days_ago(80))
    return devices


@pytest.mark.provision("D4")
def test_each_status_the_sweep_moves_has_an_audit_entry_naming_the_job_with_before_and_after(town):
    devices = _due_soon_devices(town, 2)
    states = DeviceServiceState.objects.filter(device__in=devices)
    assert set(states.values_list("status", flat=True)) == {"due_soon"}
    the_day_after = max(states.values_list("next_due", flat=True)) + dt.timedelta(days=1)

    counts = status_sweep(today=the_day_after)

    assert counts["overdue"] == 2
    entries = _sweep_entries()
    assert [entry.object_id for entry in entries] == sorted(str(state.pk) for state in states)
    for entry in entries:
        assert (entry.actor, entry.actor_label) == (None, "servicing.nightly")
        assert (entry.before["status"], entry.after["status"]) == ("due_soon", "overdue")
        assert entry.after["status_on"] == the_day_after.isoformat()
        assert [name for name, _, _ in entry.changed_fields()] == ["status", "status_on"]


def test_a_status_the_date_does_not_change_leaves_no_entry(town):
    _due_soon_devices(town, 1)
    status_sweep()
    assert _sweep_entries() == []


def test_the_sweep_audits_under_the_label_it_is_run_with(town):
    devices = _due_soon_devices(town, 1)
    state = DeviceServiceState.objects.get(device=devices[0])
    status_sweep(today=state.next_due + dt.timedelta(days=1), acting_user="nightly-sweep")
    assert [entry.actor_label for entry in _sweep_entries()] == ["nightly-sweep"]


def test_a_sweep_larger_than_a_batch_moves_and_audits_every_device(town, monkeypatch):
    monkeypatch.setattr(sweep, "SWEEP_BATCH", 2)
    devices = _due_soon_devices(town, 5)
    later = max(DeviceServiceState.objects.values_list("next_due", flat=True)) + dt.timedelta(days=1)
    assert status_sweep(today=later)["overdue"] == 5
    assert DeviceServiceState.objects.filter(device__in=devices, status="overdue").count() == 5
    assert len(_sweep_entries()) == 5


def _entry_content(entry) -> tuple:
    return (entry.actor_id, entry.actor_label, entry.action, entry.content_type_id, entry.object_id,
            entry.object_repr, entry.before, entry.after, entry.note)  # fmt: skip


@pytest.mark.provision("D4")
def test_d4_the_entries_written_in_sql_equal_those_the_python_path_writes(town):
    """The sweep's audit entries are built by the database (audit.set_sql): they hold what
    ``audit_entries`` (the per-row snapshots) would write for the same moves, decimals, booleans,
    dates and times included."""
    from decimal import Decimal

    from fogcontrol.audit.services import audit_entries, snapshot

    devices = _due_soon_devices(town, 3)
    states = DeviceServiceState.objects.filter(device__in=devices).order_by("pk")
    DeviceServiceState.objects.filter(pk=devices[0].pk).update(
        fill_ratio=Decimal("0.4500"), fill_ratio_on=days_ago(80).date(), immediate_service_required=True
    )
    DeviceServiceState.objects.filter(pk=devices[1].pk).update(fill_ratio=Decimal("12.0625"), e8_exception="")
    befores = {state.pk: snapshot(state) for state in states}
    later = max(states.values_list("next_due", flat=True)) + dt.timedelta(days=1)

    status_sweep(today=later, acting_user="servicing.nightly")

    expected = audit_entries(
        acting_user="servicing.nightly",
        action="device_state.sweep",
        changes=[(state, befores[state.pk], snapshot(state)) for state in states.all()],  # read again
        note="The status changed with the date (D4, E1).",
    )
    written = list(AuditEntry.objects.filter(action="device_state.sweep").order_by("pk"))
    assert [_entry_content(e) for e in written] == [_entry_content(e) for e in expected]
    assert written[0].before["fill_ratio"] == "0.4500"
