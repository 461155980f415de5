"""The State's spill category (order WQ 2022-0103-DWQ, recorded for I1), the controlled causes, the
J2 written-report due date and when the Town's costs are owed (N1, N2)."""

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules import spills as rules
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d

volumes = st.decimals(min_value=0, max_value=100_000, places=1, allow_nan=False, allow_infinity=False)


@pytest.mark.provision("I1")
@pytest.mark.parametrize(
    ("spilled", "reached", "destination", "recovered", "category"),
    [
        (Decimal(5), Decimal(1), rules.DEST_STREET, None, "1"),
        (Decimal(5), Decimal(0), rules.DEST_SURFACE_WATER, None, "1"),
        (Decimal(5), Decimal(0), rules.DEST_STORM_DRAIN, False, "1"),
        (Decimal(5), Decimal(0), rules.DEST_STORM_DRAIN, True, "4"),
        (Decimal(1000), Decimal(0), rules.DEST_STREET, None, "2"),
        (Decimal("999.9"), Decimal(0), rules.DEST_STREET, None, "3"),
        (Decimal(50), Decimal(0), rules.DEST_UNPAVED, None, "3"),
        (Decimal("49.9"), Decimal(0), rules.DEST_UNPAVED, None, "4"),
        (None, None, "", None, "4"),
    ],
)
def test_i1_state_category_from_volumes_and_destination(spilled, reached, destination, recovered, category):
    result = rules.spill_category(
        volume_spilled=spilled,
        volume_reached_surface_water=reached,
        destination=destination,
        storm_drain_fully_recovered=recovered,
    )
    assert result.category == category
    assert result.label.startswith(f"Category {category}")
    assert rules.ORDER in result.explanation.provisions and "I1" in result.explanation.provisions


@pytest.mark.provision("I1")
@given(spilled=volumes, reached=volumes, destination=st.sampled_from(list(rules.DESTINATIONS)))
def test_i1_any_spill_reaching_surface_water_is_category_1_and_the_rest_go_by_volume(
    spilled, reached, destination
):
    result = rules.spill_category(
        volume_spilled=spilled, volume_reached_surface_water=reached, destination=destination
    )
    touches_water = reached > 0 or destination in (rules.DEST_SURFACE_WATER, rules.DEST_STORM_DRAIN)
    if touches_water:
        assert result.category == "1"
    elif spilled >= 1000:
        assert result.category == "2"
    elif spilled >= 50:
        assert result.category == "3"
    else:
        assert result.category == "4"


@pytest.mark.provision("I1")
@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("Grease deposition (FOG)", "grease"),
        ("Grease Deposition (FOG)", "grease"),
        ("Root intrusion", "roots"),
        ("Root Intrusion", "roots"),
        ("Debri-General", "debris"),
        ("Debris-General", "debris"),
        ("Debri-Rags", "rags"),
        ("Debris from Construction", "construction_debris"),
        ("Pipe Structural Problem/Failure - Installation", "pipe_failure"),
        ("Pump Station Failure-Power", "pump_station"),
        ("Rainfall Exceeded Design, I and I (Separate CS Only)", "capacity"),
        ("Other (specify below)", "other"),
        ("", "unknown"),
    ],
)
def test_i1_causes_normalised_whatever_the_case_and_spelling(text, cause):
    assert rules.normalise_cause(text)[0] == cause


def test_i1_unrecognised_cause_is_other_and_says_so():
    assert rules.normalise_cause("a raccoon in the pipe") == ("other", False)


@pytest.mark.provision("J2")
def test_j2_written_report_counts_working_days_across_a_holiday():
    # Wednesday July 1, 2026: Friday July 3 is Independence Day observed; the weekend does not count.
    deadline = rules.written_report_due(d("2026-07-01"), ruleset=RULES, calendar=CALENDAR)
    assert deadline.due == d("2026-07-09")
    assert "J2" in deadline.explanation.provisions
    assert "July 3, 2026" in deadline.explanation.text()
    # Without a holiday in the way, five working days from Wednesday is the next Wednesday.
    assert rules.written_report_due(d("2026-06-03"), ruleset=RULES, calendar=CALENDAR).due == d("2026-06-10")


@pytest.mark.provision("J2")
def test_j2_overdue_the_day_after_the_due_day_and_late_stays_late():
    incident = d("2026-06-03")
    common = {"incident_on": incident, "ruleset": RULES, "calendar": CALENDAR}
    assert not rules.written_report_overdue(received_on=None, today=d("2026-06-10"), **common)
    assert rules.written_report_overdue(received_on=None, today=d("2026-06-11"), **common)
    assert not rules.written_report_overdue(received_on=d("2026-06-10"), today=d("2026-07-01"), **common)
    assert rules.written_report_overdue(received_on=d("2026-06-11"), today=d("2026-07-01"), **common)


@pytest.mark.provision("N1")
def test_n1_cleanup_costs_due_45_days_after_invoicing_moved_past_a_weekend():
    # Invoiced Friday June 5, 2026: 45 days is Monday July 20.
    deadline = rules.cost_due(rules.COST_CONTRACTOR, d("2026-06-05"), ruleset=RULES, calendar=CALENDAR)
    assert deadline.due == d("2026-06-05") + dt.timedelta(days=45)
    assert deadline.provision == "N1"
    # Invoiced Monday June 1: day 45 is Thursday July 16.
    # Invoiced Thursday June 4: day 45 is Sunday July 19, moved to Monday July 20.
    moved = rules.cost_due(rules.COST_STAFF, d("2026-06-04"), ruleset=RULES, calendar=CALENDAR)
    assert moved.due == d("2026-07-20") and moved.moved


@pytest.mark.provision("N2")
def test_n2_agency_fine_passed_on_is_owed_as_the_chapters_charges_are():
    deadline = rules.cost_due(rules.COST_AGENCY_FINE, d("2026-06-01"), ruleset=RULES, calendar=CALENDAR)
    assert deadline.provision == "N2"
    assert "N2" in deadline.explanation.provisions and "Q1" in deadline.explanation.provisions
    assert rules.cost_kind_provision(rules.COST_AGENCY_FINE) == "N2"
    assert rules.cost_kind_provision(rules.COST_EQUIPMENT) == "N1"


def test_i2_unknown_cost_kind_is_refused():
    with pytest.raises(ValueError):
        rules.cost_due("lunch", d("2026-06-01"), ruleset=RULES, calendar=CALENDAR)
