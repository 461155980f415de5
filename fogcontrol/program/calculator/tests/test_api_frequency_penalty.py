"""POST /api/v1/rules/frequency/ (E1-E4, E9) and /api/v1/rules/penalty/ (P3, P5, P7, P10).

Expected values worked out by hand from PROVISIONS.md and the default ruleset: frequencies 30, 60,
90, 120, 180 days (E1); the 25% limit (E3) with the program's safety factor 1.25; 3 observations
to set a frequency from data (E4); caps $1,000 / $2,000 / $3,000 per day, $5,000 / $10,000 per SSO.
"""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.models import RulesetVersion

pytestmark = pytest.mark.django_db

FREQUENCY = "/api/v1/rules/frequency/"
PENALTY = "/api/v1/rules/penalty/"


@pytest.fixture
def client(town):
    return api_as(town.users[Role.PROPERTY_OWNER])


def observation(days, fog, solids):
    return {"days_since_pumpout": days, "fog_depth_in": fog, "solids_depth_in": solids}


def post(client, url, body):
    return client.post(url, body, format="json")


# --- frequency ---------------------------------------------------------------------------------


@pytest.mark.provision("E1")
def test_E1_E3_E4_interceptor_gaining_a_tenth_of_an_inch_a_day_is_pumped_every_120_days(client):
    body = {
        "kind": "gravity_interceptor",
        "total_depth_in": "48",
        "observations": [observation(30, "1", "2"), observation(60, "2", "4"), observation(90, "3", "6")],
    }

    response = post(client, FREQUENCY, body)

    assert response.status_code == 200
    answer = response.json()
    # 0.1 in/day: 120 days -> 12 in of 48 = 25%, the limit (E3: "may not exceed"); 180 days -> 37.5%.
    # The 1.25 margin (23.4% at 90 days, 31.3% at 120) is advice beside the finding, not a ground.
    assert answer["recommended_frequency_days"] == 120
    assert answer["fill_ratio"] == "0.1875"
    assert answer["over_limit"] is False
    assert answer["enough_data"] is True
    assert answer["rate_in_per_day"] == "0.100000"
    assert answer["longest_supported_days"] == 120
    projections = {row["days"]: row for row in answer["projected_fill_by_frequency"]}
    assert list(projections) == [30, 60, 90, 120, 180]
    assert projections[90] == {
        "days": 90,
        "projected_fill_ratio": "0.1875",
        "with_safety_factor": "0.2344",
        "within_limit": True,
    }
    assert projections[120]["within_limit"] is True
    assert projections[180]["within_limit"] is False
    assert answer["advice"] == [
        "Advice, not a ground for any decision: with a safety margin of 1.25 on the average rate, the "
        "longest frequency within the limit would be every 90 calendar days."
    ]
    assert answer["explanation"]["provisions"] == ["E1", "E3", "E4", "E9"]
    assert "Recommended: every 120 calendar days" in answer["explanation"]["text"]
    assert answer["ruleset_version"]["label"].startswith("Chapter 10.02 as adopted")


@pytest.mark.provision("E4")
def test_E2_E4_with_two_readings_a_trap_keeps_its_30_day_default(client):
    body = {
        "kind": "hydromechanical_interceptor",
        "total_depth_in": "12",
        "observations": [observation(10, "0.5", "0.5"), observation(20, "1", "1")],
    }

    answer = post(client, FREQUENCY, body).json()

    assert answer["recommended_frequency_days"] == 30
    assert answer["enough_data"] is False
    assert answer["observations_used"] == 2
    assert answer["longest_supported_days"] is None


@pytest.mark.provision("E3")
@pytest.mark.parametrize(
    "fog, solids, ratio, over",
    [("3", "6", "0.2500", False), ("4", "6", "0.2778", True)],
    ids=["exactly 25% is within", "over 25%"],
)
def test_E3_the_last_reading_is_judged_against_the_25_percent_rule(client, fog, solids, ratio, over):
    body = {
        "kind": "gravity_interceptor",
        "total_depth_in": "36",
        "observations": [observation(40, fog, solids)],
    }

    answer = post(client, FREQUENCY, body).json()

    assert answer["fill_ratio"] == ratio
    assert answer["over_limit"] is over
    assert answer["fill_limit"] == "0.2500"


