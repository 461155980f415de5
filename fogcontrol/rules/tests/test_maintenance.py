"""The 25% rule, device status, due dates and the consequences of a reading (D4, E1-E8, B7)."""

from decimal import Decimal as D

import pytest

from fogcontrol.rules.maintenance import (
    GRAVITY_INTERCEPTOR,
    HYDROMECHANICAL_INTERCEPTOR,
    OTHER,
    Measurement,
    Observation,
    default_frequency,
    device_status,
    fill_ratio,
    next_service_due,
    reading_consequences,
    recommend_frequency,
)
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d

STEADY = [Observation(30, D(1), D(2)), Observation(60, D(2), D(4)), Observation(90, D(3), D(6))]  # 0.1 in/day


def status(on, *, last="2026-04-01", reading=None, assigned=None, kind=GRAVITY_INTERCEPTOR, ruleset=RULES):
    return device_status(
        on=d(on),
        kind=kind,
        assigned_frequency_days=assigned,
        last_full_pumpout=d(last) if last else None,
        latest_measurement=reading,
        total_depth_in=D(48),
        ruleset=ruleset,
        calendar=CALENDAR,
    )


@pytest.mark.provision("E3")
def test_e3_fill_ratio_exactly_at_the_limit():
    assert fill_ratio(D(3), D(6), D(36)) == D("0.25")
    assert fill_ratio(0, 0, 10) == 0


@pytest.mark.provision("E3")
@pytest.mark.parametrize(
    ("fog", "solids", "total", "field"),
    [
        (-1, 2, 36, "fog_depth_in"),
        (1, -2, 36, "solids_depth_in"),
        (1, 2, 0, "total_depth_in"),
        (1, 2, -5, "total_depth_in"),
        (20, 20, 36, "fog_depth_in \\+ solids_depth_in"),
        ("abc", 2, 36, "fog_depth_in"),
        (float("nan"), 2, 36, "fog_depth_in"),
    ],
)
def test_e3_fill_ratio_refuses_bad_depths_naming_the_field(fog, solids, total, field):
    with pytest.raises(ValueError, match=field):
        fill_ratio(fog, solids, total)


@pytest.mark.provision("E2")
def test_e2_default_frequencies():
    assert default_frequency(GRAVITY_INTERCEPTOR, RULES) == 90
    assert default_frequency(HYDROMECHANICAL_INTERCEPTOR, RULES) == 30
    assert default_frequency(OTHER, RULES) == 30
    with pytest.raises(ValueError, match="kind"):
        default_frequency("septic_tank", RULES)


@pytest.mark.provision("E1")
def test_e1_next_service_due_on_independence_day_observed_does_not_move():
    due = next_service_due(d("2026-04-04"), 90, calendar=CALENDAR)
    # Counting days (revised): maintenance is counted in calendar days and never moves.
    assert due.nominal_due == d("2026-07-03") and due.due == d("2026-07-03")
    assert not due.moved
    assert next_service_due(None, 90, calendar=CALENDAR) is None


@pytest.mark.provision("D4")
def test_d4_device_status_compliant_due_soon_overdue():
    assert status("2026-05-01").status == "compliant"
    soon = status("2026-06-20")
    assert soon.status == "due_soon" and soon.next_due == d("2026-06-30") and soon.days_until_due == 10
    assert soon.frequency_is_default and soon.frequency_days == 90
    assert status("2026-06-30").status == "due_soon"  # pumping on the due date is on time
    overdue = status("2026-07-01")
    assert overdue.status == "overdue"
    assert "overdue" in overdue.explanation.text()


@pytest.mark.provision("D4")
def test_d4_device_status_grace_days_from_the_ruleset():
    ruleset = RULES.replace(service_grace_days=3)
    assert status("2026-07-03", ruleset=ruleset).status == "due_soon"
    assert status("2026-07-04", ruleset=ruleset).status == "overdue"


@pytest.mark.provision("E1")
def test_e1_device_status_uses_the_assigned_frequency():
    result = status("2026-05-02", assigned=30)
    assert result.status == "overdue" and not result.frequency_is_default
    assert result.frequency_days == 30 and result.next_due == d("2026-05-01")


@pytest.mark.provision("D4")
def test_d4_device_never_serviced():
    result = status("2026-05-01", last=None)
    assert result.status == "never_serviced" and result.next_due is None


@pytest.mark.provision("E6")
def test_e6_over_limit_wins_over_overdue():
    reading = Measurement(d("2026-06-15"), D(8), D(6), source="inspection")  # 14 / 48 = 29.2%
    result = status("2026-07-10", reading=reading)
    assert result.status == "over_limit"
    assert result.fill_ratio == D(14) / D(48)
    assert "E6" in result.explanation.provisions


