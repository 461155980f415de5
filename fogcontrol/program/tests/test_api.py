"""The program settings API: access by role, errors that name the field, 409 for versions in force."""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from conftest import api_as
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.core.roles import OUTSIDE_ROLES, STAFF_ROLES, Role
from fogcontrol.program.models import Holiday, RulesetVersion
from fogcontrol.program.selectors import ruleset_on, town_profile
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db

ADOPTED = dt.date(2023, 3, 30)
PROFILE = "/api/v1/program/profile/"
HOLIDAYS = "/api/v1/program/holidays/"
RULESETS = "/api/v1/program/rulesets/"
IN_FORCE = "/api/v1/program/rulesets/in-force/"


def _adopted():
    return RulesetVersion.objects.get(effective_from=ADOPTED)


READS = [PROFILE, HOLIDAYS, f"{HOLIDAYS}?year=2026", RULESETS, IN_FORCE, f"{IN_FORCE}?on=2024-01-01"]


@pytest.mark.parametrize("role", sorted(STAFF_ROLES))
def test_town_staff_read_every_endpoint(town, today, role):
    client = api_as(town.users[role])
    for url in [*READS, f"{RULESETS}{_adopted().pk}/"]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("role", sorted(OUTSIDE_ROLES))
def test_outside_users_get_404_for_reads_and_writes_and_nothing_changes(town, today, role):
    client = api_as(town.users[role])
    for url in [*READS, f"{RULESETS}{_adopted().pk}/"]:
        assert client.get(url).status_code == 404, url
    assert client.patch(PROFILE, {"name": "Mine"}, format="json").status_code == 404
    assert client.post(HOLIDAYS, {"date": "2026-08-07", "name": "x"}, format="json").status_code == 404
    response = client.post(RULESETS, {"effective_from": "2027-01-01", "label": "x"}, format="json")
    assert response.status_code == 404
    assert town_profile().name == "The Town"
    assert RulesetVersion.objects.count() == 1


@pytest.mark.parametrize("role", sorted(STAFF_ROLES - {Role.FOG_MANAGER}))
def test_staff_other_than_the_fog_manager_get_403_on_writes_and_nothing_changes(town, today, role):
    client = api_as(town.users[role])
    assert client.patch(PROFILE, {"name": "Changed"}, format="json").status_code == 403
    assert client.post(HOLIDAYS, {"date": "2026-08-07", "name": "x"}, format="json").status_code == 403
    holiday = Holiday.objects.get(date=dt.date(2026, 12, 25))
    assert client.delete(f"{HOLIDAYS}{holiday.pk}/").status_code == 403
    assert client.post(f"{HOLIDAYS}install-standard/", {"year": 2041}, format="json").status_code == 403
    response = client.post(RULESETS, {"effective_from": "2027-01-01", "label": "x"}, format="json")
    assert response.status_code == 403
    assert town_profile().name == "The Town"
    assert Holiday.objects.filter(pk=holiday.pk).exists()
    assert not Holiday.objects.filter(date__year=2041).exists()
    assert RulesetVersion.objects.count() == 1


def test_anonymous_callers_must_sign_in(db):
    for url in READS:
        assert APIClient().get(url).status_code in (401, 403)


# --- Town profile -------------------------------------------------------------------------------


