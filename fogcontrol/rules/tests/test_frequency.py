"""Frequency from accumulation data: the average rate, the recommendation, owner requests (E1-E5, E9)."""

from decimal import Decimal as D

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fogcontrol.rules.maintenance import (
    GRAVITY_INTERCEPTOR,
    HYDROMECHANICAL_INTERCEPTOR,
    Observation,
    accumulation_rate,
    assess_frequency_request,
    longest_supported_frequency,
    recommend_frequency,
)
from fogcontrol.rules.tests.helpers import RULES

STEADY = [Observation(30, D(1), D(2)), Observation(60, D(2), D(4)), Observation(90, D(3), D(6))]  # 0.1 in/day
SLOW_LONG = [(40, D(1), D(1)), (80, D(2), D(2)), (120, D(3), D(3))]  # 0.05 in/day, seen up to 120 days


def recommend(observations, kind=GRAVITY_INTERCEPTOR, depth=D(48), ruleset=RULES):
    return recommend_frequency(kind=kind, total_depth_in=depth, observations=observations, ruleset=ruleset)


@pytest.mark.provision("E5")
def test_e4_e5_accumulation_rate_is_the_average_over_time_not_the_median():
    # E5: "based on the average FOG accumulation over time". A median would drop the 45-day reading.
    odd = [*STEADY, Observation(45, D(20), D(10))]  # rates 0.1, 0.1, 0.1 and 0.667 in/day
    assert accumulation_rate(STEADY) == D("0.1")
    assert accumulation_rate(odd).quantize(D("0.0001")) == D("0.2417")
    assert accumulation_rate([(10, D(1), D(1)), (20, D(2), D(2))]) == D("0.2")  # mean of 0.2 and 0.2
    assert accumulation_rate([(0, D(1), D(1))]) is None
    assert accumulation_rate([]) is None


@pytest.mark.provision("E4")
def test_e4_default_until_enough_observations():
    result = recommend(STEADY[:2])
    assert not result.enough_data
    assert result.recommended_frequency_days == 90
    trap = recommend(STEADY[:2], kind=HYDROMECHANICAL_INTERCEPTOR)
    assert trap.recommended_frequency_days == 30
    assert "3 are needed" in result.explanation.text()


@pytest.mark.provision("E3")
def test_e3_recommends_the_longest_frequency_within_the_limit_and_the_margin_is_only_advice():
    result = recommend(STEADY)
    assert result.enough_data and not result.needs_more_frequent_than_allowed
    assert result.rate_in_per_day == D("0.1")
    projections = dict(result.projected_fill_by_frequency)
    assert projections[90] == D("0.1875")  # 9 in / 48 in
    assert projections[120] == D("0.25")  # exactly the limit: E3 says "may not exceed"
    assert result.recommended_frequency_days == 120
    assert result.fill_ratio_last == D("0.1875")
    # The 1.25 margin would stop at 90 days: that is advice beside the finding, not in it.
    assert result.margin_frequency_days == 90
    assert any("not a ground" in line and "every 90 calendar days" in line for line in result.advice)
    assert "safety" not in result.explanation.text() and "margin" not in result.explanation.text()


@pytest.mark.provision("E4")
def test_e4_never_longer_than_the_data_supports():
    assert longest_supported_frequency(90, RULES) == 120
    assert longest_supported_frequency(45, RULES) == 60
    assert longest_supported_frequency(20, RULES) == 30
    assert longest_supported_frequency(400, RULES) == 180
    assert longest_supported_frequency(90, RULES.replace(frequency_extrapolation_steps=0)) == 90
    assert recommend(SLOW_LONG).recommended_frequency_days == 180  # seen to 120 days, one step more
    short = [(20, D(1), D("0.5")), (40, D(1), D(2)), (60, D("1.5"), D("1.5"))]  # 0.075 in/day, seen to 60
    result = recommend(short)
    assert result.longest_supported_days == 90
    assert result.recommended_frequency_days == 90  # 120 would fit the limit but has not been observed


