"""CPC sizing checks and A4 construction flags (A4, A5)."""

from decimal import Decimal as D

import pytest

from fogcontrol.rules.ruleset import CPC_FIXTURE_DFU_SOURCES
from fogcontrol.rules.sizing import (
    Fixture,
    FixtureLoad,
    a4_flags,
    drainage_fixture_units,
    gravity_interceptor_requirement,
    gravity_interceptor_size,
    hydromechanical_size,
    inlet_pipe_max_dfu,
)
from fogcontrol.rules.sizing_verdict import sizing_verdict
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


# --- the CPC gaps (issue 8): note 3 flow volume, inlet pipe, Table 702.1 values, 2.5 x gpm ----------


def load_of(*fixtures):
    return drainage_fixture_units(list(fixtures), RULES)


@pytest.mark.provision("A4")
def test_a4_cpc_1014_3_6_note_3_an_appliance_with_no_dfu_adds_its_flow_times_30_minutes():
    load = load_of(
        FixtureLoad("sink_three_compartment", "Three-compartment sink", 1),
        FixtureLoad("other", "Pasta cooker", 1, flow_gpm=D("5")),
    )
    gravity = gravity_interceptor_requirement(load, RULES)

    assert load.total == 3 and load.direct_flow_gpm == 5 and load.unlisted == ()
    # 3 DFU -> the 8 DFU row, 500 gallons; plus 5 gpm x 30 minutes = 150 gallons (not dropped).
    assert gravity.table.required_gallons == 500 and gravity.flow_volume_gal == 150
    assert gravity.required_gallons == 650 and gravity.complete
    assert (
        "5.00 gpm x 30 minutes = 150 gallons more (CPC Table 1014.3.6 note 3)" in gravity.explanation.text()
    )
    longer = RULES.replace(cpc_direct_appliance_minutes=45)  # ruleset data, not a literal
    assert gravity_interceptor_requirement(load, longer).required_gallons == 725


@pytest.mark.provision("A4")
def test_a4_unknown_dfus_are_sized_by_the_most_the_inlet_pipe_may_carry_cpc_table_703_2():
    load = load_of(
        FixtureLoad("sink_three_compartment", "Three-compartment sink", 1),
        FixtureLoad("other", "Combi steamer", 1),  # no DFU value, no flow: the load is unknown
    )
    by_pipe = gravity_interceptor_requirement(load, RULES, inlet_pipe_in=D("4"))
    unsized = gravity_interceptor_requirement(load, RULES)

    assert load.unlisted == ("Combi steamer",)
    assert by_pipe.basis == "inlet_pipe" and by_pipe.basis_dfu == 216 and by_pipe.required_gallons == 2000
    assert "its 4 in inlet pipe, which may carry at most 216 DFU (CPC 1014.3.6, Table 703.2" in (
        by_pipe.explanation.text()
    )
    assert not unsized.complete and unsized.required_gallons == 500
    assert sizing_verdict("gravity_interceptor", unsized, None, 1000, None)[0] is None
    assert sizing_verdict("gravity_interceptor", by_pipe, None, 1000, None) == (
        False,
        "The installed interceptor (1,000 gallons) is smaller than the CPC size of 2,000 gallons (A4).",
    )
    assert inlet_pipe_max_dfu(D("2.50"), RULES) == 14 and inlet_pipe_max_dfu(D("3.5"), RULES) is None


@pytest.mark.provision("A4")
def test_a4_cpc_table_702_1_a_bar_sink_in_public_use_is_2_dfu():
    load = load_of(FixtureLoad("bar_sink", "Bar sink", 2))
    assert load.total == 4
    assert "2 x 2 DFU = 4 DFU (CPC Table 702.1, sink, bar, public use)" in load.explanation.text()


@pytest.mark.provision("A4")
def test_a4_a_floor_sink_is_sized_by_what_drains_into_it_never_counted_on_top():
    load = load_of(
        FixtureLoad("dishwasher", "Dishwasher", 1),
        FixtureLoad("steam_kettle", "Steam kettle", 1),
        FixtureLoad("floor_sink", "Floor sink", 2, receptor=True),
        FixtureLoad("fryer", "Fryer", 2, has_drain=False),
    )
    assert load.total == 4 + 4  # the dishwasher and the kettle; the floor sinks add nothing
    assert load.receptors == ("Floor sink",) and load.unlisted == ()
    assert "sized by the fixtures that drain into it (CPC Table 702.1 note 1)" in load.explanation.text()


@pytest.mark.provision("A4")
def test_a4_dishwashers_kettles_skillets_and_wok_ranges_are_rated_the_same_way_by_trap_size():
    kinds = ("dishwasher", "steam_kettle", "tilt_skillet", "wok_range")
    assert {RULES.cpc_fixture_dfu[kind] for kind in kinds} == {4}
    assert {CPC_FIXTURE_DFU_SOURCES[kind] for kind in kinds} == {"by its 2 in trap, CPC Table 702.2(1)"}


@pytest.mark.provision("A5")
def test_a5_cpc_1014_2_1_fixtures_may_hold_at_most_2_5_times_the_traps_rated_gpm():
    # 3 x 24 x 24 x 12 / 231 = 89.77 gal. Drained in 2 minutes at 75%: 33.66 gpm, a 35 gpm trap; but
    # 89.77 gal > 2.5 x 35 = 87.5 gal, so the trap must be rated at least 35.9 gpm: 50 gpm.
    hydro = hydromechanical_size([Fixture("3-compartment sink", 3, D(24), D(24), D(12))], RULES)

    assert hydro.required_rated_flow_gpm == 50
    assert hydro.capacity_min_gpm.quantize(D("0.01")) == D("35.91")
    assert sizing_verdict("hydromechanical_interceptor", None, hydro, None, 35) == (
        False,
        "The fixtures draining to the trap hold 89.77 gallons, more than 2.5 x its rated 35 gpm = 87.50 "
        "gallons (CPC 1014.2.1, A5).",
    )
    assert sizing_verdict("hydromechanical_interceptor", None, hydro, None, 50)[0] is True
    looser = RULES.replace(cpc_hydromechanical_capacity_ratio=D("3"))  # ruleset data
    assert (
        hydromechanical_size([Fixture("sink", 3, D(24), D(24), D(12))], looser).required_rated_flow_gpm == 35
    )