@pytest.mark.provision("E6")
def test_e6_reading_taken_at_the_pumpout_is_not_current():
    reading = Measurement(d("2026-04-01"), D(8), D(6), pumped_out=True, source="manifest")
    result = status("2026-05-01", reading=reading)
    assert result.status == "compliant" and result.fill_ratio is None
    before = Measurement(d("2026-03-20"), D(20), D(6))
    assert status("2026-05-01", reading=before).status == "compliant"


@pytest.mark.provision("E3")
def test_e3_reading_exactly_at_25_percent_is_not_over_limit():
    reading = Measurement(d("2026-05-01"), D(6), D(6))
    assert status("2026-05-02", reading=reading).status == "compliant"


@pytest.mark.provision("E6")
def test_e6_over_limit_interceptor_needs_immediate_service_and_a_higher_frequency_after_b7_notice():
    result = reading_consequences(
        fill_ratio=D("0.30"),
        gallons_removed=None,
        capacity_gallons=None,
        kind=GRAVITY_INTERCEPTOR,
        current_frequency_days=90,
        recommendation=None,
        notice_date=d("2026-06-23"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    assert result.immediate_service_required and result.over_limit and not result.over_capacity
    assert result.proposed_frequency_days == 60
    assert result.frequency_change_effective_on == d("2026-07-03")  # B7 minimum: not moved off the holiday
    assert not result.interceptor_plans_required
    assert set(result.explanation.provisions) >= {"E6", "B7"}


@pytest.mark.provision("E6")
def test_e6_gallons_over_capacity_and_low_volume_flags():
    common = dict(
        fill_ratio=None,
        capacity_gallons=1000,
        kind=GRAVITY_INTERCEPTOR,
        current_frequency_days=90,
        recommendation=None,
        notice_date=d("2026-06-01"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    over = reading_consequences(gallons_removed=1200, **common)
    assert over.over_capacity and over.immediate_service_required and "over_capacity" in over.flags
    assert not reading_consequences(gallons_removed=1100, **common).over_capacity  # within 10% tolerance
    low = reading_consequences(gallons_removed=400, **common)
    assert low.flags == ("low_volume",) and not low.immediate_service_required


def trap_recommendation(observations, depth=D(12)):
    return recommend_frequency(
        kind=HYDROMECHANICAL_INTERCEPTOR, total_depth_in=depth, observations=observations, ruleset=RULES
    )


def trap_consequences(*, fill_ratio, recommendation, **extra):
    return reading_consequences(
        fill_ratio=fill_ratio,
        gallons_removed=None,
        capacity_gallons=None,
        kind=HYDROMECHANICAL_INTERCEPTOR,
        current_frequency_days=30,
        recommendation=recommendation,
        notice_date=d("2026-06-01"),
        ruleset=RULES,
        calendar=CALENDAR,
        **extra,
    )


@pytest.mark.provision("E8")
@pytest.mark.provision("E6")
def test_e8_one_late_pumpout_over_25_percent_is_an_e6_matter_not_e8():
    # A 12 in trap on 30 days, pumped at 20 days (2 in, 16.7%), then late at 45 days with 4 in (33.3%).
    late = trap_recommendation(
        [Observation(20, D(1), D(1), d("2026-04-01")), Observation(45, D(2), D(2), d("2026-04-21"))]
    )
    result = trap_consequences(fill_ratio=D(4) / D(12), recommendation=late)  # fmt: skip

    assert result.immediate_service_required and result.over_limit  # E6
    assert not result.interceptor_plans_required  # not E8
    assert "needs_more_frequent_than_allowed" not in result.flags
    # Average 0.0944 in/day over two intervals: 2.8 in in 30 days, 23.6%: within the limit.
    assert (
        "within the 25.0% limit (E3): service every 30 calendar days is enough" in result.explanation.text()
    )


@pytest.mark.provision("E8")
def test_e8_a_single_interval_over_the_limit_is_not_enough_to_require_an_interceptor():
    one = trap_recommendation([Observation(30, D(3), D(2), d("2026-05-01"))])  # 41.7% in one interval
    result = trap_consequences(fill_ratio=D(5) / D(12), recommendation=one)

    assert result.immediate_service_required and not result.interceptor_plans_required
    assert "covers 1 service interval(s); at least 2 are needed" in result.explanation.text()


@pytest.mark.provision("E8")
def test_e8_accumulation_over_two_intervals_projecting_past_the_limit_within_30_days_requires_plans():
    # Two 30-day intervals, 3.5 and 4 in of 12 in: average 0.125 in/day -> 3.75 in = 31.3% at 30 days.
    data = trap_recommendation(
        [Observation(30, D("1.5"), D(2), d("2026-04-01")), Observation(30, D(2), D(2), d("2026-05-01"))]
    )
    common = dict(fill_ratio=D(4) / D(12), recommendation=data)  # fmt: skip

    result = trap_consequences(**common)
    assert result.interceptor_plans_required
    assert "interceptor_plans_required" in result.flags
    assert "E8" in result.explanation.provisions
    assert "in 30 calendar days it reaches 31.3% of the 12 in total depth, past the 25.0% limit" in (
        result.explanation.text()
    )
    excepted = trap_consequences(space_exception=True, **common)
    assert not excepted.interceptor_plans_required and excepted.interceptor_exception == "inadequate space"
    sloped = trap_consequences(slope_exception=True, **common)
    assert sloped.interceptor_exception == "inadequate slope for gravity flow"
    # Readings in one interval count once: the same two depths from one pump-out are one interval.
    same_interval = trap_recommendation([Observation(15, D(1), D(1), d("2026-05-01")), Observation(30, D(2), D(2), d("2026-05-01"))])  # fmt: skip
    assert not trap_consequences(fill_ratio=None, recommendation=same_interval).interceptor_plans_required


@pytest.mark.provision("E8")
def test_e8_trap_whose_data_needs_more_than_allowed_must_submit_plans():
    heavy = [Observation(days, D(days) / 4, D(days) / 4) for days in (10, 20, 30)]  # 0.5 in/day
    recommendation = recommend_frequency(
        kind=HYDROMECHANICAL_INTERCEPTOR, total_depth_in=D(24), observations=heavy, ruleset=RULES
    )
    assert recommendation.needs_more_frequent_than_allowed
    result = reading_consequences(
        fill_ratio=D("0.10"),
        gallons_removed=None,
        capacity_gallons=None,
        kind=HYDROMECHANICAL_INTERCEPTOR,
        current_frequency_days=30,
        recommendation=recommendation,
        notice_date=d("2026-06-01"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    assert result.interceptor_plans_required and not result.immediate_service_required


@pytest.mark.provision("E6")
def test_e6_data_recommending_a_shorter_frequency_proposes_it_with_b7_notice():
    # 0.1 in/day in 48 in: 37.5% at the current 180 days; 25% (the limit, not over it) at 120 days.
    recommendation = recommend_frequency(
        kind=GRAVITY_INTERCEPTOR, total_depth_in=D(48), observations=STEADY, ruleset=RULES
    )
    result = reading_consequences(
        fill_ratio=D("0.10"),
        gallons_removed=None,
        capacity_gallons=None,
        kind=GRAVITY_INTERCEPTOR,
        current_frequency_days=180,
        recommendation=recommendation,
        notice_date=d("2026-05-04"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    assert result.proposed_frequency_days == 120
    assert result.frequency_change_effective_on == d("2026-05-14")
    assert not result.immediate_service_required


@pytest.mark.provision("E6")
def test_e6_nothing_to_do_when_within_limits():
    result = reading_consequences(
        fill_ratio=D("0.10"),
        gallons_removed=900,
        capacity_gallons=1000,
        kind=GRAVITY_INTERCEPTOR,
        current_frequency_days=90,
        recommendation=None,
        notice_date=d("2026-05-04"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    assert not result.immediate_service_required and result.proposed_frequency_days is None
    assert result.flags == ()


@pytest.mark.provision("E5")
def test_e5_a_granted_frequency_is_not_proposed_shorter_while_the_average_keeps_it_within_the_limit():
    # Granted every 180 days on 0.05 in/day seen to 60 days (18.75% at 180). The recommendation stops at
    # 90 days (never far beyond the data), but that is no E3 ground to propose a shorter frequency.
    seen_to_60 = [(20, D(1), D(0)), (40, D(1), D(1)), (60, D(1), D(2))]
    recommendation = recommend_frequency(
        kind=GRAVITY_INTERCEPTOR, total_depth_in=D(48), observations=seen_to_60, ruleset=RULES
    )
    assert recommendation.recommended_frequency_days == 90
    result = reading_consequences(
        fill_ratio=D("0.10"),
        gallons_removed=None,
        capacity_gallons=None,
        kind=GRAVITY_INTERCEPTOR,
        current_frequency_days=180,
        recommendation=recommendation,
        notice_date=d("2026-05-04"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    assert result.proposed_frequency_days is None