@pytest.mark.provision("E1")
def test_e1_even_the_shortest_frequency_overflows():
    heavy = [(10, D(3), D(3)), (20, D(6), D(6)), (30, D(9), D(9))]  # 0.6 in/day
    result = recommend(heavy)
    assert result.recommended_frequency_days == 30
    assert result.needs_more_frequent_than_allowed


@pytest.mark.provision("E3")
def test_e3_recommendation_refuses_readings_deeper_than_the_device():
    with pytest.raises(ValueError, match="deeper than the device"):
        recommend([(30, D(40), D(10))])


@pytest.mark.provision("E5")
def test_e5_request_granted_when_data_supports_it():
    result = assess_frequency_request(
        requested_days=180,
        kind=GRAVITY_INTERCEPTOR,
        total_depth_in=D(48),
        observations=SLOW_LONG,
        compliance_ok=True,
        ruleset=RULES,
    )
    assert result.granted
    assert any("18.8%" in reason and "within the 25.0% limit" in reason for reason in result.reasons)
    assert "Granted" in result.explanation.text()
    # Observed to 120 days only: reaching 180 is advice for the FOG Manager, not a ground.
    assert any("longest interval observed is 120 calendar days" in line for line in result.advice)


@pytest.mark.provision("E5")
@pytest.mark.parametrize(
    ("requested", "observations", "compliance_ok", "reason"),
    [
        (180, STEADY, True, "fills 37.5% of the 48 in total depth: over the 25.0% limit (E5, E3)"),
        (45, STEADY, True, "not an allowed frequency"),
        (90, STEADY, False, "not in full compliance"),
        (120, STEADY[:2], True, "3 are needed"),
    ],
)
def test_e5_request_refused_with_reasons(requested, observations, compliance_ok, reason):
    result = assess_frequency_request(
        requested_days=requested,
        kind=GRAVITY_INTERCEPTOR,
        total_depth_in=D(48),
        observations=observations,
        compliance_ok=compliance_ok,
        ruleset=RULES,
    )
    assert not result.granted
    assert any(reason in line for line in result.reasons), result.reasons


@pytest.mark.provision("E5")
def test_e5_more_frequent_service_needs_no_data():
    result = assess_frequency_request(
        requested_days=60,
        kind=GRAVITY_INTERCEPTOR,
        total_depth_in=D(48),
        observations=[],
        compliance_ok=True,
        ruleset=RULES,
    )
    assert result.granted


# 48 in deep; rates 0.0756, 0.09 and 0.09 in/day, seen to 90 days. Average 0.0852 in/day: 120 days
# -> 10.224 in = 21.3%. (The median, 0.09, x 1.25 gave 28.1%, and the request was refused.)
AVERAGE_21_3_AT_120 = [(30, D("1.268"), D(1)), (60, D("2.4"), D(3)), (90, D("3.6"), D("4.5"))]


def assess(requested, observations, *, compliance_ok=True, **extra):
    return assess_frequency_request(
        requested_days=requested,
        kind=GRAVITY_INTERCEPTOR,
        total_depth_in=D(48),
        observations=observations,
        compliance_ok=compliance_ok,
        ruleset=RULES,
        **extra,
    )


@pytest.mark.provision("E5")
def test_e5_request_projected_at_21_3_percent_is_justified_and_the_margin_is_advice_apart():
    result = assess(120, AVERAGE_21_3_AT_120)

    assert result.granted
    assert result.projected_fill_ratio == D("0.213")
    assert any(
        "0.0852 in/day" in reason and "fills 21.3% of the 48 in total depth: within the 25.0% limit" in reason
        for reason in result.reasons
    ), result.reasons
    # The margin is shown as advice, apart from the finding, and is never one of its grounds.
    assert result.advice and "26.6%" in result.advice[0] and "not a ground" in result.advice[0]
    finding = result.explanation.text()
    assert "Granted" in finding and "26.6%" not in finding
    assert "safety" not in finding and "margin" not in finding and "median" not in finding


