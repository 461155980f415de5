"""CPC sizing checks and A4 construction flags (A4, A5)."""

from decimal import Decimal as D

import pytest

from fogcontrol.rules.sizing import Fixture, a4_flags, gravity_interceptor_size, hydromechanical_size
from fogcontrol.rules.tests.helpers import RULES


@pytest.mark.provision("A4")
@pytest.mark.parametrize(
    ("dfu", "gallons"), [(0, 500), (8, 500), (9, 750), (35, 1000), (36, 1250), (2640, 15000)]
)
def test_a4_gravity_interceptor_size_from_the_cpc_table(dfu, gallons):
    result = gravity_interceptor_size(dfu, RULES)
    assert result.required_gallons == gallons and not result.above_table
    assert f"{gallons} gallons" in result.explanation.text()


@pytest.mark.provision("A4")
def test_a4_gravity_interceptor_above_the_table_is_flagged():
    result = gravity_interceptor_size(2641, RULES)
    assert result.above_table and result.required_gallons is None
    assert "Building Official" in result.explanation.text()
    with pytest.raises(ValueError, match="dfu"):
        gravity_interceptor_size(-1, RULES)


@pytest.mark.provision("A5")
def test_a5_hydromechanical_size_worked_example():
    result = hydromechanical_size(
        [Fixture("3-compartment sink", 3, D(24), D(24), D(14)), ("prep sink", 1, 18, 18, 12)], RULES
    )
    # 3 x 24x24x14 / 231 = 104.73 gal; 18x18x12 / 231 = 16.83 gal; total 121.56 gal; 75% = 91.17 gal
    assert result.fixture_volume_gal.quantize(D("0.01")) == D("121.56")
    assert result.drainage_load_gal.quantize(D("0.01")) == D("91.17")
    sizes = {minutes: size for minutes, _flow, size in result.flow_by_drain_minutes}
    assert sizes == {1: 100, 2: 50}
    assert result.required_rated_flow_gpm == 50
    assert "104.73 gal" in result.explanation.text()


@pytest.mark.provision("A5")
def test_a5_hydromechanical_size_single_sink_and_above_the_standard_sizes():
    assert (
        hydromechanical_size([("sink", 1, 24, 24, 12)], RULES).required_rated_flow_gpm == 15
    )  # 22.44 gal / 2 min
    huge = hydromechanical_size([("tank", 3, 60, 60, 30)], RULES)
    assert huge.above_table and huge.required_rated_flow_gpm is None
    only_one_minute = RULES.replace(cpc_drain_minutes=(1,))
    assert hydromechanical_size([("sink", 1, 24, 24, 12)], only_one_minute).required_rated_flow_gpm == 25


@pytest.mark.provision("A5")
@pytest.mark.parametrize(
    ("fixture", "field"),
    [
        (("sink", 0, 24, 24, 12), "count"),
        (("sink", 1, 24, 0, 12), "width_in"),
        (("sink", 1, -2, 24, 12), "length_in"),
    ],
)
def test_a5_hydromechanical_size_refuses_bad_fixtures(fixture, field):
    with pytest.raises(ValueError, match=field):
        hydromechanical_size([fixture], RULES)
    with pytest.raises(ValueError, match="fixtures"):
        hydromechanical_size([], RULES)


@pytest.mark.provision("A4")
def test_a4_flags_for_a_gravity_interceptor():
    assert a4_flags("gravity_interceptor", 2, 20, RULES) == ()
    flags = a4_flags("gravity_interceptor", 1, D("18"), RULES)
    assert flags == (
        "A4: 1 compartment(s); at least 2 required.",
        "A4: access manhole 18 in; at least 20 in required.",
    )
    assert len(a4_flags("gravity_interceptor", None, None, RULES)) == 2
    assert a4_flags("hydromechanical_interceptor", 1, 10, RULES) == ()
    assert a4_flags("gravity_interceptor", 2, 20, RULES.replace(interceptor_min_manhole_inches=24))
