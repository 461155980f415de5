"""The notices API: writing the program's letter, reading documents by establishment and key,
recording service, and the template versions."""

import datetime as dt

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.notices.tests.conftest import adopted_version
from fogcontrol.notices.tests.helpers import issue_letter

pytestmark = pytest.mark.django_db


def test_staff_issue_a_letter_and_read_it_back(town, manager, today):
    client = api_as(manager)
    answer = client.post("/api/v1/notices/documents/", {
        "establishment": town.own_fse.pk, "body_text": "Please call.", "service_method": "email",
        "served_on": today.isoformat(),
    }, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["key"] == "general_letter" and "Please call." in body["body"] and body["served"] is True
    assert body["addressee"].startswith("Blue Plate Diner") and body["service"]["method"] == "email"
    listed = client.get(
        f"/api/v1/notices/documents/?establishment={town.own_fse.pk}&key=general_letter"
    ).json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == body["id"]
    pdf = client.get(f"/api/v1/notices/documents/{body['id']}/pdf/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"service_method": "pigeon"}, "service_method"),
        ({"service_method": "registered_mail"}, "article_number"),
        ({"body_text": ""}, "body_text"),
        ({"establishment": 999999}, "establishment"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(town, manager, changes, field):
    data = {"establishment": town.own_fse.pk, "body_text": "Hi.", "service_method": "email"} | changes
    answer = api_as(manager).post("/api/v1/notices/documents/", data, format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()


def test_service_recorded_later_with_the_article_number(town, manager, today):
    document = issue_letter(town, method="certified_mail", article_number="9407-1")
    client = api_as(manager)
    url = f"/api/v1/notices/documents/{document.pk}/service/"
    missing = client.post(
        url, {"service_method": "certified_mail", "served_on": today.isoformat()}, format="json"
    )
    assert missing.status_code == 400 and "article_number" in missing.json()
    answer = client.post(url, {"service_method": "certified_mail", "served_on": today.isoformat(),
                               "article_number": "9407-1"}, format="json")  # fmt: skip
    assert answer.status_code == 201 and answer.json()["served"] is True
    assert [s["served_on"] for s in answer.json()["services"]] == [today.isoformat(), None]


def test_the_fse_reads_only_its_served_documents(town, today):
    served = issue_letter(town, served_on=today)
    issue_letter(town)
    client = api_as(town.users[Role.FSE])
    assert [row["id"] for row in client.get("/api/v1/notices/documents/").json()["results"]] == [served.pk]
    assert client.get("/api/v1/notices/templates/").status_code == 404


def test_template_versions_in_the_api(town, manager, today):
    adopted_version("general_letter", 1, body="{body_text}", days=3)
    client = api_as(manager)
    url = "/api/v1/notices/templates/general_letter/versions/"
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    bad = client.post(url, {"title": "T", "body": "{owner}", "effective_from": tomorrow, "adopted_by": "Res. 1"},
                      format="json")  # fmt: skip
    assert bad.status_code == 400 and "{owner}" in str(bad.json()["body"])
    past = client.post(url, {"title": "T", "body": "{body_text}", "effective_from": today.isoformat(),
                             "adopted_by": "Res. 1"}, format="json")  # fmt: skip
    assert past.status_code == 400 and "effective_from" in past.json()
    made = client.post(url, {"title": "T", "body": "Dear {business_name}. {body_text}", "effective_from": tomorrow,
                             "adopted_by": "Res. 2"}, format="json")  # fmt: skip
    assert made.status_code == 201 and made.json()["version"] == 2
    again = client.post(url, {"title": "T", "body": "{body_text}", "effective_from": tomorrow, "adopted_by": "R"},
                        format="json")  # fmt: skip
    assert again.status_code == 409
    versions = client.get(url).json()
    assert [v["version"] for v in versions] == [2, 1]
    overview = client.get("/api/v1/notices/templates/").json()
    letter = next(row for row in overview if row["key"] == "general_letter")
    assert letter["version_in_force"]["version"] == 1 and letter["draft"]["version"] == 2
    assert set(letter["placeholders"]) == {"business_name", "body_text"}
    assert client.get("/api/v1/notices/templates/no_such/versions/").status_code == 404
