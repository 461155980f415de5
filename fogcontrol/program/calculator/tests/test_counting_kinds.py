"""The calculator page and the rules API under "Counting days" as revised 2026-11-30: the Town's own
maxima never move later, minimums never earlier, closure days move only acts at the office, and the
next service (E1) is due in calendar days with the grace period shown.

The Town calendar is the one the migrations install: in 2026 July 4 is a Saturday, so Independence
Day is observed on Friday, July 3.
"""

import datetime as dt
import html
import re

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.models import Holiday, RulesetVersion

pytestmark = pytest.mark.django_db

API = "/api/v1/rules/deadlines/"
PAGE = "/rules/"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client(town):
    return api_as(town.users[Role.FSE])


@pytest.fixture
def staff(town):
    from django.test import Client

    browser = Client()
    browser.force_login(town.users[Role.FOG_MANAGER])
    return browser


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def nine_eighty_friday():
    Holiday.objects.create(date=dt.date(2026, 8, 14), name="9/80 closure Friday", kind="closure")


# --- E1: the next service, in the API ------------------------------------------------------------


@pytest.mark.provision("E1")
def test_E1_a_90_day_device_pumped_2026_04_04_is_due_2026_07_03(client):
    response = client.get(f"{API}E1/", {"start": "2026-04-04", "frequency_days": 90})

    assert response.status_code == 200
    body = response.json()
    assert body["provision"] == "E1"
    assert body["due"] == body["nominal_due"] == "2026-07-03"  # a Town holiday: not moved
    assert body["moved"] is False
    assert body["frequency_days"] == 90
    assert body["grace_days"] == 0
    assert body["lapses_on"] == "2026-07-04"
    assert body["counting"] == ["maintenance"]
    assert body["explanation"]["provisions"] == ["E1", "E2", "Counting days"]
    assert "does not move for weekends, holidays or Town closures" in body["explanation"]["text"]
    assert body["warnings"] == []


@pytest.mark.provision("E1")
def test_E1_the_grace_period_of_the_ruleset_in_force_is_in_the_answer(client):
    RulesetVersion.objects.create(
        effective_from=dt.date(2026, 1, 1), label="Grace 2026", values={"service_grace_days": 3}
    )

    body = client.get(f"{API}E1/", {"start": "2026-04-04", "frequency_days": 90}).json()

    assert body["due"] == "2026-07-03"
    assert body["grace_days"] == 3
    assert body["lapses_on"] == "2026-07-07"
    assert "grace period of 3 calendar days" in body["explanation"]["text"]
    assert body["ruleset_version"]["label"] == "Grace 2026"


@pytest.mark.provision("E1")
@pytest.mark.parametrize(
    "query, says",
    [
        ({"start": "2026-04-04"}, "Give the device's service frequency in days, one of 30, 60, 90, 120, 180"),
        ({"start": "2026-04-04", "frequency_days": 45}, "45 days is not a frequency E1 allows"),
        ({"start": "2026-04-04", "frequency_days": "often"}, "Give the frequency as a whole number of days"),
        ({"start": "2026-04-04", "frequency_days": 0}, "Give 1 or more days."),
    ],
    ids=["missing", "not in E1", "not a number", "zero"],
)
def test_E1_a_missing_or_bad_frequency_is_a_400_naming_frequency_days(client, query, says):
    response = client.get(f"{API}E1/", query)

    assert response.status_code == 400
    assert list(response.json()) == ["frequency_days"]
    assert says in response.json()["frequency_days"][0]


@pytest.mark.provision("E1")
def test_E1_the_frequency_is_judged_by_the_ruleset_in_force_on_the_last_service(client):
    RulesetVersion.objects.create(
        effective_from=dt.date(2026, 7, 1),
        label="Shorter frequencies 2026",
        values={"allowed_frequencies_days": [30, 60, 90]},
    )

    before = client.get(f"{API}E1/", {"start": "2026-06-30", "frequency_days": 120})
    after = client.get(f"{API}E1/", {"start": "2026-07-01", "frequency_days": 120})

    assert before.status_code == 200 and before.json()["due"] == "2026-10-28"
    assert after.status_code == 400
    assert "not a frequency E1 allows under Shorter frequencies 2026" in after.json()["frequency_days"][0]


def test_other_rules_ignore_a_frequency(client):
    response = client.get(f"{API}Q1/", {"start": "2026-05-19", "frequency_days": 90})

    assert response.status_code == 200
    assert response.json()["frequency_days"] is None


# --- the three kinds, in the API ----------------------------------------------------------------


