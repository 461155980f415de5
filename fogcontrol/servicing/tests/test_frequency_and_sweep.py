"""Frequencies (E1, E5, B7) and the nightly sweep of statuses that change with the date (D4)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.rules import maintenance
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.ruleset import CHAPTER_10_02
from fogcontrol.rules.servicing_rules import status_window
from fogcontrol.servicing.models import DeviceServiceState, FrequencyChange, ServiceRequirement
from fogcontrol.servicing.services import (
    frequency_change,
    frequency_request_decide,
    frequency_request_file,
    reading_record,
    status_sweep,
)
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories


@pytest.mark.provision("B7")
def test_b7_a_frequency_change_takes_effect_no_sooner_than_the_notice_period(town):
    manager = town.users[Role.FOG_MANAGER]
    today = town_today()
    change = frequency_change(device=town.own_device, acting_user=manager, to_days=60, reason="Fryer added")
    assert change.notice_date == today and change.effective_on == today + dt.timedelta(days=10)
    assert change.applied_at is None
    town.own_device.refresh_from_db()
    assert town.own_device.assigned_frequency_days is None  # not yet in force
    assert AuditEntry.objects.filter(action="frequency.change").count() == 1
    with pytest.raises(ValidationError) as excinfo:
        frequency_change(
            device=town.own_device,
            acting_user=manager,
            to_days=30,
            reason="x",
            effective_on=today + dt.timedelta(days=9),
        )
    assert "B7 requires at least 10 days' notice" in excinfo.value.message_dict["effective_on"][0]


@pytest.mark.provision("E1")
def test_e1_only_allowed_frequencies_and_only_the_fog_manager(town):
    with pytest.raises(ValidationError) as excinfo:
        frequency_change(
            device=town.own_device, acting_user=town.users[Role.FOG_MANAGER], to_days=45, reason="x"
        )
    assert excinfo.value.message_dict["to_days"] == [
        "45 days is not an allowed frequency; choose one of 30, 60, 90, 120, 180 days (E1)."
    ]
    with pytest.raises(PermissionDenied):
        frequency_change(
            device=town.own_device, acting_user=town.users[Role.INSPECTOR], to_days=60, reason="x"
        )


@pytest.mark.provision("E1")
def test_e1_the_sweep_applies_the_change_on_its_effective_date_and_the_due_date_follows(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(20))
    change = frequency_change(
        device=town.own_device, acting_user=town.users[Role.FOG_MANAGER], to_days=30, reason="Over 25% twice"
    )
    status_sweep(today=change.effective_on - dt.timedelta(days=1))
    assert FrequencyChange.objects.get().applied_at is None
    counts = status_sweep(today=change.effective_on)
    assert counts["frequency_changes_applied"] == 1
    town.own_device.refresh_from_db()
    assert town.own_device.assigned_frequency_days == 30
    state = DeviceServiceState.objects.get(device=town.own_device)
    assert state.frequency_days == 30 and not state.frequency_is_default
    assert state.next_due <= days_ago(20).date() + dt.timedelta(days=33)


def test_a_frequency_change_closes_the_open_frequency_review(town):
    reading_record(device=town.own_device, acting_user=town.users[Role.INSPECTOR], taken_on=days_ago(1).date(),
                   fog_depth_in=Decimal("9"), solids_depth_in=Decimal("5"), source="inspection")  # fmt: skip
    frequency_change(
        device=town.own_device, acting_user=town.users[Role.FOG_MANAGER], to_days=60, reason="E6 review"
    )
    review = ServiceRequirement.objects.get(kind="frequency_review")
    assert review.status == "closed" and "every 60 days" in review.close_note


@pytest.mark.provision("B7")
def test_b7_a_device_with_an_issued_permit_gets_a_permit_modification(town):
    from fogcontrol.permits.models import Permit, PermitModification

    today = town_today()
    Permit.objects.create(
        establishment=town.own_fse,
        device=town.own_device,
        number="FOG-TEST-1",
        first_issued_on=today - dt.timedelta(days=30),
        term_start=today - dt.timedelta(days=30),
        valid_until=today + dt.timedelta(days=300),
        device_kind=town.own_device.kind,
        service_frequency_days=90,
    )
    change = frequency_change(
        device=town.own_device, acting_user=town.users[Role.FOG_MANAGER], to_days=60, reason="Heavy use"
    )
    modification = PermitModification.objects.get()
    assert change.permit_modification_ref == str(modification.pk)
    assert modification.changes == {"service_frequency_days": 60}
    assert modification.effective_on == change.effective_on


@pytest.mark.provision("E5")
def test_e5_a_request_without_data_is_refused_by_the_engine_and_staff_must_explain_overriding(town):
    fse = town.users[Role.FSE]
    filed = frequency_request_file(
        device=town.own_device, acting_user=fse, requested_days=180, justification="Clean kitchen"
    )
    assert filed.assessment["granted"] is False
    assert any("usable observation" in reason for reason in filed.assessment["reasons"])
    with pytest.raises(Conflict):
        frequency_request_file(
            device=town.own_device, acting_user=fse, requested_days=120, justification="again"
        )
    manager = town.users[Role.FOG_MANAGER]
    with pytest.raises(ValidationError) as excinfo:
        frequency_request_decide(request=filed, acting_user=manager, grant=True)
    assert "differs from the rules engine's assessment" in excinfo.value.message_dict["note"][0]
    frequency_request_decide(request=filed, acting_user=manager, grant=False)
    filed.refresh_from_db()
    assert filed.status == "refused"
    with pytest.raises(Conflict):
        frequency_request_decide(request=filed, acting_user=manager, grant=False)


@pytest.mark.provision("E5")
def test_e5_a_request_supported_by_accumulation_data_is_granted_with_a_b7_change(town):
    hauler = town.users[Role.HAULER]
    # Four 90-day pump-outs, each finding about 10% fill: the data supports 120 days.
    for days in (370, 280, 190, 100):
        submit(
            hauler,
            town.own_device,
            serviced_at=days_ago(days),
            fog_depth_in=Decimal("3"),
            solids_depth_in=Decimal("2"),
        )
    submit(
        hauler,
        town.own_device,
        serviced_at=days_ago(10),
        fog_depth_in=Decimal("3"),
        solids_depth_in=Decimal("2"),
    )
    filed = frequency_request_file(
        device=town.own_device,
        acting_user=town.users[Role.FSE],
        requested_days=120,
        justification="Readings attached",
    )
    assert filed.assessment["granted"] is True, filed.assessment
    frequency_request_decide(request=filed, acting_user=town.users[Role.FOG_MANAGER], grant=True)
    change = FrequencyChange.objects.get()
    assert change.request == filed and change.to_days == 120 and change.source == "request"


# --- the sweep ---------------------------------------------------------------------------------


@pytest.mark.provision("E1")
def test_e1_the_sweep_moves_due_soon_to_overdue_as_the_days_pass(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(80))
    state = DeviceServiceState.objects.get(device=town.own_device)
    assert state.status == "due_soon"
    status_sweep(today=state.next_due)
    state.refresh_from_db()
    assert state.status == "due_soon"
    status_sweep(today=state.next_due + dt.timedelta(days=1))
    state.refresh_from_db()
    assert state.status == "overdue" and state.status_on == state.next_due + dt.timedelta(days=1)


def test_the_sweep_creates_the_state_of_devices_never_serviced(town):
    counts = status_sweep()
    assert counts["created"] == 3
    assert set(DeviceServiceState.objects.values_list("status", flat=True)) == {"never_serviced"}


@pytest.mark.parametrize("devices", [3, 30])
def test_the_sweep_is_set_based(town, devices, django_assert_num_queries):
    for index in range(devices):
        device = factories.DeviceFactory(establishments=[town.own_fse])
        submit(town.users[Role.HAULER], device, serviced_at=days_ago(index + 60))
    status_sweep()  # creates the states of the town's own devices
    # The same 11 statements for 3 devices and for 30: the Town profile, the devices, their frequency
    # changes, the ruleset; in a savepoint the states' ids, the audit entries in one INSERT … SELECT
    # (with their content type, cleared before each test), one UPDATE per new status; the unchanged dates.
    with django_assert_num_queries(11):
        status_sweep(today=town_today() + dt.timedelta(days=365))
    assert DeviceServiceState.objects.filter(status="overdue").count() == devices


@given(
    last=st.dates(min_value=dt.date(2023, 1, 1), max_value=dt.date(2030, 1, 1)),
    offset=st.integers(min_value=-10, max_value=400),
    frequency=st.sampled_from([30, 60, 90, 120, 180]),
    grace=st.integers(min_value=0, max_value=10),
    soon=st.integers(min_value=0, max_value=30),
)
def test_the_sweeps_window_agrees_with_the_rules_device_status(last, offset, frequency, grace, soon):
    """status_window is the set-based form of maintenance.device_status: same status every day."""
    ruleset = CHAPTER_10_02.replace(service_grace_days=grace, service_due_soon_days=soon)
    calendar = TownCalendar()
    on = last + dt.timedelta(days=offset)
    status = maintenance.device_status(
        on=on,
        kind="gravity_interceptor",
        assigned_frequency_days=frequency,
        last_full_pumpout=last,
        latest_measurement=None,
        total_depth_in=Decimal(48),
        ruleset=ruleset,
        calendar=calendar,
    )
    window = status_window(on, ruleset)
    if status.next_due < window.overdue_if_due_before:
        expected = "overdue"
    elif status.next_due <= window.due_soon_if_due_by:
        expected = "due_soon"
    else:
        expected = "compliant"
    assert status.status == expected
