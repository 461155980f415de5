"""Invoice dates and billing's sums (Q1, P8, P9, N1, Counting days)."""

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules.billing import (
    aging_bucket,
    aging_buckets,
    allocate_oldest_first,
    cents,
    invoice_dates,
    split_evenly,
)
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d

# Wednesday November 25, 2026: the day before Thanksgiving.
BEFORE_HOLIDAY = d("2026-11-25")


def dates(kind, notice=BEFORE_HOLIDAY):
    return invoice_dates(kind=kind, notice_date=notice, ruleset=RULES, calendar=CALENDAR)


@pytest.mark.provision("Q1")
def test_q1_invoice_due_on_receipt_delinquent_after_45_days_moved_past_the_weekend():
    """Q1: a notice dated the day before Thanksgiving is due that day; day 45 is a Saturday, so the
    last day to pay moves to Monday and delinquency starts Tuesday (Counting days, kind 1)."""
    result = dates("Q1")
    assert result.due_on == BEFORE_HOLIDAY
    assert result.last_day_to_pay == d("2027-01-11")
    assert result.delinquent_from == d("2027-01-12")
    assert result.lien_eligible_from is None
    assert "Q1" in result.explanation.provisions


@pytest.mark.provision("P8")
def test_p8_penalty_paid_within_30_days_christmas_moves_the_last_day_and_p9_lien_after_60():
    """P8: 30 days after November 25 is Christmas Day (a Town holiday), so the last day to pay is
    Monday December 28; P9: a lien may be recorded once delinquent 60 days."""
    result = dates("P8")
    assert result.due_on == d("2026-12-28")
    assert result.delinquent_from == d("2026-12-29")
    assert result.lien_eligible_from == d("2027-02-27")
    assert "P9" in result.explanation.provisions


@pytest.mark.provision("N1")
def test_n1_clean_up_costs_within_45_days_of_invoicing():
    result = dates("N1")
    assert result.due_on == d("2027-01-11")
    assert result.delinquent_from == d("2027-01-12")


def test_unknown_invoice_kind_is_refused():
    with pytest.raises(ValueError, match="Q1"):
        dates("X9")


@pytest.mark.provision("Q1")
def test_q1_money_rounds_half_up_to_the_cent_and_splits_exactly():
    assert cents(Decimal("10.005")) == Decimal("10.01")
    assert split_evenly(Decimal("100.00"), 3) == [Decimal("33.34"), Decimal("33.33"), Decimal("33.33")]


@pytest.mark.provision("Q1")
def test_q1_aging_buckets():
    assert [aging_bucket(n, RULES) for n in (0, 30, 31, 45, 46, 60, 61)] == [
        "0-30", "0-30", "31-45", "31-45", "46-60", "46-60", "over 60",
    ]  # fmt: skip


@pytest.mark.provision("Q1")
@pytest.mark.provision("P9")
def test_q1_p9_aging_columns_follow_the_ruleset():
    """A Town that gives 60 days before delinquency (Q1) and 90 before a lien (P9) sees those cuts."""
    town = dataclasses.replace(RULES, fee_delinquency_days=60, lien_delinquency_days=90)
    assert [label for label, _low, _high in aging_buckets(town)] == ["0-30", "31-60", "61-90", "over 90"]
    assert aging_bucket(75, town) == "61-90"


money = st.decimals(min_value=0, max_value=10000, places=2, allow_nan=False, allow_infinity=False)


@given(amount=money, invoices=st.lists(money, max_size=8))
def test_q1_allocation_never_exceeds_an_invoice_and_adds_up_exactly(amount, invoices):
    """Q1: oldest first, each invoice up to what it owes; allocations + credit == the payment."""
    open_invoices = list(enumerate(invoices))
    allocations, left = allocate_oldest_first(amount, open_invoices)
    assert sum((a.amount for a in allocations), Decimal(0)) + left == amount
    assert left >= 0
    for allocation in allocations:
        assert 0 < allocation.amount <= invoices[allocation.invoice]
