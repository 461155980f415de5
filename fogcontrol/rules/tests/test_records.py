"""The records an FSE owes: training (C4), reports (C5, F2, F3, F6), requests (D7, E9), statuses."""

import dataclasses

import pytest

from fogcontrol.rules import records
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, NINE_EIGHTY_FRIDAY, RULES, d


@pytest.mark.provision("C4")
def test_c4_next_training_falls_on_the_anniversary_moved_off_a_weekend_not_a_closure():
    due = records.next_training_due(d("2025-03-10"), ruleset=RULES, calendar=CALENDAR)
    assert due.due == d("2026-03-10")
    # 2026-03-14 is a Saturday: training moves to Monday.
    assert records.next_training_due(d("2025-03-14"), ruleset=RULES, calendar=CALENDAR).due == d("2026-03-16")
    # A 9/80 Friday does not move training done in the kitchen (CCP §12b is for office acts).
    last = NINE_EIGHTY_FRIDAY.replace(year=NINE_EIGHTY_FRIDAY.year - 1)
    closure = records.next_training_due(last, ruleset=RULES, calendar=CALENDAR_WITH_CLOSURE)
    assert closure.due == NINE_EIGHTY_FRIDAY and not closure.moved


@pytest.mark.provision("C4")
def test_c4_a_new_hire_untrained_after_the_allowance_is_late():
    hired = d("2026-06-01")  # a Monday
    assert records.new_hire_training_due(hired, ruleset=RULES, calendar=CALENDAR).due == hired
    assert not records.new_hire_trained_late(hired, None, on=hired, ruleset=RULES, calendar=CALENDAR)
    assert records.new_hire_trained_late(hired, None, on=d("2026-06-02"), ruleset=RULES, calendar=CALENDAR)
    assert records.new_hire_trained_late(
        hired, d("2026-06-03"), on=d("2026-06-10"), ruleset=RULES, calendar=CALENDAR
    )
    week = dataclasses.replace(RULES, new_hire_training_days=7)
    assert not records.new_hire_trained_late(
        hired, d("2026-06-08"), on=d("2026-06-10"), ruleset=week, calendar=CALENDAR
    )
    # Hired on a Saturday with no allowance: the last day moves to Monday.
    assert records.new_hire_training_due(d("2026-06-06"), ruleset=RULES, calendar=CALENDAR).due == d(
        "2026-06-08"
    )


@pytest.mark.provision("F3")
def test_f3_monthly_reports_keep_their_day_clip_short_months_and_move_off_closed_days():
    periods = records.report_periods(
        kind="self_monitoring", first_due_on=d("2026-01-31"), every=1, unit=records.EVERY_MONTHS,
        through=d("2026-04-15"), calendar=CALENDAR,
    )  # fmt: skip
    assert [p.scheduled_on for p in periods] == [
        d("2026-01-31"),
        d("2026-02-28"),
        d("2026-03-31"),
        d("2026-04-30"),
    ]
    # January 31, 2026 is a Saturday: the filing moves to Monday, February 2 (CCP §12a).
    assert periods[0].due_on == d("2026-02-02") and periods[0].deadline.moved
    assert periods[0].deadline.lapses_on == d("2026-02-03")
    assert "F3" in periods[0].deadline.explanation.provisions


@pytest.mark.provision("C5")
def test_c5_reports_every_n_days_and_a_filing_moves_over_a_closure_day():
    periods = records.report_periods(
        kind="bmp_status", first_due_on=d("2026-07-15"), every=30, unit=records.EVERY_DAYS,
        through=d("2026-08-14"), calendar=CALENDAR_WITH_CLOSURE,
    )  # fmt: skip
    assert [p.scheduled_on for p in periods] == [d("2026-07-15"), d("2026-08-14"), d("2026-09-13")]
    # August 14, 2026 is a 9/80 closure Friday: a filing at the office moves (CCP §12b).
    assert periods[1].due_on == d("2026-08-17")


@pytest.mark.provision("F2")
def test_f2_a_lifted_requirement_schedules_nothing_after_it_ends():
    periods = records.report_periods(
        kind="cctv", first_due_on=d("2026-01-15"), every=6, unit=records.EVERY_MONTHS,
        through=d("2027-12-31"), calendar=CALENDAR, ends_on=d("2026-08-01"),
    )  # fmt: skip
    assert [p.scheduled_on for p in periods] == [d("2026-01-15"), d("2026-07-15")]


@pytest.mark.provision("D7")
def test_d7_a_request_is_owed_once_and_defaults_to_the_ruleset_days():
    periods = records.report_periods(
        kind="waste_analysis_plan", first_due_on=d("2026-05-01"), every=0, unit=records.ONCE,
        through=d("2027-01-01"), calendar=CALENDAR,
    )  # fmt: skip
    assert len(periods) == 1 and periods[0].deadline.provision == "D7"
    due = records.request_first_due(d("2026-05-01"), ruleset=RULES, calendar=CALENDAR)
    assert due.nominal_due == d("2026-05-31") and due.due == d("2026-06-01")  # May 31 is a Sunday


@pytest.mark.provision("E9")
def test_e9_frequency_data_cites_e9():
    period = records.report_period(
        kind="frequency_data",
        first_due_on=d("2026-05-04"),
        every=0,
        unit=records.ONCE,
        number=1,
        calendar=CALENDAR,
    )
    assert period.deadline.provision == "E9" and period.due_on == d("2026-05-04")
    with pytest.raises(ValueError):
        records.report_period(
            kind="frequency_data",
            first_due_on=d("2026-05-04"),
            every=0,
            unit=records.ONCE,
            number=2,
            calendar=CALENDAR,
        )


@pytest.mark.provision("F4")
def test_f4_status_is_late_the_day_after_due_and_due_within_the_window():
    due = d("2026-06-30")
    status = lambda on, done=False: records.obligation_status(due, done=done, on=d(on), ruleset=RULES)  # noqa: E731
    assert status("2026-06-01") == records.UPCOMING
    assert status("2026-06-16") == records.DUE
    assert status("2026-06-30") == records.DUE
    assert status("2026-07-01") == records.LATE
    assert status("2026-07-01", done=True) == records.DONE
    assert sorted([records.DONE, records.UPCOMING, records.LATE, records.DUE], key=records.status_order) == [
        records.LATE, records.DUE, records.UPCOMING, records.DONE,
    ]  # fmt: skip
