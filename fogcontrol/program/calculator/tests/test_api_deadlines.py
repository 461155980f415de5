"""GET /api/v1/rules/deadlines/ and /deadlines/{provision}/?start=: Chapter 10.02's deadlines.

Expected dates are worked out by hand from PROVISIONS.md and the Town calendar the migrations
install (the usual California holidays, 2023-2035): in 2026 July 4 is a Saturday, so Independence
Day is observed on Friday, July 3.
"""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.models import Holiday, RulesetVersion
from fogcontrol.rules.deadlines import DEADLINE_RULES

pytestmark = pytest.mark.django_db

LIST = "/api/v1/rules/deadlines/"


def detail(provision, start=None):
    url = f"{LIST}{provision}/"
    return url if start is None else f"{url}?start={start}"


@pytest.fixture
def client(town):
    return api_as(town.users[Role.FSE])


# --- the list of rules -------------------------------------------------------------------------


def test_the_list_names_every_rule_with_its_provisions_title_and_start(client):
    response = client.get(LIST)

    assert response.status_code == 200
    rules = {rule["slug"]: rule for rule in response.json()}
    assert list(rules) == list(DEADLINE_RULES)
    assert rules["L2"]["provisions"] == ["L2"]
    assert rules["L2"]["title"] == "Suspension / revocation hearing window"
    assert rules["L2"]["start_description"] == "Date the notice was mailed"
    assert rules["L2"]["section"] == "L. Suspension and revocation (10.02.260)"
    assert rules["L2"]["url"].endswith("/api/v1/rules/deadlines/L2/")
    assert rules["P9"]["provisions"] == ["P9", "P8"]


@pytest.mark.parametrize("role", list(Role))
def test_any_signed_in_user_may_use_the_rules_api_since_the_ordinance_is_public(town, role):
    client = api_as(town.users[role])

    assert client.get(LIST).status_code == 200
    assert client.get(detail("Q1", "2026-05-19")).status_code == 200


def test_anonymous_callers_are_asked_to_sign_in():
    client = APIClient()

    assert client.get(LIST).status_code == 401
    assert client.get(detail("L2", "2026-06-18")).status_code == 401


# --- worked examples ---------------------------------------------------------------------------


@pytest.mark.provision("L2")
def test_L2_window_for_a_notice_mailed_2026_06_18(client):
    response = client.get(detail("L2", "2026-06-18"))

    assert response.status_code == 200
    body = response.json()
    assert body["provision"] == "L2"
    assert body["kind"] == "window"
    assert body["start"] == "2026-06-18"
    # Day 15 is Friday, July 3: Independence Day (observed). The floor never moves ...
    assert body["earliest"] == "2026-07-03"
    # ... but no hearing can be held before the offices reopen on Monday, July 6.
    assert body["earliest_business_day"] == "2026-07-06"
    # Day 45 is Sunday, August 2: the Town's own maximum never moves later, so the latest hearing
    # date is the last business day before it, Friday, July 31 (Counting days, revised).
    assert body["nominal_due"] == "2026-08-02"
    assert body["latest"] == body["due"] == "2026-07-31"
    assert body["moved"] is True
    assert body["lapses_on"] == "2026-08-01"
    assert body["counting"] == ["minimum", "town_maximum"]
    assert body["explanation"]["provisions"] == ["L2", "Counting days"]
    assert any("Independence Day (observed)" in step for step in body["explanation"]["steps"])
    assert "Friday, July 31, 2026" in body["explanation"]["text"]
    assert body["ruleset_version"]["label"].startswith("Chapter 10.02 as adopted")
    assert body["ruleset_version"]["in_force_on"] == "2026-06-18"
    assert body["warnings"] == []


@pytest.mark.provision("Q1")
def test_Q1_fee_noticed_2026_05_19_is_delinquent_from_july_7(client):
    body = client.get(detail("Q1", "2026-05-19")).json()

    # Day 45 is Friday, July 3 (a holiday): paying on Monday, July 6 is on time.
    assert body["kind"] == "deadline"
    assert body["nominal_due"] == "2026-07-03"
    assert body["due"] == "2026-07-06"
    assert body["lapses_on"] == "2026-07-07"
    assert body["explanation"]["provisions"] == ["Q1", "Q2", "Counting days"]


@pytest.mark.provision("J2")
def test_J2_spill_on_wednesday_2026_07_01_is_reported_by_thursday_july_9(client):
    body = client.get(detail("J2", "2026-07-01")).json()

    # Working days: Jul 2, (3 holiday, 4-5 weekend), 6, 7, 8, 9.
    assert body["due"] == "2026-07-09"
    assert body["earliest"] is None


