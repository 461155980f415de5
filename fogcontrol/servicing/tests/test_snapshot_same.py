"""The device snapshot made cheaper (issue 16) says exactly what it said before (D4, E1-E4, E9)."""

import dataclasses
import json

import pytest

from fogcontrol.rules.explain import Explanation
from fogcontrol.servicing.services.state import snapshot_from_events, state_values
from fogcontrol.servicing.tests.snapshot_cases import CASES, DIGESTS, case, digest


@pytest.mark.provision("E4")
@pytest.mark.provision("D4")
def test_d4_e4_snapshots_of_600_seeded_histories_are_byte_for_byte_those_before_the_fast_path():
    expected = json.loads(DIGESTS.read_text())
    assert len(expected) == CASES
    differing = [seed for seed in range(CASES) if digest(seed) != expected[seed]]
    assert differing == []


def _without_working(snap):
    """The snapshot with its explanations' steps and its advice left out: what ``worded=False``
    does not say."""
    status = dataclasses.replace(snap.status, explanation=Explanation(snap.status.explanation.provisions, ()))
    recommendation = snap.recommendation and dataclasses.replace(
        snap.recommendation,
        explanation=Explanation(snap.recommendation.explanation.provisions, ()),
        advice=(),
    )
    return dataclasses.replace(snap, status=status, recommendation=recommendation)


@pytest.mark.provision("E4")
@pytest.mark.provision("D4")
def test_d4_e4_the_sweeps_unworded_verdict_on_600_seeded_histories_is_the_worded_one_without_its_steps():
    # The sweep's first run stores the figures only and asks for no working (issue 16): every other
    # field, and the state row, must be those of the full verdict.
    for seed in range(CASES):
        device, events, last_manifest_id, on, ctx = case(seed)
        worded = snapshot_from_events(device, events, last_manifest_id, on=on, ctx=ctx)
        bare = snapshot_from_events(device, events, last_manifest_id, on=on, ctx=ctx, worded=False)
        assert bare == _without_working(worded), seed
        assert bare.status.explanation.steps == ()
        assert state_values(bare, today=on, open_kinds=set()) == state_values(
            worded, today=on, open_kinds=set()
        )
