"""The ruleset as versioned data: round trip, unknown keys refused, new fields defaulted."""

import dataclasses
import datetime as dt
import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset

INTS = st.integers(0, 100_000)
DECIMALS = st.decimals(min_value=0, max_value=1_000_000, places=4, allow_nan=False, allow_infinity=False)


def _strategy(default):
    if isinstance(default, Decimal):
        return DECIMALS
    if isinstance(default, dt.date):
        return st.dates()
    if isinstance(default, tuple) and default and isinstance(default[0], tuple):
        return st.lists(st.tuples(INTS, INTS), max_size=15).map(tuple)
    if isinstance(default, tuple):
        return st.lists(INTS, max_size=10).map(tuple)
    return INTS


RULESETS = st.builds(
    Ruleset,
    **{field.name: _strategy(getattr(CHAPTER_10_02, field.name)) for field in dataclasses.fields(Ruleset)},
)


@pytest.mark.provision("Counting days")
@given(RULESETS)
def test_ruleset_round_trip_through_json(ruleset):
    stored = json.loads(json.dumps(ruleset.to_dict()))
    assert Ruleset.from_dict(stored) == ruleset


@pytest.mark.provision("Counting days")
def test_ruleset_from_dict_refuses_unknown_keys():
    with pytest.raises(ValueError, match="fee_delinquncy_days"):
        Ruleset.from_dict({"fee_delinquncy_days": 30})


@pytest.mark.provision("Counting days")
def test_ruleset_missing_keys_take_the_chapter_defaults():
    assert Ruleset.from_dict({}) == CHAPTER_10_02
    assert Ruleset.from_dict({"fee_delinquency_days": 30}).fee_delinquency_days == 30


@pytest.mark.provision("A5")
def test_a5_ruleset_carries_the_new_sizing_and_frequency_settings():
    assert CHAPTER_10_02.hydromechanical_standard_sizes_gpm == (10, 15, 20, 25, 35, 50, 75, 100)
    assert CHAPTER_10_02.frequency_extrapolation_steps == 1
    assert CHAPTER_10_02.default_frequency_other_days == 30
