"""Administrative and judicial penalty caps (P3, P5, P7, P10, P11)."""

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules.penalties import (
    MAINTENANCE,
    NO_PERMIT,
    P7_FACTORS,
    RECORDS,
    SSO,
    judicial_penalty_cap,
    penalty_cap,
    violation_days,
    violation_days_explained,
)
from fogcontrol.rules.tests.helpers import RULES, d

PER_DAY = {
    NO_PERMIT: RULES.penalty_cap_no_permit_per_day,
    RECORDS: RULES.penalty_cap_records_per_day,
    MAINTENANCE: RULES.penalty_cap_maintenance_per_day,
}


@pytest.mark.provision("P3")
def test_p3_violation_days_are_counted_inclusively():
    assert violation_days(d("2026-03-01"), d("2026-03-10")) == 10
    assert violation_days(d("2026-03-01"), d("2026-03-01")) == 1
    days, line = violation_days_explained(d("2026-02-27"), d("2026-03-02"))
    assert days == 4 and "both days counted" in line
    with pytest.raises(ValueError, match="last_day"):
        violation_days(d("2026-03-02"), d("2026-03-01"))


@pytest.mark.provision("P7")
@pytest.mark.parametrize(
    ("kind", "kwargs", "expected"),
    [
        (NO_PERMIT, {"days": 10}, D("10000")),
        (RECORDS, {"days": 3}, D("6000")),
        (MAINTENANCE, {"days": 10}, D("30000")),
        (SSO, {"occurrences": 2}, D("10000")),
        (SSO, {"occurrences": 2, "under_order": True}, D("20000")),
    ],
)
def test_p7_penalty_caps(kind, kwargs, expected):
    cap = penalty_cap(kind, ruleset=RULES, **kwargs)
    assert cap.max_amount == expected
    assert cap.factors == P7_FACTORS and len(cap.factors) == 5
    assert "P7" in cap.explanation.provisions
    assert f"${expected:,}.00" in cap.explanation.text()


@pytest.mark.provision("P5")
def test_p5_citation_alternative_is_noted_for_maintenance_and_sso():
    assert "P5" in penalty_cap(MAINTENANCE, days=1, ruleset=RULES).explanation.provisions
    assert "P5" not in penalty_cap(RECORDS, days=1, ruleset=RULES).explanation.provisions


@pytest.mark.provision("P5")
def test_p5_citation_instead_is_for_p7_3_and_p7_4_only_not_an_sso_under_an_order():
    plain_sso = penalty_cap(SSO, occurrences=1, ruleset=RULES).explanation
    assert "P5" in plain_sso.provisions
    assert "P7(4) an administrative citation may be issued instead" in plain_sso.text()
    under_order = penalty_cap(SSO, occurrences=1, under_order=True, ruleset=RULES).explanation
    assert "P5" not in under_order.provisions
    assert "citation" not in under_order.text()


@pytest.mark.provision("P10")
def test_p10_judicially_recovered_violation_has_no_administrative_penalty():
    cap = penalty_cap(SSO, occurrences=3, under_order=True, judicially_recovered=True, ruleset=RULES)
    assert cap.max_amount == 0
    assert "P10" in cap.explanation.provisions
    judicial = judicial_penalty_cap(5, RULES, administratively_recovered=True)
    assert judicial.max_amount == 0 and "P10" in judicial.explanation.provisions


@pytest.mark.provision("P11")
def test_p11_judicial_cap_per_day():
    cap = judicial_penalty_cap(3, RULES)
    assert cap.max_amount == D("75000") and cap.unit_label == "day"


@pytest.mark.provision("P7")
def test_p7_cap_follows_the_ruleset_version():
    raised = RULES.replace(penalty_cap_maintenance_per_day=D("3500"))
    assert penalty_cap(MAINTENANCE, days=2, ruleset=raised).max_amount == D("7000")


@pytest.mark.provision("P7")
@pytest.mark.parametrize(
    ("kind", "kwargs", "field"),
    [
        (SSO, {"days": 2}, "occurrences"),
        (SSO, {"occurrences": 1, "days": 2}, "days"),
        (RECORDS, {}, "days"),
        (RECORDS, {"days": 1, "occurrences": 1}, "occurrences"),
        (RECORDS, {"days": 1, "under_order": True}, "under_order"),
        (RECORDS, {"days": -1}, "days"),
        (RECORDS, {"days": 1.5}, "days"),
        ("noise", {"days": 1}, "kind"),
    ],
)
def test_p7_refuses_inconsistent_arguments(kind, kwargs, field):
    with pytest.raises(ValueError, match=field):
        penalty_cap(kind, ruleset=RULES, **kwargs)


@pytest.mark.provision("P7")
@given(kind=st.sampled_from(list(PER_DAY)), days=st.integers(0, 2000), more=st.integers(0, 500))
def test_p7_per_day_caps_are_monotone_and_never_exceed_days_times_the_per_day_cap(kind, days, more):
    cap = penalty_cap(kind, days=days, ruleset=RULES)
    longer = penalty_cap(kind, days=days + more, ruleset=RULES)
    assert cap.max_amount <= longer.max_amount
    assert cap.max_amount <= days * PER_DAY[kind]
    assert cap.max_amount <= days * RULES.judicial_penalty_cap_per_day
    assert cap.max_amount >= 0


@pytest.mark.provision("P7")
@given(occurrences=st.integers(0, 500), more=st.integers(0, 50), under_order=st.booleans())
def test_p7_sso_caps_are_monotone_in_occurrences(occurrences, more, under_order):
    cap = penalty_cap(SSO, occurrences=occurrences, under_order=under_order, ruleset=RULES)
    more_cap = penalty_cap(SSO, occurrences=occurrences + more, under_order=under_order, ruleset=RULES)
    assert cap.max_amount <= more_cap.max_amount
    assert cap.max_amount <= occurrences * RULES.penalty_cap_per_sso_under_order
    plain = penalty_cap(SSO, occurrences=occurrences, ruleset=RULES)
    assert (
        plain.max_amount
        <= penalty_cap(SSO, occurrences=occurrences, under_order=True, ruleset=RULES).max_amount
    )


@pytest.mark.provision("P11")
@given(days=st.integers(0, 2000), more=st.integers(0, 500))
def test_p11_judicial_cap_is_monotone(days, more):
    assert judicial_penalty_cap(days, RULES).max_amount <= judicial_penalty_cap(days + more, RULES).max_amount
    assert judicial_penalty_cap(days, RULES).max_amount <= days * RULES.judicial_penalty_cap_per_day
