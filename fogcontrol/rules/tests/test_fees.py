"""Fee and penalty status on a day: delinquency, licence block, lien (Q1, Q2, P8, P9)."""

import pytest

from fogcontrol.rules.fees import fee_status, penalty_status
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d


def fee(on, paid_on=None, ruleset=RULES, notice="2026-05-19"):
    return fee_status(
        notice_date=d(notice),
        paid_on=d(paid_on) if paid_on else None,
        on=d(on),
        ruleset=ruleset,
        calendar=CALENDAR,
    )


def penalty(on, paid_on=None, issued="2026-05-19"):
    return penalty_status(
        issued_on=d(issued),
        paid_on=d(paid_on) if paid_on else None,
        on=d(on),
        ruleset=RULES,
        calendar=CALENDAR,
    )


@pytest.mark.provision("Q1")
def test_q1_fee_due_on_receipt_and_delinquent_the_day_after_the_moved_deadline():
    result = fee("2026-07-06")
    assert result.due_on == d("2026-05-19")
    assert result.last_day_to_pay == d("2026-07-06")  # day 45 is July 3, the observed holiday
    assert result.delinquent_from == d("2026-07-07")
    assert not result.delinquent and not result.blocks_licence_renewal
    late = fee("2026-07-07")
    assert late.delinquent and late.blocks_licence_renewal


@pytest.mark.provision("Q2")
def test_q2_paying_late_lifts_the_licence_block():
    result = fee("2026-07-20", paid_on="2026-07-08")
    assert result.paid and result.paid_late
    assert not result.delinquent and not result.blocks_licence_renewal
    on_time = fee("2026-07-20", paid_on="2026-07-06")
    assert on_time.paid and not on_time.paid_late


@pytest.mark.provision("Q2")
def test_q2_payment_after_the_day_judged_does_not_count_yet():
    result = fee("2026-07-10", paid_on="2026-07-15")
    assert not result.paid and result.delinquent and result.blocks_licence_renewal
    assert "no business licence is issued or renewed" in result.explanation.text()


@pytest.mark.provision("Q1")
def test_q1_ruleset_version_changes_the_delinquency_date():
    result = fee("2026-06-19", ruleset=RULES.replace(fee_delinquency_days=30))
    assert result.last_day_to_pay == d("2026-06-18")
    assert result.delinquent


@pytest.mark.provision("P8")
def test_p8_penalty_payment_due_thirty_days_after_issue():
    result = penalty("2026-06-18")
    assert result.payment_due == d("2026-06-18")
    assert result.delinquent_from == d("2026-06-19")
    assert not result.delinquent
    assert penalty("2026-06-19").delinquent


@pytest.mark.provision("P9")
def test_p9_penalty_lien_eligible_after_sixty_days_delinquent():
    assert penalty("2026-08-17").last_day_before_lien == d("2026-08-17")
    assert not penalty("2026-08-17").lien_eligible
    result = penalty("2026-08-18")
    assert result.lien_eligible and result.lien_eligible_from == d("2026-08-18")
    assert "County Recorder" in result.explanation.text()
    paid = penalty("2026-09-01", paid_on="2026-08-01")
    assert paid.paid_late and not paid.lien_eligible and not paid.delinquent
