"""The next service due date is remembered (issue 16: a bulk judgement meets the same few hundred
dates thousands of times); a date remembered without its working is worded when a reader asks (E1)."""

import pytest

from fogcontrol.rules.explain import Sentence
from fogcontrol.rules.maintenance import next_service_due
from fogcontrol.rules.tests.helpers import CALENDAR, d


@pytest.mark.provision("E1")
def test_e1_a_due_date_remembered_unworded_is_worded_when_read():
    quiet = next_service_due(d("2026-03-02"), 61, calendar=CALENDAR, grace_days=2, worded=False)
    said = next_service_due(d("2026-03-02"), 61, calendar=CALENDAR, grace_days=2)
    assert (said.due, said.lapses_on) == (quiet.due, quiet.lapses_on) == (d("2026-05-02"), d("2026-05-05"))
    assert said.explanation.steps and all(isinstance(step, Sentence) for step in said.explanation.steps)
    assert said.explanation.provisions == quiet.explanation.provisions
    assert next_service_due(d("2026-03-02"), 61, calendar=CALENDAR, grace_days=3).lapses_on == d("2026-05-06")
