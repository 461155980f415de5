"""B6: the permit's term runs with the business licence, never longer than one year."""

import pytest

from fogcontrol.rules.permit_term import (
    LIMITED_BY_LICENCE,
    LIMITED_BY_TERM,
    licence_check,
    permit_term,
    renewal_term_start,
)
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d


def term(start, expires, ruleset=RULES):
    return permit_term(
        d(start), licence_number="BL-20001", licence_expires_on=d(expires), ruleset=ruleset, calendar=CALENDAR
    )


@pytest.mark.provision("B6")
def test_b6_expiry_is_aligned_to_the_licence_when_it_ends_within_the_year():
    result = term("2026-01-05", "2026-09-30")  # a Wednesday
    assert result.valid_until == d("2026-09-30") and result.lapses_on == d("2026-10-01")
    assert result.limited_by == LIMITED_BY_LICENCE
    text = result.explanation.text()
    assert "BL-20001" in text and "aligned to the licence" in text
    assert result.explanation.provisions == ("B6", "Counting days")


@pytest.mark.provision("B6")
def test_b6_expiry_is_capped_at_one_year_when_the_licence_runs_longer():
    result = term("2026-01-05", "2027-06-30")
    assert result.valid_until == d("2027-01-05")  # the anniversary, a Tuesday
    assert result.limited_by == LIMITED_BY_TERM and result.term_ends_on == d("2027-01-05")
    assert "never issued for longer" in result.explanation.text()


@pytest.mark.provision("B6")
def test_b6_the_cap_follows_the_rulesets_term():
    result = term("2026-01-05", "2027-06-30", ruleset=RULES.replace(permit_term_years=2))
    assert result.valid_until == d("2027-06-30") and result.limited_by == LIMITED_BY_LICENCE


@pytest.mark.provision("B6")
def test_b6_a_licence_expiring_on_a_weekend_is_renewed_with_it_the_next_business_day():
    result = term("2026-01-05", "2026-10-31")  # a Saturday
    assert result.valid_until == d("2026-11-02")
    assert "§12a" in result.explanation.text()


@pytest.mark.provision("B6")
def test_b6_no_permit_on_an_expired_licence_and_the_refusal_names_it():
    check = licence_check(licence_number="BL-20001", licence_expires_on=d("2026-06-30"), on=d("2026-07-01"))
    assert not check.allowed
    assert "BL-20001" in check.reason and "Tuesday, June 30, 2026" in check.reason and "B6" in check.reason


@pytest.mark.provision("B6")
def test_b6_no_permit_without_a_licence_expiry_on_record():
    check = licence_check(licence_number="BL-20001", licence_expires_on=None, on=d("2026-07-01"))
    assert not check.allowed and "no expiry date on record" in check.reason


@pytest.mark.provision("B6")
def test_b6_no_renewal_when_the_licence_ends_before_the_renewed_term_begins():
    check = licence_check(
        licence_number="BL-20001",
        licence_expires_on=d("2026-06-30"),
        on=d("2026-06-15"),
        term_start=d("2026-07-01"),
    )
    assert not check.allowed and "before the renewed term would begin" in check.reason
    assert licence_check(
        licence_number="BL-20001", licence_expires_on=d("2026-07-01"), on=d("2026-07-01")
    ).allowed


@pytest.mark.provision("B6")
def test_b6_renewed_term_follows_on_or_starts_on_the_day_of_a_late_renewal():
    on_time, _ = renewal_term_start(
        term_start=d("2025-07-01"), valid_until=d("2026-07-01"), renewed_on=d("2026-06-15"), ruleset=RULES
    )
    assert on_time == d("2026-07-01")
    cut_short, _ = renewal_term_start(
        term_start=d("2025-07-01"), valid_until=d("2026-03-31"), renewed_on=d("2026-03-20"), ruleset=RULES
    )
    assert cut_short == d("2026-04-01")
    late, words = renewal_term_start(
        term_start=d("2025-07-01"), valid_until=d("2026-07-01"), renewed_on=d("2026-08-03"), ruleset=RULES
    )
    assert late == d("2026-08-03") and "day of renewal" in words
