"""Inspections in the rules engine: D8 due dates, the risk score, D1 business hours, the checklist."""

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules import inspections
from fogcontrol.rules.inspections import FAIL, NOT_APPLICABLE, PASS, RiskInputs
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, NINE_EIGHTY_FRIDAY, RULES, d


def due(last=None, installed=None, registered="2020-01-01", calendar=CALENDAR):
    return inspections.inspection_due(
        last_inspected_on=d(last) if last else None,
        installed_on=d(installed) if installed else None,
        registered_on=d(registered),
        ruleset=RULES,
        calendar=calendar,
    )


@pytest.mark.provision("D8")
def test_d8_due_on_the_anniversary_of_the_last_inspection():
    result = due(last="2025-03-11")
    assert result.due == d("2026-03-11")  # a Wednesday
    assert not result.moved
    assert "last Town inspection" in result.explanation.text()


@pytest.mark.provision("D8")
def test_d8_an_anniversary_on_a_weekend_moves_earlier_never_later():
    result = due(last="2025-03-14")  # 2026-03-14 is a Saturday
    assert result.nominal_due == d("2026-03-14")
    assert result.due == d("2026-03-13")
    assert "never moves later" in result.explanation.text()


@pytest.mark.provision("D8")
def test_d8_a_closure_friday_moves_the_towns_maximum_earlier():
    start = NINE_EIGHTY_FRIDAY.replace(year=NINE_EIGHTY_FRIDAY.year - 1)
    result = due(last=start.isoformat(), calendar=CALENDAR_WITH_CLOSURE)
    assert result.due == NINE_EIGHTY_FRIDAY - dt.timedelta(days=1)


@pytest.mark.provision("D8")
def test_d8_never_inspected_counts_from_installation_else_registration():
    installed = due(installed="2024-06-03", registered="2025-01-06")
    assert installed.due == d("2025-06-03")
    assert "installed" in installed.explanation.text()
    registered = due(registered="2025-01-06")
    assert registered.due == d("2026-01-06")
    assert "registered" in registered.explanation.text()


@pytest.mark.provision("D8")
@given(st.dates(min_value=dt.date(2010, 1, 1), max_value=dt.date(2030, 12, 31)))
def test_d8_property_never_later_than_the_anniversary_and_a_business_day(start):
    result = due(last=start.isoformat())
    assert result.due <= result.nominal_due
    assert result.due > start
    assert CALENDAR.is_business_day(result.due) or result.due == result.nominal_due


@pytest.mark.provision("D8")
def test_d8_an_establishment_is_due_with_its_first_device():
    first, second = due(last="2025-05-01"), due(last="2025-02-02")
    assert inspections.earliest_due([first, second]) is second
    assert inspections.earliest_due([]) is None


@pytest.mark.provision("D8")
def test_d8_risk_score_states_each_reason_with_its_points():
    score = inspections.risk_score(
        RiskInputs(devices_overdue=2, open_findings=1, meals_per_day=450, days_since_inspection=400),
        ruleset=RULES,
    )
    factors = {reason.factor: reason.points for reason in score.reasons}
    assert factors == {
        "devices_overdue": 2 * RULES.risk_weight_device_overdue,
        "open_findings": RULES.risk_weight_open_finding,
        "meals_per_day": 4 * RULES.risk_weight_per_100_meals,
        "days_since_inspection": 13 * RULES.risk_weight_per_30_days_since_inspection,
    }
    assert score.score == sum(factors.values())
    assert [r.points for r in score.reasons] == sorted((r.points for r in score.reasons), reverse=True)
    assert "2 devices overdue for service" in score.explanation.text()


@pytest.mark.provision("D8")
def test_d8_risk_weights_are_ruleset_data():
    inputs = RiskInputs(spills=1, days_since_inspection=0)
    assert inspections.risk_score(inputs, ruleset=RULES.replace(risk_weight_spill=0)).score == 0
    never = inspections.risk_score(RiskInputs(), ruleset=RULES)
    assert never.score == RULES.risk_weight_never_inspected
    assert never.reasons[0].factor == "never_inspected"


