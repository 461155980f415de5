"""Worked examples of "Counting days" as revised 2026-11-30: the three kinds of calendar-day limits
and maintenance in calendar days.

1. What a person owes the Town moves to the next business day (CCP §12a); a Town closure day moves
   only acts at the Town's office (CCP §12b).
2. The Town's own maxima (L2, L3, L4, P5, D8) never move later.
3. Minimums (L2's floor, B7, G1) never move earlier.
Maintenance (E1, E2): calendar days, never moved; a grace period only delays "overdue".

Calendar: the usual California holidays; in 2026 July 4 is a Saturday, so Independence Day is
observed on Friday, July 3. ``CALENDAR_WITH_CLOSURE`` adds Friday, August 14, 2026 as a 9/80
closure Friday.
"""

import datetime as dt
from decimal import Decimal

import pytest

from fogcontrol.rules import counting
from fogcontrol.rules.deadlines import DEADLINE_RULES, MissingParameter, compute_deadline
from fogcontrol.rules.maintenance import GRAVITY_INTERCEPTOR, device_status, next_service_due
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, RULES, d


def run(slug, start, calendar=CALENDAR, ruleset=RULES, **parameters):
    return compute_deadline(slug, d(start), ruleset=ruleset, calendar=calendar, **parameters)


# --- kind 2: the Town's own maxima never move later -------------------------------------------


@pytest.mark.provision("L2")
def test_l2_latest_hearing_date_is_never_day_46():
    # Mailed Thursday, June 18, 2026: day 45 is Sunday, August 2. Moving it forward gave Monday,
    # August 3, day 46: a hearing the ordinance does not allow.
    result = run("L2", "2026-06-18")
    assert (result.nominal_due - result.start).days == 45
    assert result.latest == result.due == d("2026-07-31")
    assert (result.latest - result.start).days == 43
    assert result.moved
    assert counting.LIMIT_TOWN_MAXIMUM in result.counting
    text = result.explanation.text()
    assert "a maximum the Town itself must meet" in text
    assert (
        "the latest date the Town may use is the last business day before it, Friday, July 31, 2026" in text
    )


@pytest.mark.provision("L3")
def test_l3_continuances_total_no_more_than_60_days():
    # First set for Monday, September 28, 2026: day 60 is the day after Thanksgiving. Moving it
    # forward gave Monday, November 30: 63 days of continuance.
    result = run("L3", "2026-09-28")
    assert (result.due - result.start).days == 58
    assert result.due == result.latest == d("2026-11-25")
    assert (result.due - result.start).days <= RULES.hearing_continuance_max_days


@pytest.mark.provision("L4")
def test_l4_decision_due_on_a_holiday_is_due_the_business_day_before():
    # Hearing ended Wednesday, June 3, 2026: day 30 is Friday, July 3 (Independence Day observed).
    result = run("L4", "2026-06-03")
    assert result.nominal_due == d("2026-07-03")
    assert result.due == d("2026-07-02")
    assert result.lapses_on == d("2026-07-03")
    assert "Independence Day (observed)" in result.explanation.text()


@pytest.mark.provision("P5")
def test_p5_hearing_within_60_days_of_service_never_after_day_60():
    # Served Monday, May 4, 2026: day 60 is Friday, July 3 (a holiday).
    result = run("P5", "2026-05-04")
    assert result.nominal_due == d("2026-07-03")
    assert result.due == d("2026-07-02")
    assert counting.LIMIT_TOWN_MAXIMUM in result.counting
    assert "never moves later" in result.explanation.text()


@pytest.mark.provision("D8")
def test_d8_annual_inspection_anniversary_on_a_saturday_is_due_the_friday_before():
    result = run("D8", "2025-07-04")  # anniversary: Saturday, July 4, 2026; Friday July 3 a holiday
    assert result.nominal_due == d("2026-07-04")
    assert result.due == d("2026-07-02")
    assert result.due <= result.nominal_due


@pytest.mark.provision("L2")
def test_l2_a_closure_friday_at_the_ceiling_goes_back_to_thursday():
    # Mailed Tuesday, June 30, 2026: day 45 is the 9/80 closure Friday, August 14.
    result = run("L2", "2026-06-30", calendar=CALENDAR_WITH_CLOSURE)
    assert result.nominal_due == d("2026-08-14")
    assert result.latest == d("2026-08-13")