def test_with_no_observations_the_default_applies_and_there_is_no_fill_ratio(client):
    answer = post(client, FREQUENCY, {"kind": "other", "total_depth_in": "20"}).json()

    assert answer["recommended_frequency_days"] == 30
    assert answer["fill_ratio"] is None
    assert answer["projected_fill_by_frequency"] == []


@pytest.mark.parametrize(
    "change, field_path, says",
    [
        ({"kind": "septic_tank"}, ["kind"], "Choose one of: gravity_interceptor"),
        ({"total_depth_in": "0"}, ["total_depth_in"], "more than 0 inches"),
        ({"total_depth_in": "-12"}, ["total_depth_in"], "more than 0 inches"),
        ({"total_depth_in": "deep"}, ["total_depth_in"], "as a number"),
        ({"total_depth_in": None}, ["total_depth_in"], "total design hydraulic depth in inches"),
        (
            {"observations": [observation(30, "-1", "2")]},
            ["observations", "0", "fog_depth_in"],
            "cannot be negative",
        ),
        (
            {"observations": [observation(30, "1", "1"), observation(60, "1", "-2")]},
            ["observations", "1", "solids_depth_in"],
            "cannot be negative",
        ),
        (
            {"observations": [observation(30, "20", "29")]},
            ["observations", "0", "solids_depth_in"],
            "deeper than the device's total design depth (48.00 in)",
        ),
        (
            {"observations": [observation(0, "1", "1")]},
            ["observations", "0", "days_since_pumpout"],
            "1 or more",
        ),
    ],
    ids=[
        "unknown kind",
        "zero depth",
        "negative depth",
        "not a number",
        "null depth",
        "negative FOG",
        "negative solids in row 2",
        "FOG and solids deeper than the device",
        "zero days",
    ],
)
def test_bad_frequency_input_is_a_400_naming_the_field(client, change, field_path, says):
    body = {
        "kind": "gravity_interceptor",
        "total_depth_in": "48",
        "observations": [observation(30, "1", "1")],
    }
    body.update(change)

    response = post(client, FREQUENCY, body)

    assert response.status_code == 400
    errors = response.json()
    for key in field_path:
        errors = errors[key]
    assert says in errors[0]


def test_the_frequency_api_reads_json_only_and_refuses_anything_else_with_a_400_or_415(client):
    assert client.post(FREQUENCY, "{not json", content_type="application/json").status_code == 400
    assert client.post(FREQUENCY, {"kind": "other"}).status_code == 415


def test_the_frequency_answer_does_not_grow_with_the_number_of_observations(
    client, django_assert_num_queries
):
    for count in (3, 30):
        rows = [observation(10 * (n + 1), "0.1", "0.1") for n in range(count)]
        body = {"kind": "gravity_interceptor", "total_depth_in": "48", "observations": rows}
        with django_assert_num_queries(2):
            assert post(client, FREQUENCY, body | {"as_of": "2026-06-18"}).status_code == 200


# --- penalty caps ------------------------------------------------------------------------------


@pytest.mark.provision("P7")
@pytest.mark.parametrize(
    "body, amount, clause",
    [
        ({"kind": "no_permit", "days": 1}, "1000.00", "P7(1)"),
        ({"kind": "records", "days": 2}, "4000.00", "P7(2)"),
        ({"kind": "maintenance", "days": 10}, "30000.00", "P7(3)"),
        ({"kind": "sso", "occurrences": 1}, "5000.00", "P7(4)"),
        ({"kind": "sso", "occurrences": 2, "under_order": True}, "20000.00", "P7(5)"),
    ],
    ids=["P7(1) no permit", "P7(2) records", "P7(3) maintenance", "P7(4) SSO", "P7(5) SSO under order"],
)
def test_P7_caps_per_day_or_per_overflow(client, body, amount, clause):
    response = post(client, PENALTY, body)

    assert response.status_code == 200
    answer = response.json()
    assert answer["max_amount"] == amount
    assert answer["kind"] == body["kind"]
    assert len(answer["factors"]) == 5
    assert "extent of harm caused by the violation" in answer["factors"]
    assert "P7" in answer["explanation"]["provisions"]
    assert clause in answer["explanation"]["text"]


