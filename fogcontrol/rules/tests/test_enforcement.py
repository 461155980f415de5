"""Violations and case steps: P3 day counts, P7 classes, H3 refusals and H4 missed milestones."""

from decimal import Decimal as D

from fogcontrol.rules.enforcement import (
    Owed,
    compliance_agreement_allowed,
    milestone_missed,
    violation_days_on,
    violation_kind,
)
from fogcontrol.rules.tests.helpers import d


def test_p7_violation_kind_by_section():
    assert violation_kind("B1") == "no_permit"
    assert violation_kind("f4") == "records"
    assert violation_kind("E1") == "maintenance"
    assert violation_kind("J1") == "sso"
    assert violation_kind("K6") == "discharge"
    assert violation_kind("C3") == "other"


def test_p3_days_count_both_ends_and_run_to_today_while_open():
    days, why = violation_days_on(d("2026-03-01"), d("2026-03-10"), d("2026-04-01"))
    assert days == 10 and "both days counted" in why and "cured on" in why
    days, why = violation_days_on(d("2026-03-01"), None, d("2026-03-01"))
    assert days == 1 and "not cured" in why
    assert violation_days_on(d("2026-03-05"), None, d("2026-03-01"))[0] == 0


def test_h3_refusal_names_each_amount_and_the_total():
    verdict = compliance_agreement_allowed([Owed("Renewal fee", D("250.00")), Owed("Paid", D("0"))])
    assert not verdict.allowed and verdict.total_owed == D("250.00")
    text = verdict.explanation.text()
    assert "Renewal fee: $250.00" in text and "H3" in text and "Paid" not in text
    assert compliance_agreement_allowed([]).allowed


def test_h4_milestone_missed_when_late_or_not_met():
    assert milestone_missed(d("2026-05-01"), d("2026-05-01"), d("2026-06-01"))[0] is False
    assert milestone_missed(d("2026-05-01"), None, d("2026-05-01"))[0] is False
    missed, why = milestone_missed(d("2026-05-01"), None, d("2026-05-02"))
    assert missed and "H4" in why
    assert milestone_missed(d("2026-05-01"), d("2026-05-03"), d("2026-05-04"))[0] is True
