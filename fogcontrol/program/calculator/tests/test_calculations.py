"""The calculator over the Town's data: any rule from any accepted day gives dates, never an error.

A property test (hypothesis) over every deadline rule and the whole accepted date range, with the
Town calendar the migrations install, checks the "Counting days" shape of each answer.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogcontrol.program.calculator import calculations
from fogcontrol.rules.deadlines import DEADLINE_RULES, UnknownProvision

pytestmark = pytest.mark.django_db


@pytest.mark.provision("Counting days")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    provision=st.sampled_from(list(DEADLINE_RULES)),
    start=st.dates(min_value=calculations.FIRST_DATE, max_value=calculations.LAST_DATE),
)
def test_every_rule_from_any_accepted_day_gives_a_date_with_its_working(db, provision, start):
    answer = calculations.deadline_for(provision=provision, start=start, frequency_days=90)

    deadline = answer.deadline
    assert deadline.start == start
    assert deadline.key_date is not None
    assert deadline.explanation.steps
    if deadline.lapses_on is not None:
        assert deadline.lapses_on == deadline.due + dt.timedelta(days=1 + deadline.grace_days)
    if deadline.kind == "window":
        assert deadline.earliest <= deadline.earliest_business_day <= deadline.latest


def test_the_deadline_rules_are_grouped_by_the_ordinances_sections_in_order():
    groups = calculations.deadline_rule_groups()

    assert [section for section, _ in groups][:2] == ["B. FOG permit", "C. Best management practices"]
    assert [rule.slug for _, rules in groups for rule in rules] == list(DEADLINE_RULES)


def test_an_unknown_provision_is_refused_by_name():
    with pytest.raises(UnknownProvision):
        calculations.deadline_for(provision="E99", start=dt.date(2026, 6, 18))


def test_a_day_outside_the_range_is_refused_on_the_start_field(db):
    with pytest.raises(ValidationError) as refused:
        calculations.deadline_for(provision="G1", start=dt.date(1899, 12, 31))

    assert list(refused.value.message_dict) == ["start"]