@pytest.mark.provision("P3")
def test_P3_each_day_is_a_separate_offence(client):
    answer = post(client, PENALTY, {"kind": "maintenance", "days": 3}).json()

    assert answer["per_unit"] == "3000.00"
    assert answer["units"] == 3
    assert answer["unit_label"] == "day"
    assert "P3" in answer["explanation"]["provisions"]
    assert "P5" in answer["explanation"]["provisions"]  # a citation may be issued instead


@pytest.mark.provision("P10")
def test_P10_no_administrative_penalty_once_recovered_judicially(client):
    answer = post(client, PENALTY, {"kind": "records", "days": 5, "judicially_recovered": True}).json()

    assert answer["max_amount"] == "0.00"
    assert answer["judicially_recovered"] is True
    assert "P10" in answer["explanation"]["provisions"]


@pytest.mark.provision("P7")
def test_the_penalty_cap_follows_the_ruleset_in_force_on_the_day_asked(client):
    RulesetVersion.objects.create(
        effective_from=dt.date(2027, 1, 1),
        label="Penalty amendment 2027",
        values={"penalty_cap_maintenance_per_day": "4000"},
    )
    body = {"kind": "maintenance", "days": 2}

    before = post(client, PENALTY, body | {"as_of": "2026-12-31"}).json()
    after = post(client, PENALTY, body | {"as_of": "2027-01-01"}).json()

    assert before["max_amount"] == "6000.00"
    assert after["max_amount"] == "8000.00"
    assert after["ruleset_version"]["label"] == "Penalty amendment 2027"


@pytest.mark.parametrize(
    "body, field, says",
    [
        ({"kind": "maintenance", "days": 0}, "days", "1 or more"),
        ({"kind": "maintenance", "days": -4}, "days", "1 or more"),
        ({"kind": "maintenance", "days": "three"}, "days", "whole number"),
        ({"kind": "maintenance"}, "days", "number of days"),
        ({"kind": "sso", "occurrences": 0}, "occurrences", "1 or more"),
        ({"kind": "sso"}, "occurrences", "number of overflows"),
        ({"kind": "sso", "occurrences": 1, "days": 2}, "days", "per occurrence, not per day"),
        ({"kind": "records", "days": 2, "occurrences": 1}, "occurrences", "per day, not per occurrence"),
        ({"kind": "maintenance", "days": 2, "under_order": True}, "under_order", "only the SSO cap"),
        ({"kind": "arson", "days": 2}, "kind", "Choose one of: no_permit, records, maintenance, sso"),
        ({"days": 2}, "kind", "required"),
        ({"kind": "records", "days": 2, "as_of": "2026-13-01"}, "as_of", "Not a date on the calendar"),
    ],
    ids=[
        "zero days",
        "negative days",
        "days not a number",
        "days missing",
        "zero overflows",
        "overflows missing",
        "days for an SSO",
        "occurrences for a per-day violation",
        "under an order for a per-day violation",
        "unknown kind",
        "kind missing",
        "impossible date",
    ],
)
def test_bad_penalty_input_is_a_400_naming_the_field(client, body, field, says):
    response = post(client, PENALTY, body)

    assert response.status_code == 400
    assert field in response.json()
    assert says in response.json()[field][0]


def test_anonymous_callers_may_not_compute(db):
    client = APIClient()

    assert client.post(FREQUENCY, {"kind": "other", "total_depth_in": "20"}, format="json").status_code == 401
    assert client.post(PENALTY, {"kind": "records", "days": 1}, format="json").status_code == 401