# --- kind 3: minimums never move earlier --------------------------------------------------------


@pytest.mark.provision("B7")
def test_b7_frequency_change_earliest_usable_date_after_a_holiday_floor():
    result = run("B7", "2026-06-23")  # day 10: Friday, July 3, a holiday
    assert result.earliest == d("2026-07-03")
    assert result.earliest_business_day == d("2026-07-06")
    assert counting.LIMIT_MINIMUM in result.counting


@pytest.mark.provision("G1")
def test_g1_work_may_start_on_the_first_business_day_after_60_days_notice():
    result = run("G1-start", "2026-05-04")  # notice Monday, May 4: day 60 is Friday, July 3
    assert result.provision == "G1"
    assert result.earliest == d("2026-07-03")
    assert result.earliest_business_day == d("2026-07-06")
    assert "never moves earlier" in result.explanation.text()


@pytest.mark.provision("L2")
def test_l2_floor_day_15_on_a_closure_friday_first_hearing_day_is_monday():
    result = run("L2", "2026-07-30", calendar=CALENDAR_WITH_CLOSURE)  # day 15: Friday, August 14
    assert result.earliest == d("2026-08-14")
    assert result.earliest_business_day == d("2026-08-17")


# --- kind 1: what a person owes; CCP §12b only for acts at the office ---------------------------


@pytest.mark.provision("C4")
def test_c4_training_is_not_moved_by_a_9_80_closure_friday():
    result = run("C4", "2025-08-14", calendar=CALENDAR_WITH_CLOSURE)
    assert result.nominal_due == d("2026-08-14")  # the anniversary: a 9/80 closure Friday
    assert result.due == d("2026-08-14") and not result.moved
    assert not result.office_act
    text = result.explanation.text()
    assert "9/80 closure Friday" in text
    assert "§12b" in text and "no move is needed" in text


@pytest.mark.provision("Q1")
def test_q1_payment_is_moved_by_a_9_80_closure_friday():
    result = run("Q1", "2026-06-30", calendar=CALENDAR_WITH_CLOSURE)  # day 45: Friday, August 14
    assert result.nominal_due == d("2026-08-14")
    assert result.due == d("2026-08-17") and result.moved
    assert result.office_act
    assert "Code of Civil Procedure §12a, Code of Civil Procedure §12b" in result.explanation.text()


@pytest.mark.provision("C4")
def test_c4_training_still_moves_off_a_holiday_under_ccp_12a():
    result = run("C4", "2025-11-27")  # anniversary: the day after Thanksgiving
    assert result.due == d("2026-11-30")


@pytest.mark.provision("N1")
@pytest.mark.parametrize("slug", ["N1", "P6", "P8", "Q1", "B6"])
def test_payments_filings_and_renewals_are_acts_at_the_office(slug):
    result = run(slug, "2026-03-02")
    assert result.office_act and result.counting == (counting.LIMIT_OWED,)


# --- maintenance (E1, E2): calendar days, never moved; grace shown ---------------------------------


@pytest.mark.provision("E1")
def test_e1_90_day_device_pumped_2026_04_04_is_due_2026_07_03():
    result = run("E1", "2026-04-04", frequency_days=90)
    assert result.due == result.nominal_due == d("2026-07-03")  # a holiday: not moved
    assert not result.moved
    assert result.lapses_on == d("2026-07-04")
    assert result.counting == (counting.LIMIT_MAINTENANCE,)
    assert "does not move for weekends, holidays or Town closures" in result.explanation.text()
    maintenance_due = next_service_due(d("2026-04-04"), 90, calendar=CALENDAR)
    assert maintenance_due.due == d("2026-07-03")


@pytest.mark.provision("E1")
def test_e1_needs_the_frequency():
    with pytest.raises(MissingParameter, match="^frequency_days: E1 needs"):
        run("E1", "2026-04-04")
    assert DEADLINE_RULES["E1"].parameters[0][0] == "frequency_days"