@pytest.mark.provision("J1")
def test_j1_the_fog_manager_patches_the_spill_contact_numbers(town, manager):
    client = api_as(manager)
    response = client.patch(
        PROFILE,
        {"wastewater_division_phone": "(650) 555-0134", "after_hours_emergency_phone": "(650) 555-0199"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["after_hours_emergency_phone"] == "(650) 555-0199"
    assert client.get(PROFILE).json()["wastewater_division_phone"] == "(650) 555-0134"
    assert audit_entries_for(town_profile()).first().actor == manager


def test_a_bad_time_zone_or_email_is_a_400_naming_the_field(town, manager):
    client = api_as(manager)
    response = client.patch(PROFILE, {"time_zone": "Mars/Olympus_Mons"}, format="json")
    assert response.status_code == 400
    assert "America/Los_Angeles" in response.json()["time_zone"][0]
    response = client.patch(PROFILE, {"fog_manager_email": "not an email"}, format="json")
    assert response.status_code == 400 and "fog_manager_email" in response.json()
    assert town_profile().time_zone == "America/Los_Angeles"


# --- holidays -----------------------------------------------------------------------------------


def test_holidays_are_listed_by_year(town, today):
    response = api_as(town.users[Role.STAFF_READONLY]).get(HOLIDAYS, {"year": 2026})
    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(row["date"], row["name"]) for row in rows] == [
        (day.isoformat(), name) for day, name in standard_town_holidays(2026).items() if day.year == 2026
    ]
    assert rows[0]["weekday"] == "Thursday"  # January 1, 2026


def test_a_bad_year_is_a_400_naming_it(town, today):
    response = api_as(town.users[Role.STAFF_READONLY]).get(HOLIDAYS, {"year": "twenty"})
    assert response.status_code == 400 and "?year=2027" in response.json()["year"]


@pytest.mark.provision("Counting days")
def test_counting_days_the_fog_manager_adds_and_removes_a_closure_day(town, manager, today):
    client = api_as(manager)
    response = client.post(
        HOLIDAYS, {"date": "2026-08-07", "name": "9/80 closure Friday", "kind": "closure"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["weekday"] == "Friday"
    duplicate = client.post(HOLIDAYS, {"date": "2026-08-07", "name": "Again"}, format="json")
    assert duplicate.status_code == 400
    assert "already on the calendar as 9/80 closure Friday" in duplicate.json()["date"][0]
    assert client.delete(f"{HOLIDAYS}{response.json()['id']}/").status_code == 204
    assert not Holiday.objects.filter(date=dt.date(2026, 8, 7)).exists()


def test_missing_fields_are_named(town, manager):
    response = api_as(manager).post(HOLIDAYS, {}, format="json")
    assert response.status_code == 400
    assert {"date", "name"} <= set(response.json())


def test_the_fog_manager_installs_a_standard_year_through_the_api(town, manager):
    response = api_as(manager).post(f"{HOLIDAYS}install-standard/", {"year": 2041}, format="json")
    assert response.status_code == 201
    assert len(response.json()) == len(standard_town_holidays(2041))
    response = api_as(manager).post(f"{HOLIDAYS}install-standard/", {"year": 2041}, format="json")
    assert response.status_code == 201 and response.json() == []
    response = api_as(manager).post(f"{HOLIDAYS}install-standard/", {"year": 1850}, format="json")
    assert response.status_code == 400 and "year" in response.json()


# --- ruleset versions ---------------------------------------------------------------------------


@pytest.mark.provision("Q1")
def test_q1_a_future_version_created_through_the_api_applies_from_its_date_and_not_before(
    town, manager, today
):
    client = api_as(manager)
    response = client.post(
        RULESETS,
        {
            "effective_from": "2027-01-01",
            "label": "Resolution 2026-41",
            "adoption_reference": "Res. 2026-41",
            "adopted_on": "2026-06-01",
            "values": {"fee_delinquency_days": 30},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["values"] == {"fee_delinquency_days": 30}
    assert body["ruleset"]["fee_delinquency_days"] == 30 and body["ruleset"]["appeal_days"] == 15
    assert body["changes"][0]["provision"] == "Q1" and body["changes"][0]["adopted"] == "45"
    assert body["locked"] is False

    before = client.get(IN_FORCE, {"on": "2026-12-31"}).json()
    after = client.get(IN_FORCE, {"on": "2027-01-01"}).json()
    assert before["values"]["fee_delinquency_days"] == 45
    assert before["version"]["effective_from"] == ADOPTED.isoformat()
    assert after["values"]["fee_delinquency_days"] == 30
    assert after["version"]["id"] == body["id"]
    assert after["provisions"]["fee_delinquency_days"] == "Q1"
    assert ruleset_on(dt.date(2027, 1, 1)).fee_delinquency_days == 30


def test_in_force_defaults_to_today_and_refuses_a_bad_date(town, today):
    client = api_as(town.users[Role.HEARING_OFFICER])
    assert client.get(IN_FORCE).json()["on"] == today.isoformat()
    response = client.get(IN_FORCE, {"on": "12/31/2026"})
    assert response.status_code == 400 and "YYYY-MM-DD" in response.json()["on"]


def test_a_version_already_in_force_is_refused_with_409_and_the_reason(town, manager, today):
    client = api_as(manager)
    adopted = _adopted()
    response = client.patch(
        f"{RULESETS}{adopted.pk}/", {"values": {"fee_delinquency_days": 30}}, format="json"
    )
    assert response.status_code == 409
    assert "read-only: decisions made while it was in force are judged by it" in response.json()["detail"]
    assert client.put(f"{RULESETS}{adopted.pk}/", {"label": "x"}, format="json").status_code == 409
    assert client.delete(f"{RULESETS}{adopted.pk}/").status_code == 409
    adopted.refresh_from_db()
    assert adopted.values == {} and client.get(f"{RULESETS}{adopted.pk}/").json()["locked"] is True


def test_a_future_version_is_changed_and_withdrawn_through_the_api(town, manager, today):
    client = api_as(manager)
    created = client.post(
        RULESETS,
        {
            "effective_from": "2027-01-01",
            "label": "Draft",
            "adoption_reference": "Res. 2026-41",
            "adopted_on": "2026-06-01",
            "values": {"appeal_days": 20},
        },
        format="json",
    ).json()
    response = client.patch(f"{RULESETS}{created['id']}/", {"values": {"appeal_days": 21}}, format="json")
    assert response.status_code == 200 and response.json()["values"] == {"appeal_days": 21}
    assert client.delete(f"{RULESETS}{created['id']}/").status_code == 204
    assert RulesetVersion.objects.count() == 1


def test_bad_versions_are_400s_naming_the_field(town, manager, today):
    client = api_as(manager)
    response = client.post(RULESETS, {"effective_from": "2026-06-15", "label": "Today"}, format="json")
    assert response.status_code == 400 and "after today" in response.json()["effective_from"][0]
    response = client.post(
        RULESETS,
        {
            "effective_from": "2027-01-01",
            "label": "Typo",
            "values": {"fee_delinquncy_days": 30, "appeal_days": "x"},
        },
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["values"]
    assert "Not a ruleset value" in errors["fee_delinquncy_days"][0]
    assert "whole number" in errors["appeal_days"][0]
    response = client.post(RULESETS, {"effective_from": "2027-01-01"}, format="json")
    assert response.status_code == 400 and "label" in response.json()
    assert RulesetVersion.objects.count() == 1


def test_api_lists_take_the_same_queries_whatever_their_length(town, manager, today):
    added = iter(range(30))

    def add_rows(count):
        for i in [next(added) for _ in range(count)]:
            RulesetVersion.objects.create(
                effective_from=dt.date(2030, 1, 1) + dt.timedelta(days=i),
                label=f"Version {i}",
                values={"appeal_days": 10 + i},
                created_by=manager,
            )
            Holiday.objects.create(date=dt.date(2045, 1, 1) + dt.timedelta(days=i), name=f"Closure {i}")

    holidays = f"{HOLIDAYS}?year=2045"
    # Town profile, count and page, and what each row shows: the same for 3 rows and 30.
    responses = assert_queries_do_not_grow(
        api_as(manager), add_rows, {RULESETS: 4, holidays: 3}, small=3, large=30
    )
    for rows, (versions, closures) in zip((3, 30), zip(*responses.values(), strict=True), strict=True):
        assert versions.json()["count"] == rows + 1
        assert closures.json()["count"] == rows
