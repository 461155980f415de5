"""The spills API: an FSE reports a spill in the portal and reads the written report's due date at
once with its working (J1, J2); staff record an overflow and read its State category (I1); bad
input answers 400 naming the field."""

import datetime as dt

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.models import Holiday
from fogcontrol.spills import services
from fogcontrol.spills.tests.helpers import at, fog_spill, notice

pytestmark = pytest.mark.django_db
REPORTS, SPILLS = "/api/v1/spill-reports/", "/api/v1/spills/"


@pytest.mark.provision("J2")
def test_j1_j2_fse_portal_report_answers_the_written_report_due_date_at_once(town):
    Holiday.objects.get_or_create(date=dt.date(2026, 6, 8), defaults={"name": "Town closure"})
    client = api_as(town.users[Role.FSE])
    answer = client.post(REPORTS, {
        "establishment": town.own_fse.pk, "occurred_at": at(dt.date(2026, 6, 3)).isoformat(),
        "location": "Back door", "what": "Grease bin overturned", "gallons": "5",
    }, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["written_report_due"] == "2026-06-11" and body["channel"] == "portal"
    assert "J2" in body["written_report_due_explanation"]["provisions"]
    assert "does not relieve" in body["liability"]
    written = client.post(f"{REPORTS}{body['id']}/written/", {
        "incident_on": "2026-06-03", "cause": "Lid broke", "steps_taken": "Absorbent", "prevention": "New bin",
    }, format="json")  # fmt: skip
    assert written.status_code == 201 and written.json()["written_report"]["record_hash"]
    again = client.post(f"{REPORTS}{body['id']}/written/", {
        "incident_on": "2026-06-03", "cause": "a", "steps_taken": "b", "prevention": "c",
    }, format="json")  # fmt: skip
    assert again.status_code == 409


def test_j1_an_fse_sees_only_its_own_reports_and_reports_only_for_itself(town):
    mine = notice(town, day=dt.date(2026, 6, 3))
    services.report_record(  # a phone call from the other FSE, logged by staff
        establishment=town.other_fse, occurred_at=at(dt.date(2026, 6, 3)), location="Alley", what="Overflow",
        acting_user=town.users[Role.INSPECTOR],
    )  # fmt: skip
    client = api_as(town.users[Role.FSE])
    assert {row["establishment"] for row in client.get(REPORTS).json()["results"]} == {town.own_fse.pk}
    assert client.get(f"{REPORTS}{mine.pk}/").status_code == 200
    other = client.post(REPORTS, {
        "establishment": town.other_fse.pk, "occurred_at": at(dt.date(2026, 6, 3)).isoformat(),
        "location": "x", "what": "y",
    }, format="json")  # fmt: skip
    assert other.status_code == 400 and "establishment" in other.json()
    assert api_as(town.users[Role.HAULER]).get(REPORTS).json()["count"] == 0


@pytest.mark.provision("I1")
def test_i1_staff_record_an_overflow_and_read_its_state_category(town):
    client = api_as(town.users[Role.INSPECTOR])
    answer = client.post(SPILLS, {
        "address": "12 Elm Street", "started_at": at(dt.date(2026, 6, 3)).isoformat(), "volume_spilled": "60",
        "volume_reached_surface_water": "0", "destination": "storm_drain", "storm_drain_fully_recovered": False,
        "cause": "grease", "links": [{"establishment": town.own_fse.pk, "reason": "Upstream"}],
    }, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (
        body["category"] == "1"
        and body["fog_caused"]
        and body["links"][0]["establishment_id"] == town.own_fse.pk
    )
    bad = client.post(SPILLS, {
        "address": "12 Elm Street", "started_at": at(dt.date(2026, 6, 3)).isoformat(), "volume_spilled": "60",
        "volume_recovered": "90", "destination": "street", "cause": "roots",
    }, format="json")  # fmt: skip
    assert bad.status_code == 400 and "volume_recovered" in bad.json()


def test_i1_fse_sees_the_spills_linked_to_it_and_not_the_others(town):
    linked = fog_spill(town, links=[(town.own_fse, "upstream")])
    fog_spill(town, address="7 Far Road")
    client = api_as(town.users[Role.FSE])
    assert [row["id"] for row in client.get(SPILLS).json()["results"]] == [linked.pk]
    assert client.get(SPILLS, {"category": "9"}).status_code == 400