@pytest.mark.provision("E1")
def test_e1_grace_period_from_the_ruleset_delays_overdue_and_is_explained():
    ruleset = RULES.replace(service_grace_days=3)
    result = run("E1", "2026-04-04", ruleset=ruleset, frequency_days=90)
    assert result.due == d("2026-07-03")
    assert result.grace_days == 3
    assert result.lapses_on == d("2026-07-07")
    assert "grace period of 3 calendar days" in result.explanation.text()


@pytest.mark.provision("E1")
def test_e1_device_status_shows_the_grace_period_and_the_first_overdue_day():
    ruleset = RULES.replace(service_grace_days=3)

    def status(on):
        return device_status(
            on=d(on),
            kind=GRAVITY_INTERCEPTOR,
            assigned_frequency_days=90,
            last_full_pumpout=d("2026-04-04"),
            latest_measurement=None,
            total_depth_in=Decimal(48),
            ruleset=ruleset,
            calendar=CALENDAR,
        )

    within = status("2026-07-06")
    assert within.next_due == d("2026-07-03")
    assert within.grace_days == 3 and within.overdue_from == d("2026-07-07")
    assert within.status == "due_soon"
    assert "within the grace period of 3 calendar days" in within.explanation.text()
    late = status("2026-07-07")
    assert late.status == "overdue"
    assert "grace period of 3 calendar days" in late.explanation.text()


@pytest.mark.provision("E1")
def test_e1_without_grace_the_device_is_overdue_the_day_after_the_calendar_due_date():
    result = device_status(
        on=d("2026-07-04"),
        kind=GRAVITY_INTERCEPTOR,
        assigned_frequency_days=90,
        last_full_pumpout=d("2026-04-04"),
        latest_measurement=None,
        total_depth_in=Decimal(48),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    assert result.status == "overdue"  # July 3 was a holiday, but maintenance does not move
    assert result.grace_days == 0 and result.overdue_from == d("2026-07-04")


# --- every explanation says which kind applied --------------------------------------------------


@pytest.mark.provision("Counting days")
@pytest.mark.parametrize("slug", list(DEADLINE_RULES))
def test_counting_days_every_explanation_names_the_kind_of_limit(slug):
    result = run(slug, "2026-06-18", frequency_days=90)
    assert result.counting
    text = result.explanation.text()
    assert "Kind of limit" in text or "Counted in business (working) days" in text


@pytest.mark.provision("Counting days")
def test_counting_days_kinds_of_each_rule():
    expected = {
        "B6": (counting.LIMIT_OWED,),
        "B7": (counting.LIMIT_MINIMUM,),
        "C4": (counting.LIMIT_OWED,),
        "D8": (counting.LIMIT_TOWN_MAXIMUM,),
        "E1": (counting.LIMIT_MAINTENANCE,),
        "F5": (counting.LIMIT_MINIMUM,),
        "G1": (counting.LIMIT_MINIMUM,),
        "G1-start": (counting.LIMIT_MINIMUM,),
        "J2": (counting.LIMIT_BUSINESS_DAYS,),
        "K1": (counting.LIMIT_OWED,),
        "L2": (counting.LIMIT_MINIMUM, counting.LIMIT_TOWN_MAXIMUM),
        "L3": (counting.LIMIT_TOWN_MAXIMUM,),
        "L4": (counting.LIMIT_TOWN_MAXIMUM,),
        "M3-hearing": (counting.LIMIT_BUSINESS_DAYS,),
        "M3-decision": (counting.LIMIT_BUSINESS_DAYS,),
        "N1": (counting.LIMIT_OWED,),
        "P5": (counting.LIMIT_TOWN_MAXIMUM,),
        "P6": (counting.LIMIT_OWED,),
        "P8": (counting.LIMIT_OWED,),
        "P9": (counting.LIMIT_OWED,),
        "Q1": (counting.LIMIT_OWED,),
    }
    assert {slug: run(slug, "2026-03-02", frequency_days=30).counting for slug in DEADLINE_RULES} == expected
    start = dt.date(2026, 3, 2)
    assert run("E1", "2026-03-02", frequency_days=30).due == start + dt.timedelta(days=30)