@pytest.mark.provision("B7")
def test_B7_minimum_notice_never_moves_even_onto_a_holiday(client):
    body = client.get(detail("B7", "2026-06-23")).json()

    assert body["kind"] == "minimum"
    assert body["earliest"] == "2026-07-03"
    assert body["earliest_business_day"] == "2026-07-06"
    assert body["due"] is None
    assert body["lapses_on"] is None
    assert body["moved"] is False


@pytest.mark.provision("M3")
def test_M3_hearing_slug_is_found_in_any_case_and_skips_new_years_day(client):
    body = client.get(detail("m3-HEARING", "2026-12-28")).json()

    # Business days after Monday, Dec 28: 29, 30, 31, (Jan 1 holiday), Jan 4, 5.
    assert body["provision"] == "M3-hearing"
    assert body["due"] == "2027-01-05"


@pytest.mark.provision("P8")
def test_P8_a_town_closure_day_moves_the_penalty_payment_deadline(client):
    Holiday.objects.create(date=dt.date(2026, 8, 14), name="9/80 closure Friday", kind="closure")

    body = client.get(detail("P8", "2026-07-15")).json()

    assert body["nominal_due"] == "2026-08-14"
    assert body["due"] == "2026-08-17"
    assert any("9/80 closure Friday" in step for step in body["explanation"]["steps"])


@pytest.mark.provision("Q1")
def test_the_answer_uses_the_ruleset_version_in_force_on_the_start_date(client):
    RulesetVersion.objects.create(
        effective_from=dt.date(2026, 7, 1), label="Fee amendment 2026", values={"fee_delinquency_days": 30}
    )

    before = client.get(detail("Q1", "2026-06-30")).json()
    after = client.get(detail("Q1", "2026-07-01")).json()

    # Before July 1: 45 days -> Friday, August 14. From July 1: 30 days -> Friday, July 31.
    assert before["due"] == "2026-08-14"
    assert before["ruleset_version"]["label"].startswith("Chapter 10.02 as adopted")
    assert after["due"] == "2026-07-31"
    assert after["ruleset_version"]["label"] == "Fee amendment 2026"
    assert after["ruleset_version"]["effective_from"] == "2026-07-01"
    assert "30 calendar days" in after["explanation"]["text"]


def test_a_count_into_a_year_without_holidays_on_record_says_so(client):
    body = client.get(detail("Q1", "2040-03-01")).json()

    assert body["due"] is not None
    assert len(body["warnings"]) == 1
    assert "no holidays on record for 2040" in body["warnings"][0]


# --- bad input: 400 naming the field, or 404 listing the rules ---------------------------------


def test_an_unknown_provision_is_not_found_and_the_answer_lists_the_known_ones(client):
    response = client.get(detail("Z9", "2026-06-18"))

    assert response.status_code == 404
    body = response.json()
    assert body["known_provisions"] == list(DEADLINE_RULES)
    assert "Z9" in body["provision"][0]
    assert "L2" in body["provision"][0]


@pytest.mark.parametrize(
    "query, says",
    [
        ("?start=2026-02-30", "Not a date on the calendar"),
        ("?start=30/06/2026", "Not a date on the calendar"),
        ("?start=", "Not a date on the calendar"),
        ("", "YYYY-MM-DD"),
        ("?start=1850-01-01", "between 1900-01-01 and 2199-12-31"),
        ("?start=9999-12-31", "between 1900-01-01 and 2199-12-31"),
    ],
    ids=["impossible date", "wrong format", "empty", "missing", "too early", "too late"],
)
def test_a_bad_start_date_is_a_400_naming_start(client, query, says):
    response = client.get(f"{LIST}L2/{query}")

    assert response.status_code == 400
    assert list(response.json()) == ["start"]
    assert says in response.json()["start"][0]


def test_the_deadline_answer_takes_a_fixed_number_of_queries(client, django_assert_num_queries):
    # The Town profile (time zone, read by the middleware), the ruleset version in force and the
    # holiday calendar: whatever the rule, and however many holidays the calendar holds.
    for closures in (3, 30):
        Holiday.objects.bulk_create(
            [Holiday(date=dt.date(2026, 7, 1) + dt.timedelta(days=closures + i), name=f"Closure {i}")
             for i in range(closures - Holiday.objects.filter(name__startswith="Closure").count())]
        )  # fmt: skip
        for provision in DEADLINE_RULES:
            with django_assert_num_queries(3):
                assert client.get(detail(provision, "2026-06-18") + "&frequency_days=90").status_code == 200