@pytest.mark.provision("D8")
@given(
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(0, 2000).map(lambda n: n or None),
    st.integers(0, 2000),
)
def test_d8_property_more_of_a_factor_never_lowers_the_score(overdue, findings, spills, meals, days):
    base = RiskInputs(devices_overdue=overdue, open_findings=findings, spills=spills, meals_per_day=meals,
                      days_since_inspection=days)  # fmt: skip
    more = RiskInputs(devices_overdue=overdue + 1, open_findings=findings, spills=spills, meals_per_day=meals,
                      days_since_inspection=days + 30)  # fmt: skip
    assert (
        inspections.risk_score(more, ruleset=RULES).score > inspections.risk_score(base, ruleset=RULES).score
    )


HOURS = "Monday to Friday, 8:00 a.m. to 5:00 p.m."


def check(start, end=None, hours=HOURS):
    return inspections.visit_hours_check(
        started_at=dt.datetime.fromisoformat(start),
        finished_at=dt.datetime.fromisoformat(end) if end else None,
        office_hours=hours,
        calendar=CALENDAR,
    )


@pytest.mark.provision("D1")
def test_d1_office_hours_read_from_the_town_profile():
    hours = inspections.parse_office_hours(HOURS)
    assert hours.weekdays == frozenset(range(5))
    assert (hours.opens, hours.closes) == (dt.time(8), dt.time(17))
    short = inspections.parse_office_hours("Mon-Thu 07:30-18:00")
    assert short.weekdays == frozenset(range(4)) and short.opens == dt.time(7, 30)
    with pytest.raises(ValueError, match="office_hours"):
        inspections.parse_office_hours("by appointment")


@pytest.mark.provision("D1")
def test_d1_a_visit_within_hours_is_not_flagged():
    assert not check("2026-03-11T09:15", "2026-03-11T10:05").outside


@pytest.mark.provision("D1")
@pytest.mark.parametrize(
    ("start", "end", "why"),
    [
        ("2026-03-11T07:10", "2026-03-11T08:20", "before 08:00"),
        ("2026-03-11T16:30", "2026-03-11T17:20", "after 17:00"),
        ("2026-03-14T10:00", "2026-03-14T11:00", "a weekend day"),
        ("2026-07-03T10:00", "2026-07-03T11:00", "Independence Day"),
    ],
)
def test_d1_a_visit_outside_hours_is_flagged_with_the_reason(start, end, why):
    result = check(start, end)
    assert result.outside
    assert why in result.explanation.text()
    assert "flagged, not refused" in result.explanation.text()


@pytest.mark.provision("D1")
def test_d1_unreadable_hours_flag_nothing_and_say_so():
    result = check("2026-03-14T22:00", hours="by appointment")
    assert not result.outside
    assert "could not be read" in result.explanation.text()


@pytest.mark.provision("E3")
@pytest.mark.provision("E6")
def test_e3_e6_a_device_over_25_percent_is_a_finding_computed_by_the_25_percent_rule():
    result = inspections.device_assessment(
        kind="gravity_interceptor",
        answers={"baffles": PASS},
        fog_depth_in=Decimal("6"),
        solids_depth_in=Decimal("8"),
        total_depth_in=Decimal("48"),
        ruleset=RULES,
    )
    assert result.fill_ratio == Decimal(14) / Decimal(48)
    assert result.over_limit
    assert [(f.item, f.provision) for f in result.findings] == [("fill", "E3")]
    assert "29.2%" in result.findings[0].description
    assert "E6" in result.explanation.provisions


@pytest.mark.provision("E3")
def test_e3_exactly_25_percent_is_within_the_limit():
    result = inspections.device_assessment(
        kind="gravity_interceptor", answers={}, fog_depth_in=Decimal("5"), solids_depth_in=Decimal("7"),
        total_depth_in=Decimal("48"), ruleset=RULES,
    )  # fmt: skip
    assert result.fill_ratio == Decimal("0.25") and not result.over_limit and not result.findings