@pytest.mark.provision("L3")
def test_L3_continuances_never_total_more_than_60_days(client):
    body = client.get(f"{API}L3/", {"start": "2026-09-28"}).json()

    assert body["nominal_due"] == "2026-11-27"  # day 60: the day after Thanksgiving
    assert body["due"] == body["latest"] == "2026-11-25"  # never day 63 (Monday, November 30)
    assert body["counting"] == ["town_maximum"]
    assert "never moves later" in body["explanation"]["text"]


@pytest.mark.provision("P5")
def test_P5_hearing_no_later_than_day_60(client):
    body = client.get(f"{API}P5/", {"start": "2026-05-04"}).json()

    assert body["nominal_due"] == "2026-07-03"
    assert body["due"] == "2026-07-02"


@pytest.mark.provision("G1")
def test_G1_work_may_start_on_the_first_business_day_after_the_notice_period(client):
    body = client.get(f"{API}G1-start/", {"start": "2026-05-04"}).json()

    assert body["kind"] == "minimum"
    assert body["earliest"] == "2026-07-03"
    assert body["earliest_business_day"] == "2026-07-06"
    assert body["counting"] == ["minimum"]


@pytest.mark.provision("C4")
def test_C4_training_is_not_moved_by_a_9_80_closure_friday_but_Q1_payment_is(client):
    nine_eighty_friday()

    training = client.get(f"{API}C4/", {"start": "2025-08-14"}).json()
    payment = client.get(f"{API}Q1/", {"start": "2026-06-30"}).json()

    assert training["due"] == "2026-08-14" and training["moved"] is False
    assert training["office_act"] is False
    assert payment["due"] == "2026-08-17" and payment["moved"] is True
    assert payment["office_act"] is True
    assert any("9/80 closure Friday" in step for step in payment["explanation"]["steps"])


# --- the page ------------------------------------------------------------------------------------


@pytest.mark.provision("E1")
def test_E1_on_the_page_shows_the_calendar_day_due_date_and_the_grace_period(staff):
    response = staff.get(PAGE, {"provision": "E1", "start": "2026-04-04", "frequency_days": "90"}, **HTMX)

    page = text(response)
    assert response.status_code == 200
    assert "E1 · Next full pump-out due" in page
    assert "Due Friday, July 3, 2026 (calendar days: not moved for weekends, holidays or closures)" in page
    assert "Grace period none (0 days)" in page
    assert "The device is overdue for service from Saturday, July 4, 2026" in page
    assert "A maintenance frequency: calendar days, never moved" in page


@pytest.mark.provision("E1")
def test_E1_on_the_page_without_a_frequency_is_explained_beside_the_field(staff):
    response = staff.get(PAGE, {"provision": "E1", "start": "2026-04-04"}, **HTMX)

    page = response.content.decode()
    assert '<p class="field-error">Give the device&#x27;s service frequency in days' in page
    assert 'id="deadline-result"' not in page


@pytest.mark.provision("L2")
def test_L2_on_the_page_says_the_latest_date_is_the_last_business_day_before_the_limit(staff):
    page = text(staff.get(PAGE, {"provision": "L2", "start": "2026-06-18"}, **HTMX))

    assert "Latest day the Town may use Friday, July 31, 2026" in page
    assert "The Town's own maximum: never moves later" in page
    assert "A minimum: never moves earlier" in page


@pytest.mark.provision("D8")
def test_D8_on_the_page_is_the_towns_maximum(staff):
    page = text(staff.get(PAGE, {"provision": "D8", "start": "2026-01-01"}, **HTMX))

    assert "Latest date the Town may use Thursday, December 31, 2026" in page
    assert "the Town's maximum never moves later" in page


# --- the API docs ---------------------------------------------------------------------------------


def test_the_api_docs_show_frequency_days_and_the_kinds_of_limit_without_a_schema_warning():
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    patterns = [path("api/v1/", include("fogcontrol.program.calculator.api_urls"))]
    schema = SchemaGenerator(patterns=patterns).get_schema(request=None, public=True)

    assert not GENERATOR_STATS, "the rules API schema has warnings or errors"
    compute = schema["paths"]["/api/v1/rules/deadlines/{provision}/"]["get"]
    parameters = {parameter["name"]: parameter for parameter in compute["parameters"]}
    assert not parameters["frequency_days"].get("required", False)
    assert "E1" in parameters["frequency_days"]["description"]
    assert "E1" in parameters["provision"]["schema"]["enum"]
    fields = schema["components"]["schemas"]["RulesDeadline"]["properties"]
    assert {"counting", "counting_labels", "office_act", "frequency_days", "grace_days"} <= set(fields)
