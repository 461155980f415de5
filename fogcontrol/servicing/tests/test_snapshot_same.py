"""The device snapshot made cheaper (issue 16) says exactly what it said before (D4, E1-E4, E9)."""

import json

import pytest

from fogcontrol.servicing.tests.snapshot_cases import CASES, DIGESTS, digest


@pytest.mark.provision("E4")
@pytest.mark.provision("D4")
def test_d4_e4_snapshots_of_600_seeded_histories_are_byte_for_byte_those_before_the_fast_path():
    expected = json.loads(DIGESTS.read_text())
    assert len(expected) == CASES
    differing = [seed for seed in range(CASES) if digest(seed) != expected[seed]]
    assert differing == []
