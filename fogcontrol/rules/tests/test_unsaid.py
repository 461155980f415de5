"""Rules computed ``unsaid()`` (issue 16: the manifest ingest's device snapshots) give the same
verdicts, and their working, if ever read, says the same words; stored as text it fails loudly (D4, E4)."""

import dataclasses
import json
from decimal import Decimal as D

import pytest

from fogcontrol.rules.explain import Sentence, Unsaid, say, unsaid
from fogcontrol.rules.maintenance import (
    GRAVITY_INTERCEPTOR,
    Measurement,
    Observation,
    device_status,
    next_service_due,
    reading_consequences,
    recommend_frequency,
)
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d

OBSERVATIONS = [Observation(30, D(1), D(2)), Observation(60, D(2), D(4)), Observation(90, D(3), D(6))]


def _verdicts():
    status = device_status(
        on=d("2026-07-01"), kind=GRAVITY_INTERCEPTOR, assigned_frequency_days=None,
        last_full_pumpout=d("2026-04-01"), latest_measurement=Measurement(d("2026-05-01"), D(5), D(9)),
        total_depth_in=D(48), ruleset=RULES, calendar=CALENDAR,
    )  # fmt: skip
    recommendation = recommend_frequency(
        kind=GRAVITY_INTERCEPTOR, total_depth_in=D(48), observations=OBSERVATIONS, ruleset=RULES
    )
    consequences = reading_consequences(
        fill_ratio=D("0.4"), gallons_removed=D(900), capacity_gallons=D(1000), kind=GRAVITY_INTERCEPTOR,
        current_frequency_days=90, recommendation=recommendation, notice_date=d("2026-07-01"),
        ruleset=RULES, calendar=CALENDAR,
    )  # fmt: skip
    return status, recommendation, consequences


def _values(result) -> dict:
    """The verdict's fields but its working; words kept beside it (a recommendation's advice) as
    the text they say."""

    def text(value):
        if isinstance(value, tuple | list):
            return tuple(text(v) for v in value)
        return str(value) if isinstance(value, Unsaid | Sentence) else value

    return {k: text(v) for k, v in dataclasses.asdict(result).items() if k != "explanation"}


@pytest.mark.provision("D4")
@pytest.mark.provision("E4")
def test_d4_e4_verdicts_computed_unsaid_are_the_same_and_say_the_same_words_if_read():
    said = _verdicts()
    with unsaid():
        quiet = _verdicts()
    for one, other in zip(said, quiet, strict=True):
        assert _values(other) == _values(one)
        assert other.explanation.provisions == one.explanation.provisions
        assert all(isinstance(step, Unsaid) for step in other.explanation.steps)
        assert other.explanation.text() == one.explanation.text()
    assert all(isinstance(step, Sentence) for step in said[0].explanation.steps)  # the block ended


@pytest.mark.provision("D4")
def test_d4_an_unsaid_working_cannot_be_stored_or_joined_as_text():
    with unsaid():
        step = say("Due on %(day)s.", day="Friday, July 3, 2026")
    assert str(step) == f"{step}" == "Due on Friday, July 3, 2026."
    assert say("Then: %(step)s", step=step) == "Then: Due on Friday, July 3, 2026."  # nested, as rules nest
    with pytest.raises(TypeError):
        "; ".join([step])
    with pytest.raises(TypeError):
        json.dumps([step])
    with pytest.raises(AttributeError):
        step.as_record()


@pytest.mark.provision("E1")
def test_e1_a_due_date_remembered_unsaid_is_said_again_when_read():
    with unsaid():
        quiet = next_service_due(d("2026-03-02"), 61, calendar=CALENDAR, grace_days=2)
    said = next_service_due(d("2026-03-02"), 61, calendar=CALENDAR, grace_days=2)
    assert (said.due, said.lapses_on) == (quiet.due, quiet.lapses_on) == (d("2026-05-02"), d("2026-05-05"))
    assert all(isinstance(step, Sentence) for step in said.explanation.steps)
    assert said.explanation.text() == quiet.explanation.text()
