"""The reviewer's sizing check: CPC size beside the installed device, with the working (A4, A5)."""

from decimal import Decimal

import pytest

from fogcontrol.permits.sizing import application_sizing
from fogcontrol.permits.tests.factories import FixtureFactory
from fogcontrol.rules.ruleset import CHAPTER_10_02
from fogcontrol.rules.sizing import FixtureLoad, drainage_fixture_units


@pytest.mark.provision("A4")
def test_a4_dfu_counts_only_fixtures_that_drain_to_the_device():
    load = drainage_fixture_units(
        [
            FixtureLoad("sink_three_compartment", "Three-compartment sink", 1),
            FixtureLoad("floor_drain", "Floor drain", 4),
            FixtureLoad("mop_sink", "Mop sink", 1),
            FixtureLoad("hand_sink", "Hand sink", 2, drains_to_device=False),
            FixtureLoad("fryer", "Fryer", 2),
        ],
        CHAPTER_10_02,
    )
    assert load.total == 3 + 4 * 2 + 3
    assert load.unlisted == ("Fryer",)
    text = load.explanation.text()
    assert "CPC Table 702.1" in text and "does not drain to the device" in text


@pytest.mark.provision("A4")
def test_a4_dfu_values_are_ruleset_data():
    amended = CHAPTER_10_02.replace(cpc_fixture_dfu={**CHAPTER_10_02.cpc_fixture_dfu, "floor_drain": 3})
    assert drainage_fixture_units([FixtureLoad("floor_drain", "Floor drain", 2)], amended).total == 6


@pytest.mark.provision("A4")
def test_a4_installed_interceptor_smaller_than_the_cpc_size_is_shown_short(draft, town):
    FixtureFactory(application=draft, kind="floor_drain", count=18, compartments=None,
                   compartment_length_in=None, compartment_width_in=None, compartment_depth_in=None)  # fmt: skip
    # 3 (sink) + 2 x 2 (floor drains) + 18 x 2 (more floor drains) = 43 DFU -> the 90 DFU row, 1,250 gallons.
    check = application_sizing(draft, CHAPTER_10_02)
    assert check.dfu.total == 43
    assert check.gravity.required_gallons == 1250
    assert check.installed_gallons == 1000 and check.adequate is False
    assert "smaller than the CPC size of 1,250 gallons" in check.verdict
    assert "A4" in check.explanation.provisions


@pytest.mark.provision("A5")
def test_a5_grease_trap_flow_from_sink_volume(draft, town):
    town.own_device.kind = "hydromechanical_interceptor"
    town.own_device.rated_flow_gpm = 50
    town.own_device.save()
    draft.refresh_from_db()
    check = application_sizing(draft, CHAPTER_10_02)
    # 3 compartments x 24 x 24 x 14 / 231 = 104.73 gal; 75% = 78.55 gal; over 2 minutes 39.27 gpm -> 50 gpm.
    assert check.hydromechanical.fixture_volume_gal.quantize(Decimal("0.01")) == Decimal("104.73")
    assert check.hydromechanical.required_rated_flow_gpm == 50
    assert check.adequate is True
    assert "meets the CPC rated flow of 50 gpm" in check.verdict


@pytest.mark.provision("K4")
def test_k4_dishwasher_draining_to_the_device_is_warned(draft):
    FixtureFactory(application=draft, kind="dishwasher", compartments=None,
                   compartment_length_in=None, compartment_width_in=None, compartment_depth_in=None)  # fmt: skip
    check = application_sizing(draft, CHAPTER_10_02)
    assert any(w.startswith("K4") for w in check.warnings)


def _line(draft, kind, **values):
    values = {"count": 1, "compartments": None, "compartment_length_in": None, "compartment_width_in": None,
              "compartment_depth_in": None, **values}  # fmt: skip
    return FixtureFactory(application=draft, kind=kind, **values)


@pytest.mark.provision("A4")
def test_a4_floor_sinks_on_an_application_are_not_counted_on_top_of_what_drains_into_them(draft):
    _line(draft, "dishwasher")
    _line(draft, "floor_sink", count=2)
    check = application_sizing(draft, CHAPTER_10_02)
    # 3 (sink) + 2 x 2 (floor drains) + 4 (dishwasher, by its 2 in trap); the floor sinks add nothing.
    assert check.dfu.total == 11
    assert check.dfu.receptors == ("Floor sink",)


@pytest.mark.provision("A4")
def test_a4_an_appliance_flow_on_an_application_adds_30_minutes_of_volume(draft):
    _line(draft, "other", description="pasta cooker", flow_gpm=Decimal("12"))
    check = application_sizing(draft, CHAPTER_10_02)
    # 7 DFU -> 500 gallons; 12 gpm x 30 minutes = 360 gallons more: 860 gallons, and 1,000 are installed.
    assert check.gravity.required_gallons == 860 and check.adequate is True
    _line(draft, "other", description="second cooker", flow_gpm=Decimal("6"))
    draft = type(draft).objects.get(pk=draft.pk)
    check = application_sizing(draft, CHAPTER_10_02)
    assert check.gravity.required_gallons == 500 + 540 and check.adequate is False