@pytest.mark.provision("E5")
def test_e5_refused_only_on_the_chapters_grounds_e3_and_full_compliance():
    over = assess(180, STEADY)  # 0.1 in/day x 180 days = 37.5%
    not_complying = assess(
        120, AVERAGE_21_3_AT_120, compliance_ok=False, compliance_findings=["the device is overdue (E1)"]
    )

    assert not over.granted and not not_complying.granted
    assert over.reasons == ("The average FOG accumulation over time, 0.1000 in/day from 3 reading(s) after "
                            "pump-outs, projected to 180 calendar days fills 37.5% of the 48 in total depth: "
                            "over the 25.0% limit (E5, E3).",)  # fmt: skip
    assert not_complying.reasons == (
        "The FSE is not in full compliance with its permit and the chapter (E5): the device is overdue (E1).",
    )
    for decision in (over, not_complying):
        assert set(decision.explanation.provisions) <= {"E5", "E3", "E1"}
        for reason in decision.reasons:
            assert "safety" not in reason and "margin" not in reason and "observed" not in reason


@pytest.mark.provision("E5")
def test_e5_an_interval_longer_than_observed_is_not_a_ground_for_refusal():
    seen_to_60 = [(20, D(1), D(0)), (40, D(1), D(1)), (60, D(1), D(2))]  # 0.05 in/day, seen to 60 days
    result = assess(180, seen_to_60)  # 9 in of 48 = 18.75%

    assert result.granted
    assert result.advice == (
        "Advice, not a ground for any decision: the longest interval observed is 60 calendar days; the "
        "projection to 180 calendar days extends the average beyond it.",
    )


@pytest.mark.provision("E5")
def test_e5_a_longer_interval_without_the_average_is_not_shown_even_back_to_the_default():
    # The FOG Manager raised this interceptor to every 60 days; going back to 90 needs the data (E5).
    result = assess(90, [], current_days=60)

    assert not result.granted
    assert "The average FOG accumulation over time is not shown" in result.reasons[0]
    assert assess(30, [], current_days=60).granted  # more often than now needs no data


# --- properties --------------------------------------------------------------------------------

DEPTH = D(48)


@st.composite
def observation_sets(draw, min_size=0):
    count = draw(st.integers(min_size, 8))
    items = []
    for _ in range(count):
        days = draw(st.integers(1, 240))
        fog = D(draw(st.integers(0, 2000))) / 100
        solids = D(draw(st.integers(0, 2000))) / 100
        items.append(Observation(days, fog, solids))
    return items


@pytest.mark.provision("E1")
@settings(max_examples=200, deadline=None)
@given(
    observations=observation_sets(), kind=st.sampled_from([GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR])
)
def test_e1_recommendation_is_allowed_and_within_the_limit(observations, kind):
    result = recommend(observations, kind=kind, depth=DEPTH)
    assert result.recommended_frequency_days in RULES.allowed_frequencies_days
    if result.enough_data and not result.needs_more_frequent_than_allowed:
        projected = dict(result.projected_fill_by_frequency)[result.recommended_frequency_days]
        assert projected <= RULES.fill_limit_ratio
        assert result.recommended_frequency_days <= result.longest_supported_days


@pytest.mark.provision("E3")
@settings(max_examples=200, deadline=None)
@given(observations=observation_sets(min_size=1), data=st.data())
def test_e3_more_accumulation_never_yields_a_longer_frequency(observations, data):
    heavier = []
    for item in observations:
        room = DEPTH - item.fog_depth_in - item.solids_depth_in
        extra = D(data.draw(st.integers(0, int(room * 100)))) / 100
        heavier.append(Observation(item.days_since_pumpout, item.fog_depth_in + extra, item.solids_depth_in))
    assume(all(o.fog_depth_in + o.solids_depth_in <= DEPTH for o in heavier))
    base = recommend(observations, depth=DEPTH)
    more = recommend(heavier, depth=DEPTH)
    assert more.recommended_frequency_days <= base.recommended_frequency_days
    assert more.rate_in_per_day >= base.rate_in_per_day
