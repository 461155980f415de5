"""Worked examples for every deadline of Chapter 10.02, with weekend and holiday edges."""

import pytest

from fogcontrol.rules import deadlines
from fogcontrol.rules.deadlines import DEADLINE_RULES, UnknownProvision, compute_deadline
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, RULES, d


def run(slug, start, calendar=CALENDAR, ruleset=RULES):
    return compute_deadline(slug, d(start), ruleset=ruleset, calendar=calendar)


@pytest.mark.provision("B6")
def test_b6_permit_renewal_on_observed_independence_day_moves_and_expiry_is_day_after():
    result = run("B6", "2025-07-03")
    assert result.nominal_due == d("2026-07-03")  # anniversary: Independence Day (observed)
    assert result.due == d("2026-07-06")  # Friday holiday + weekend -> Monday
    assert result.moved
    assert result.lapses_on == d("2026-07-07")  # expires the day after the (moved) renewal deadline
    text = result.explanation.text()
    assert "Independence Day (observed)" in text
    assert "§12a" in text
    assert result.explanation.provisions[0] == "B6"


@pytest.mark.provision("B6")
def test_b6_permit_issued_on_leap_day_falls_due_february_28():
    result = run("B6", "2024-02-29")
    assert result.due == d("2025-02-28")
    assert result.lapses_on == d("2025-03-01")
    assert "February 28, 2025" in result.explanation.text()
    assert "not a leap year" in result.explanation.text()


@pytest.mark.provision("B7")
def test_b7_frequency_change_minimum_notice_does_not_move_on_holiday():
    result = run("B7", "2026-06-23")
    assert result.kind == deadlines.KIND_MINIMUM
    assert result.earliest == d("2026-07-03")  # a holiday, but a minimum never moves earlier
    # Counting days (revised): the earliest usable date is the first business day on or after it.
    assert result.earliest_business_day == d("2026-07-06")
    assert result.due is None and not result.moved
    assert "never moves earlier" in result.explanation.text()


@pytest.mark.provision("C4")
def test_c4_training_due_on_day_after_thanksgiving_moves_to_monday():
    result = run("C4", "2025-11-27")
    assert result.nominal_due == d("2026-11-27")
    assert result.due == d("2026-11-30")
    assert "Day after Thanksgiving" in result.explanation.text()


@pytest.mark.provision("D8")
def test_d8_annual_inspection_on_new_years_day_is_due_the_business_day_before():
    result = run("D8", "2026-01-01")
    assert result.nominal_due == d("2027-01-01")
    # The Town's own maximum never moves later: the last business day on or before the anniversary.
    assert result.due == result.latest == d("2026-12-31")
    assert result.moved
    assert result.lapses_on == d("2027-01-01")
    assert "New Year's Day" in result.explanation.text()


@pytest.mark.provision("F5")
def test_f5_records_from_leap_day_kept_through_february_28_and_purge_not_moved():
    result = run("F5", "2024-02-29")
    assert result.latest == d("2026-02-28")
    assert result.earliest == d("2026-03-01")  # a Sunday: the earliest purge date does not move
    assert result.due is None


@pytest.mark.provision("F5")
def test_f5_records_kept_two_years():
    result = run("F5", "2026-05-12")
    assert result.latest == d("2028-05-12") and result.earliest == d("2028-05-13")


@pytest.mark.provision("G1")
def test_g1_remodel_notice_latest_date_is_not_moved_even_on_a_holiday():
    result = run("G1", "2026-09-01")
    assert result.due == d("2026-07-03") == result.latest
    assert not result.moved
    text = result.explanation.text()
    assert "Thursday, July 2, 2026" in text  # the business day before, for notice given in person
    assert "not moved" in text


@pytest.mark.provision("G1")
def test_g1_remodel_notice_on_an_ordinary_day():
    assert run("G1", "2026-11-02").due == d("2026-09-03")


@pytest.mark.provision("J2")
def test_j2_spill_report_counts_working_days_around_independence_day():
    result = run("J2", "2026-07-01")
    assert result.due == d("2026-07-09")
    assert "Independence Day (observed)" in result.explanation.text()


@pytest.mark.provision("J2")
def test_j2_spill_report_across_new_year():
    assert run("J2", "2026-12-30").due == d("2027-01-07")


@pytest.mark.provision("K1")
def test_k1_grinder_removal_180_days_after_effective_date():
    assert run("K1", "2023-03-30").due == d("2023-09-26")
    effective = RULES.chapter_effective_date
    result = compute_deadline("K1", effective, ruleset=RULES, calendar=CALENDAR)
    assert result.nominal_due == effective.fromordinal(effective.toordinal() + RULES.grinder_removal_days)


@pytest.mark.provision("L2")
def test_l2_hearing_window_floor_on_holiday_does_not_move_but_first_hearing_day_is_next_business_day():
    result = run("L2", "2026-06-18")
    assert result.kind == deadlines.KIND_WINDOW
    assert result.earliest == d("2026-07-03")  # day 15: a holiday, the floor stays
    assert result.earliest_business_day == d("2026-07-06")
    assert result.nominal_due == d("2026-08-02")  # day 45: a Sunday
    assert result.latest == result.due == d("2026-07-31")  # the Friday before: never later than day 45
    text = result.explanation.text()
    assert "never moves earlier" in text and "never moves later" in text
    assert "Monday, July 6, 2026" in text


