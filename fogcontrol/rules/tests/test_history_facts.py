"""The history read in one pass (issue 16) says what the separate readings said (D4, E1-E5, E9).

The oracles below are the implementations before ``history_facts``, kept here as they were: each
sorted the events on its own and walked them once per question.
"""

import datetime as dt
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogcontrol.rules.devices import Measurement, Observation, observations_of
from fogcontrol.rules.frequency import _observations, accumulation_rate, recommend_frequency
from fogcontrol.rules.servicing_rules import (
    ServiceEvent,
    history_facts,
    last_full_pumpout,
    latest_measurement,
    observations_from_history,
)
from fogcontrol.rules.tests.helpers import RULES

# --- the implementation before issue 16 (the oracle) --------------------------------------------


def _old_ordered(events):
    return sorted(events, key=lambda e: (e.on, e.full_pumpout))


def old_observations_from_history(events):
    out = []
    last_pumpout = None
    for event in _old_ordered(events):
        if event.has_reading and last_pumpout is not None:
            days = (event.on - last_pumpout).days
            if days > 0:
                out.append(Observation(days, event.fog_depth_in, event.solids_depth_in, last_pumpout))
        if event.full_pumpout:
            last_pumpout = event.on
    return tuple(out)


def old_last_full_pumpout(events):
    dates = [e.on for e in events if e.full_pumpout]
    return max(dates) if dates else None


def old_latest_measurement(events):
    readings = [e for e in _old_ordered(events) if e.has_reading]
    if not readings:
        return None
    last = readings[-1]
    return Measurement(last.on, last.fog_depth_in, last.solids_depth_in, last.full_pumpout, last.source)


def old_last_service_on(events):
    days = [e.on for e in events if e.source == "manifest"]
    return max(days) if days else None


# --- random histories ----------------------------------------------------------------------------

DEPTHS = st.one_of(
    st.none(), st.decimals(min_value=0, max_value=30, places=2, allow_nan=False, allow_infinity=False)
)
EVENTS = st.builds(
    ServiceEvent,
    st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2024, 3, 1)),  # a short span: many ties
    st.booleans(),
    DEPTHS,
    DEPTHS,
    st.sampled_from(("manifest", "inspection", "self_monitoring", "")),
)


@pytest.mark.provision("E4")
@settings(max_examples=400, deadline=None)
@given(events=st.lists(EVENTS, max_size=72))
def test_e4_history_facts_are_the_four_readings_of_the_history_as_before(events):
    facts = history_facts(events)
    assert facts.observations == old_observations_from_history(events)
    assert facts.last_full_pumpout == old_last_full_pumpout(events)
    assert facts.latest_measurement == old_latest_measurement(events)
    assert facts.last_service_on == old_last_service_on(events)
    # The public readings, now through the one pass, say the same too.
    assert observations_from_history(events) == old_observations_from_history(events)
    assert last_full_pumpout(events) == old_last_full_pumpout(events)
    assert latest_measurement(events) == old_latest_measurement(events)


@pytest.mark.provision("E3")
@settings(max_examples=300, deadline=None)
@given(
    observations=st.lists(
        st.tuples(
            st.integers(min_value=-5, max_value=400),
            st.decimals(min_value=-1, max_value=40, places=3, allow_nan=False, allow_infinity=False),
            st.decimals(min_value=-1, max_value=40, places=1, allow_nan=False, allow_infinity=False),
        ),
        max_size=40,
    ),
    as_observations=st.booleans(),
    depth=st.sampled_from((D(0), D(6), D(24), D("36.5"), D(48))),
)
def test_e3_e4_the_fast_path_for_exact_observations_judges_them_as_observations_of_does(
    observations, as_observations, depth
):
    given_ = [Observation(*item) for item in observations] if as_observations else observations
    assert _observations(given_) == observations_of(given_)
    exact = observations_of(observations)
    rates = [
        (o.fog_depth_in + o.solids_depth_in) / o.days_since_pumpout for o in exact if o.days_since_pumpout > 0
    ]
    assert accumulation_rate(given_) == (sum(rates, D(0)) / len(rates) if rates else None)

    def outcome(items):
        try:
            return recommend_frequency(
                kind="gravity_interceptor", total_depth_in=depth, observations=items, ruleset=RULES
            )
        except ValueError as error:  # E3: a reading deeper than the device, or negative
            return str(error)

    # Observations built exactly take the fast path; the same given as text take the slow one.
    as_text = [(days, str(fog), str(solids)) for days, fog, solids in observations]
    assert outcome(given_) == outcome(as_text)
