"""What a manifest is refused for, flagged for, and what it changes (E1, E3, E6, E7, E8, F7)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from fogcontrol.core.roles import Role
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ServiceRequirement
from fogcontrol.servicing.services import manifest_correct, reading_record, submission_from_manifest
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories


def _errors(excinfo) -> dict:
    return excinfo.value.message_dict


def codes(manifest) -> set[str]:
    return {flag.code for flag in manifest.flags.all()}


# --- refusals ----------------------------------------------------------------------------------


def test_a_device_not_served_by_the_haulers_customers_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], town.other_device)
    message = _errors(excinfo)["device"][0]
    assert f"No device {town.other_device.identifier} among the devices you may report on" in message
    assert "ask the FSE to name your company as its hauler" in message


def test_an_unknown_device_number_is_refused_with_the_same_message(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], "GI-99999")
    assert "No device GI-99999 among the devices you may report on" in _errors(excinfo)["device"][0]


def test_a_service_date_in_the_future_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], town.own_device, serviced_at=timezone.now() + dt.timedelta(days=1))
    assert _errors(excinfo)["serviced_at"] == [
        "The date of service is in the future; enter the day and time the work was done."
    ]


def test_a_service_date_before_the_device_was_installed_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(
            town.users[Role.HAULER],
            town.own_device,
            serviced_at=timezone.make_aware(dt.datetime(2014, 1, 5, 9)),
        )
    assert "before device" in _errors(excinfo)["serviced_at"][0]
    assert "was installed (2015-05-01)" in _errors(excinfo)["serviced_at"][0]


@pytest.mark.provision("E3")
def test_e3_depths_deeper_than_the_device_are_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(
            town.users[Role.HAULER],
            town.own_device,
            fog_depth_in=Decimal("30"),
            solids_depth_in=Decimal("20"),
        )
    assert _errors(excinfo)["fog_depth_in"] == [
        f"FOG 30 in + solids 20 in is deeper than device {town.own_device.identifier} (48.00 in total depth); "
        "check the measurements."
    ]


def test_a_negative_depth_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], town.own_device, solids_depth_in=Decimal("-1"))
    assert _errors(excinfo)["solids_depth_in"] == ["Must not be negative."]


def test_more_gallons_than_the_truck_holds_are_refused(town):
    factories.HaulerVehicleFactory(hauler=town.hauler, plate="8TRK001", tank_capacity_gallons=3000)
    with pytest.raises(ValidationError) as excinfo:
        submit(
            town.users[Role.HAULER], town.own_device, vehicle_plate="8trk001", gallons_removed=Decimal("3500")
        )
    assert "more than vehicle 8TRK001 holds (3000 gallons)" in _errors(excinfo)["gallons_removed"][0]


@pytest.mark.provision("F7")
def test_f7_a_manifest_without_certification_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], town.own_device, certified_by_name="", certification_version="")
    errors = _errors(excinfo)
    assert errors["certified_by_name"][0].startswith("The manifest must be certified: type the full name")
    assert errors["certification_version"][0].startswith("Missing certification")


def test_an_unknown_certification_version_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], town.own_device, certification_version="1999-9")
    assert "Unknown certification version 1999-9" in _errors(excinfo)["certification_version"][0]


def test_a_manifest_number_is_unique_per_hauler(town):
    submit(town.users[Role.HAULER], town.own_device, manifest_number="T-1")
    with pytest.raises(ValidationError) as excinfo:
        submit(town.users[Role.HAULER], town.own_device, manifest_number="T-1")
    assert _errors(excinfo)["manifest_number"] == [
        "Peninsula Pumping already submitted manifest T-1. To change it, submit a correction of that manifest."
    ]
    # Another hauler may use the same number.
    other = factories.HaulerCompanyFactory()
    submit(town.users[Role.FOG_MANAGER], town.own_device, manifest_number="T-1", hauler=other)


def test_a_delivery_before_the_service_is_refused(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(
            town.users[Role.HAULER], town.own_device, delivered_on=(days_ago(3) - dt.timedelta(days=2)).date()
        )
    assert "dated before the service" in _errors(excinfo)["delivered_on"][0]


def test_every_problem_is_reported_at_once_and_nothing_is_saved(town):
    with pytest.raises(ValidationError) as excinfo:
        submit(
            town.users[Role.HAULER],
            town.own_device,
            manifest_number="",
            certified_by_name="",
            gallons_removed=Decimal("-5"),
        )
    assert {"manifest_number", "certified_by_name", "gallons_removed"} <= set(_errors(excinfo))
    assert Manifest.objects.count() == 0


def test_roles_that_do_not_service_devices_may_not_submit(town):
    with pytest.raises(PermissionDenied):
        submit(town.users[Role.BILLING_CLERK], town.own_device)


@pytest.mark.provision("F1")
def test_f1_the_fse_may_submit_its_own_manifest(town):
    manifest = submit(town.users[Role.FSE], town.own_device, hauler=town.hauler)
    assert manifest.establishment == town.own_fse
    assert manifest.submitted_by == town.users[Role.FSE]


# --- flags: accepted, and put before staff -----------------------------------------------------


@pytest.mark.provision("E6")
def test_e6_gallons_above_capacity_beyond_the_tolerance_are_flagged_not_refused(town):
    within = submit(
        town.users[Role.HAULER], town.own_device, gallons_removed=Decimal("1090"), serviced_at=days_ago(20)
    )
    assert "over_capacity" not in codes(within)
    over = submit(town.users[Role.HAULER], town.own_device, gallons_removed=Decimal("1150"))
    assert "over_capacity" in codes(over)
    assert "1150 gallons removed from a 1000-gallon device" in over.flags.get(code="over_capacity").message


@pytest.mark.provision("E7")
def test_e7_a_full_pumpout_far_below_capacity_is_flagged(town):
    manifest = submit(town.users[Role.HAULER], town.own_device, gallons_removed=Decimal("200"))
    assert "low_volume" in codes(manifest)
    partial = submit(
        town.users[Role.HAULER], town.own_device, gallons_removed=Decimal("200"), full_pumpout=False
    )
    assert "low_volume" not in codes(partial)


@pytest.mark.provision("E7")
def test_e7_a_full_pumpout_without_cleaning_the_baffles_is_flagged(town):
    manifest = submit(town.users[Role.HAULER], town.own_device, baffles_cleaned=False)
    assert "baffles_not_cleaned" in codes(manifest)


@pytest.mark.provision("F7")
def test_f7_the_same_vehicle_at_two_sites_at_once_is_flagged(town):
    town.shared_device.establishments.first().haulers.add(town.hauler)
    at = days_ago(2, hour=9)
    submit(town.users[Role.HAULER], town.own_device, vehicle_plate="8TRK002", serviced_at=at)
    second = submit(
        town.users[Role.HAULER],
        town.shared_device,
        vehicle_plate="8trk002",
        serviced_at=at + dt.timedelta(minutes=20),
    )
    flag = second.flags.get(code="vehicle_conflict")
    assert "Vehicle 8TRK002 is also recorded at" in flag.message and "20 minute(s) apart" in flag.message
    later = submit(
        town.users[Role.HAULER],
        town.shared_device,
        vehicle_plate="8TRK002",
        serviced_at=at + dt.timedelta(hours=3),
    )
    assert "vehicle_conflict" not in codes(later)


@pytest.mark.provision("E6")
def test_e6_a_pumpout_the_day_after_an_inspection_found_the_device_over_25_percent_is_flagged(town):
    inspector = town.users[Role.INSPECTOR]
    inspected = days_ago(3).date()
    reading_record(
        device=town.own_device,
        acting_user=inspector,
        taken_on=inspected,
        fog_depth_in=Decimal("10"),
        solids_depth_in=Decimal("6"),
        source="inspection",
    )
    manifest = submit(
        town.users[Role.HAULER],
        town.own_device,
        serviced_at=days_ago(2),
        fog_depth_in=Decimal("3"),
        solids_depth_in=Decimal("2"),
    )
    assert {"late_after_over_limit", "contradicts_inspection"} <= codes(manifest)
    assert "33.3% full" in manifest.flags.get(code="contradicts_inspection").message


@pytest.mark.provision("E1")
def test_e1_a_pumpout_after_the_due_date_is_flagged_late(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(200))
    late = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(5))
    assert "serviced_late" in codes(late)


# --- what a manifest changes -------------------------------------------------------------------


@pytest.mark.provision("E1")
def test_e1_the_due_date_and_status_are_current_the_moment_a_manifest_is_saved(town):
    device = town.own_device
    submit(town.users[Role.HAULER], device, serviced_at=days_ago(100))
    state = DeviceServiceState.objects.get(device=device)
    assert state.status == "overdue"
    assert state.last_full_pumpout == days_ago(100).date()
    submit(town.users[Role.HAULER], device, serviced_at=days_ago(1))
    state.refresh_from_db()
    assert state.status == "compliant"
    assert state.last_full_pumpout == days_ago(1).date()
    assert state.next_due >= days_ago(1).date() + dt.timedelta(days=90)
    assert state.frequency_days == 90 and state.frequency_is_default
    assert state.fill_ratio is None  # the reading was taken before the pump-out that emptied it


def test_a_partial_service_does_not_restart_the_due_date(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(60))
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(5), full_pumpout=False)
    state = DeviceServiceState.objects.get(device=town.own_device)
    assert state.last_full_pumpout == days_ago(60).date()
    assert state.last_service_on == days_ago(5).date()
    assert state.fill_ratio == Decimal("0.1458")


@pytest.mark.provision("E6")
def test_e6_a_reading_over_25_percent_requires_immediate_service_and_a_frequency_review(town):
    reading_record(
        device=town.own_device,
        acting_user=town.users[Role.INSPECTOR],
        taken_on=days_ago(1).date(),
        fog_depth_in=Decimal("9"),
        solids_depth_in=Decimal("5"),
        source="inspection",
    )
    open_kinds = set(ServiceRequirement.objects.filter(status="open").values_list("kind", flat=True))
    assert open_kinds == {"immediate_service", "frequency_review"}
    state = DeviceServiceState.objects.get(device=town.own_device)
    assert state.immediate_service_required
    assert state.status == "over_limit"
    review = ServiceRequirement.objects.get(kind="frequency_review")
    assert review.proposed_frequency_days == 60
    assert review.proposed_effective_on == town_today_plus(10)
    # The next full pump-out meets the immediate-service requirement.
    manifest = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(0, hour=0))
    immediate = ServiceRequirement.objects.get(kind="immediate_service")
    assert immediate.status == "met" and immediate.closed_by_manifest == manifest
    state.refresh_from_db()
    assert not state.immediate_service_required


def town_today_plus(days):
    from fogcontrol.program.selectors import town_today

    return town_today() + dt.timedelta(days=days)


@pytest.mark.provision("E6")
def test_e6_a_manifest_over_25_percent_is_flagged_and_opens_a_frequency_review(town):
    manifest = submit(
        town.users[Role.HAULER], town.own_device, fog_depth_in=Decimal("8"), solids_depth_in=Decimal("6")
    )
    assert "over_limit" in codes(manifest)
    immediate = ServiceRequirement.objects.get(kind="immediate_service")
    assert immediate.status == "met"  # the same visit removed everything
    assert ServiceRequirement.objects.get(kind="frequency_review").status == "open"


def _trap(town):
    return factories.DeviceFactory(
        kind=GreaseControlDevice.Kind.HYDROMECHANICAL,
        capacity_gallons=50,
        total_design_depth_in=Decimal("12"),
        establishments=[town.own_fse],
    )


def _pump(town, trap, days, fog_plus_solids):
    return submit(
        town.users[Role.HAULER],
        trap,
        serviced_at=days_ago(days),
        fog_depth_in=Decimal(fog_plus_solids) / 2,
        solids_depth_in=Decimal(fog_plus_solids) / 2,
        gallons_removed=Decimal("45"),
    )


@pytest.mark.provision("E8")
@pytest.mark.provision("E6")
def test_e8_one_late_pumpout_over_25_percent_opens_e6_service_not_interceptor_plans(town):
    trap = _trap(town)
    _pump(town, trap, 60, "2")
    late = _pump(town, trap, 15, "4")  # 45 days after the last pump-out: 4 in of 12, 33.3% (E6)

    assert "over_limit" in codes(late) and "interceptor_plans_required" not in codes(late)
    assert ServiceRequirement.objects.get(device=trap, kind="immediate_service").status == "met"
    assert ServiceRequirement.objects.get(device=trap, kind="frequency_review").status == "open"
    assert not ServiceRequirement.objects.filter(device=trap, kind="interceptor_plans").exists()
    assert not DeviceServiceState.objects.get(device=trap).interceptor_plans_required


@pytest.mark.provision("E8")
def test_e8_a_trap_on_30_days_whose_accumulation_over_two_intervals_passes_the_limit_must_plan_an_interceptor(
    town,
):
    trap = _trap(town)
    _pump(town, trap, 63, "1")
    first = _pump(town, trap, 33, "4.5")  # one 30-day interval at 37.5%: E6, not yet E8
    assert "interceptor_plans_required" not in codes(first)
    manifest = _pump(town, trap, 3, "4.5")  # two intervals: 0.15 in/day, 37.5% in 30 days

    assert "interceptor_plans_required" in codes(manifest)
    plans = ServiceRequirement.objects.get(device=trap, kind="interceptor_plans")
    assert plans.provision == "E8" and plans.status == "open"
    assert "past the 25.0% limit" in plans.explanation["text"]
    assert DeviceServiceState.objects.get(device=trap).interceptor_plans_required


@pytest.mark.provision("E8")
def test_e8_no_interceptor_is_required_when_an_inadequate_space_exception_is_recorded(town):
    from fogcontrol.servicing.services import requirement_close

    trap = _trap(town)
    for days, depth in ((69, "1"), (39, "4.5"), (9, "4.5")):
        _pump(town, trap, days, depth)
    plans = ServiceRequirement.objects.get(device=trap, kind="interceptor_plans")
    requirement_close(
        requirement=plans,
        acting_user=town.users[Role.FOG_MANAGER],
        note="Basement kitchen: no room",
        e8_exception="space",
    )
    manifest = _pump(town, trap, 1, "4.5")
    assert "interceptor_plans_required" not in codes(manifest)
    assert not ServiceRequirement.objects.filter(
        device=trap, kind="interceptor_plans", status="open"
    ).exists()


# --- corrections -------------------------------------------------------------------------------


@pytest.mark.provision("F7")
def test_f7_a_correction_is_a_new_record_and_replaces_the_original_in_the_device_state(town):
    hauler = town.users[Role.HAULER]
    original = submit(hauler, town.own_device, serviced_at=days_ago(10))
    correction = manifest_correct(
        manifest=original,
        acting_user=hauler,
        submission=submission_from_manifest(original, serviced_at=days_ago(4)),
        reason="Wrong date typed on the ticket",
        channel=Manifest.Channel.PORTAL,
    )
    assert correction.corrects == original and correction.pk != original.pk
    assert Manifest.objects.get(pk=original.pk).serviced_at == original.serviced_at  # unchanged
    assert list(Manifest.objects.effective()) == [correction]
    assert DeviceServiceState.objects.get(device=town.own_device).last_full_pumpout == days_ago(4).date()


def test_a_corrected_manifest_cannot_be_corrected_again(town):
    from fogcontrol.core.errors import StateConflict as Conflict

    hauler = town.users[Role.HAULER]
    original = submit(hauler, town.own_device)
    manifest_correct(
        manifest=original,
        acting_user=hauler,
        submission=submission_from_manifest(original),
        reason="x",
        channel="portal",
    )
    with pytest.raises(Conflict):
        manifest_correct(
            manifest=original,
            acting_user=hauler,
            submission=submission_from_manifest(original),
            reason="y",
            channel="portal",
        )


def test_a_withdrawal_removes_the_manifest_from_the_device_state(town):
    hauler = town.users[Role.HAULER]
    original = submit(hauler, town.own_device)
    manifest_correct(
        manifest=original,
        acting_user=hauler,
        submission=submission_from_manifest(original),
        reason="Filed for the wrong device",
        channel="portal",
        withdraw=True,
    )
    assert not Manifest.objects.effective().exists()
    assert DeviceServiceState.objects.get(device=town.own_device).status == "never_serviced"


def test_another_hauler_may_not_correct_a_manifest(town):
    other_user = factories.UserFactory(role=Role.HAULER)
    other = factories.HaulerCompanyFactory()
    other.users.add(other_user)
    original = submit(town.users[Role.HAULER], town.own_device)
    with pytest.raises(PermissionDenied):
        manifest_correct(
            manifest=original,
            acting_user=other_user,
            submission=submission_from_manifest(original),
            reason="x",
            channel="api",
        )
