"""Who answers for a device (A2, A3): the answer alone (``device_responsible``, used by the
set-based enforcement sweep) is the answer of the full working (``device_responsibility``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogcontrol.rules.responsibility import FSE, PROPERTY_OWNER, device_responsibility, device_responsible


@pytest.mark.provision("A2")
@pytest.mark.parametrize(
    ("parcels", "answer"),
    [
        ([], PROPERTY_OWNER),
        (["175-01-001"], FSE),
        ([None], FSE),
        (["175-01-001", "175-01-001"], PROPERTY_OWNER),
        (["175-01-001", "175-01-002"], PROPERTY_OWNER),
        (["175-01-001", None], PROPERTY_OWNER),
    ],
)
def test_a2_a3_the_answer_alone_is_the_workings_answer(parcels, answer):
    assert device_responsible(establishment_parcels=parcels) == answer
    assert device_responsibility(establishment_parcels=parcels).responsible == answer


@pytest.mark.provision("A2")
@given(st.lists(st.one_of(st.none(), st.sampled_from(["175-01-001", "175-01-002", ""])), max_size=5))
def test_a2_device_responsible_agrees_with_device_responsibility(parcels):
    assert device_responsible(establishment_parcels=parcels) == (
        device_responsibility(establishment_parcels=parcels).responsible
    )