@pytest.mark.provision("D8")
@pytest.mark.parametrize(
    ("kind", "item", "provision"),
    [
        ("gravity_interceptor", "seams_pipes", "D8"),
        ("gravity_interceptor", "baffles", "D8"),
        ("gravity_interceptor", "tees", "D8"),
        ("hydromechanical_interceptor", "flow_regulator", "D8"),
        ("gravity_interceptor", "covers_access", "A4"),
        ("hydromechanical_interceptor", "caked_fog", "E7"),
    ],
)
def test_d8_each_failed_device_item_cites_its_provision(kind, item, provision):
    result = inspections.device_assessment(
        kind=kind, answers={item: FAIL}, fog_depth_in=None, solids_depth_in=None, total_depth_in=None,
        ruleset=RULES,
    )  # fmt: skip
    assert [(f.item, f.provision) for f in result.findings] == [(item, provision)]


@pytest.mark.provision("D8")
def test_d8_tees_are_for_interceptors_and_the_flow_regulator_for_traps():
    with pytest.raises(ValueError, match="tees: does not apply"):
        inspections.device_assessment(
            kind="hydromechanical_interceptor", answers={"tees": PASS}, fog_depth_in=None,
            solids_depth_in=None, total_depth_in=None, ruleset=RULES,
        )  # fmt: skip


SITE_ITEMS = [
    ("manifests_on_site", "F1"),
    ("manifests_match", "F4"),
    ("receipts", "F6"),
    ("maintenance_records", "F6"),
    ("waste_oil_pickups", "C2"),
    ("training_records", "C4"),
    ("self_monitoring", "F3"),
    ("drain_screens", "C1"),
    ("waste_oil_receptacle", "C2"),
    ("food_waste", "C3"),
    ("training_current", "C4"),
    ("hood_filters", "C6"),
    ("signage", "C7"),
    ("food_grinder", "K1"),
    ("additives", "K2"),
    ("waste_oil_to_sewer", "K3"),
    ("dishwasher_to_device", "K4"),
    ("hot_discharge", "K4"),
    ("sanitary_connection", "K5"),
    ("contents_to_sewer", "K6"),
    ("dilution", "K7"),
]


@pytest.mark.provision("F6")
@pytest.mark.provision("C1")
@pytest.mark.provision("K1")
@pytest.mark.parametrize(("item", "provision"), SITE_ITEMS)
def test_f6_c1_c7_k1_k7_each_failed_site_item_cites_its_provision(item, provision):
    drafts = inspections.checklist_findings({item: FAIL}, ruleset=RULES)
    assert [(f.item, f.provision) for f in drafts] == [(item, provision)]


@pytest.mark.provision("K4")
def test_k4_the_temperature_limit_comes_from_the_ruleset():
    drafts = inspections.checklist_findings(
        {"hot_discharge": FAIL}, ruleset=RULES.replace(max_discharge_temperature_f=150)
    )
    assert "150 °F" in drafts[0].description


@pytest.mark.provision("D4")
def test_d4_passed_and_not_applicable_items_make_no_finding_and_unknown_answers_are_refused():
    assert inspections.checklist_findings({"signage": PASS, "dilution": NOT_APPLICABLE}, ruleset=RULES) == ()
    with pytest.raises(ValueError, match="signage: answer one of"):
        inspections.checklist_findings({"signage": "maybe"}, ruleset=RULES)
    with pytest.raises(ValueError, match="colour: not an item"):
        inspections.checklist_findings({"colour": FAIL}, ruleset=RULES)


@pytest.mark.provision("D1")
def test_d1_entry_refused_and_delayed_are_findings_of_their_own():
    drafts = inspections.entry_findings(refused=True, delayed=True, minutes_delayed=40)
    assert [(f.item, f.provision) for f in drafts] == [("entry_refused", "D1"), ("entry_delayed", "D1")]
    assert "by 40 minutes" in drafts[1].description
    assert inspections.entry_findings(refused=False, delayed=False) == ()


@pytest.mark.provision("D4")
def test_d4_every_checklist_item_names_a_provision_of_the_chapter():
    for item in inspections.CHECKLIST:
        assert item.provision[0] in "ACDEFK", item.key
        assert item.section in inspections.SECTIONS