@pytest.mark.provision("L2")
def test_l2_hearing_window_on_business_days():
    result = run("L2", "2026-06-03")
    assert result.earliest == result.earliest_business_day == d("2026-06-18")
    assert result.latest == d("2026-07-17")  # day 45, July 18, is a Saturday: the Friday before


@pytest.mark.provision("L3")
def test_l3_continuance_limit_on_the_day_after_thanksgiving_goes_back_to_wednesday():
    result = run("L3", "2026-09-28")
    assert result.nominal_due == d("2026-11-27")  # day 60: the day after Thanksgiving
    assert result.due == d("2026-11-25")  # Thanksgiving and the day after are skipped backwards
    assert (result.due - result.start).days == 58  # never more than 60 days in total
    assert result.explanation.text().count("the Town's offices are closed") == 2


@pytest.mark.provision("L4")
def test_l4_decision_on_new_years_eve_needs_no_move():
    result = run("L4", "2026-12-01")
    assert result.due == d("2026-12-31") and not result.moved
    assert result.lapses_on == d("2027-01-01")


@pytest.mark.provision("M3")
def test_m3_emergency_hearing_five_business_days_across_new_year():
    assert run("M3-hearing", "2026-12-28").due == d("2027-01-05")


@pytest.mark.provision("M3")
def test_m3_emergency_decision_two_business_days_over_thanksgiving():
    result = run("M3-decision", "2026-11-25")
    assert result.due == d("2026-12-01")
    assert result.provision == "M3"


@pytest.mark.provision("N1")
def test_n1_cost_payment_due_on_new_years_day_moves_to_monday():
    result = run("N1", "2026-11-17")
    assert result.nominal_due == d("2027-01-01")
    assert result.due == d("2027-01-04")
    assert result.lapses_on == d("2027-01-05")


@pytest.mark.provision("P5")
def test_p5_complaint_hearing_within_60_days():
    assert run("P5", "2026-09-04").due == d("2026-11-03")


@pytest.mark.provision("P6")
def test_p6_appeal_due_on_day_after_thanksgiving_moves_to_monday():
    result = run("P6", "2026-11-12")
    assert result.nominal_due == d("2026-11-27")
    assert result.due == d("2026-11-30")


@pytest.mark.provision("P8")
def test_p8_penalty_payment_on_a_friday_closure_day_the_town_added():
    assert run("P8", "2026-07-15").due == d("2026-08-14")
    result = run("P8", "2026-07-15", calendar=CALENDAR_WITH_CLOSURE)
    assert result.due == d("2026-08-17")
    assert "9/80 closure Friday" in result.explanation.text()


@pytest.mark.provision("P9")
def test_p9_lien_eligible_after_sixty_full_days_of_delinquency():
    result = run("P9", "2026-05-19")
    assert result.earliest == d("2026-06-19")  # delinquent from the day after the P8 deadline
    assert result.due == d("2026-08-17")  # last day to pay: P8 deadline + 60
    assert result.lapses_on == d("2026-08-18")  # lien-eligible
    assert result.explanation.provisions[:2] == ("P9", "P8")


@pytest.mark.provision("Q1")
def test_q1_fee_delinquency_deadline_on_observed_independence_day():
    result = run("Q1", "2026-05-19")
    assert result.nominal_due == d("2026-07-03")
    assert result.due == d("2026-07-06")
    assert result.lapses_on == d("2026-07-07")


@pytest.mark.provision("Q1")
def test_q1_ruleset_version_with_30_days_gives_a_different_date():
    old = run("Q1", "2026-05-19")
    new = run("Q1", "2026-05-19", ruleset=RULES.replace(fee_delinquency_days=30))
    assert new.due == d("2026-06-18") != old.due
    assert "30 calendar days" in new.explanation.text()


@pytest.mark.provision("Counting days")
def test_counting_days_registry_lists_every_slug_with_title_and_start():
    assert list(DEADLINE_RULES) == [
        "B6", "B7", "C4", "D8", "E1", "F5", "G1", "G1-start", "J2", "K1", "L2", "L3", "L4",
        "M3-hearing", "M3-decision", "N1", "P5", "P6", "P8", "P9", "Q1",
    ]  # fmt: skip
    for slug, rule in DEADLINE_RULES.items():
        assert rule.slug == slug and rule.title and rule.start_description
        result = compute_deadline(slug, d("2026-03-02"), ruleset=RULES, calendar=CALENDAR, frequency_days=90)
        assert result.slug == slug
        assert result.provision in rule.provisions
        assert result.explanation.steps
        assert result.key_date


@pytest.mark.provision("Counting days")
def test_counting_days_unknown_slug_is_refused_clearly():
    with pytest.raises(UnknownProvision, match="Unknown deadline provision 'Z9'.*B6"):
        compute_deadline("Z9", d("2026-03-02"), ruleset=RULES, calendar=CALENDAR)
    with pytest.raises(LookupError):
        compute_deadline("b6", d("2026-03-02"), ruleset=RULES, calendar=CALENDAR)


@pytest.mark.provision("Counting days")
def test_counting_days_explanation_as_dict():
    result = run("Q1", "2026-05-19")
    data = result.explanation.as_dict()
    assert data["provisions"] == ["Q1", "Q2", "Counting days"]
    assert data["steps"][0].startswith("Start: Tuesday, May 19, 2026")
    assert data["text"].startswith("Provisions: Q1, Q2, Counting days\n1. Start:")
