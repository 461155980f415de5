"""The enforcement API and pages as a user meets them: violations with their P3 days, cases with
steps and next_due, the H3 409 naming the amounts, the FSE's view without internal notes, the
Hearing Officer's work list, and exact query counts for every list."""

import datetime as dt
from decimal import Decimal

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.tests.helpers import a_case, a_violation
from fogcontrol.permits.models import FeeCharge, FeeKind
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def test_p3_violations_api_filters_and_counts_days(town):
    a_violation(town, provision="C3", began_on=town_today() - dt.timedelta(days=9))
    a_violation(town, provision="E1", establishment=town.other_fse)
    client = api_as(town.users[Role.INSPECTOR])
    body = client.get(
        "/api/v1/violations/", {"establishment": town.own_fse.pk, "open": "true", "provision": "c3"}
    ).json()
    assert body["count"] == 1
    row = body["results"][0]
    assert row["days"] == 10 and row["began_on"] and row["cured_on"] is None and row["provision"] == "C3"
    assert "P3" in row["days_explanation"]
    fse = api_as(town.users[Role.FSE]).get("/api/v1/violations/").json()
    assert {r["establishment_id"] for r in fse["results"]} == {town.own_fse.pk}


def test_opening_a_violation_by_api_names_the_field_to_fix(town):
    client = api_as(town.users[Role.INSPECTOR])
    answer = client.post("/api/v1/violations/", {"establishment": town.own_fse.pk, "provision": "K6",
                                                  "description": "Grease down the drain", "evidence": " ",
                                                  "began_on": "2026-03-01"}, format="json")  # fmt: skip
    assert answer.status_code == 400 and "evidence" in answer.json()
    answer = client.post("/api/v1/violations/", {"establishment": town.own_fse.pk, "provision": "K6",
                                                  "description": "Grease down the drain", "evidence": "Seen",
                                                  "began_on": "2026-03-01"}, format="json")  # fmt: skip
    assert (
        answer.status_code == 201 and answer.json()["provision"] == "K6" and answer.json()["kind"] == "other"
    )


@pytest.mark.provision("H3")
def test_h3_compliance_agreement_api_answers_409_naming_the_amounts(town):
    violation = a_violation(town)
    client = api_as(town.users[Role.FOG_MANAGER])
    created = client.post("/api/v1/enforcement/cases/", {"establishment": town.own_fse.pk, "summary": "Screens",
                                                         "internal_notes": "Owner evasive", "violations": [violation.pk]},
                          format="json")  # fmt: skip
    assert created.status_code == 201, created.json()
    case_id = created.json()["id"]
    FeeCharge.objects.create(kind=FeeKind.RENEWAL, amount=Decimal("200.00"), fee_schedule=fee_schedule(),
                             establishment=town.own_fse, description="Renewal", assessed_on=dt.date(2026, 1, 5))  # fmt: skip
    today = town_today()
    body = {"agreed_on": today.isoformat(), "terms": "Fit screens", "signed_by": "Pat",
            "milestones": [{"description": "Screens fitted", "due_on": (today + dt.timedelta(days=30)).isoformat()}]}  # fmt: skip
    answer = client.post(f"/api/v1/enforcement/cases/{case_id}/compliance-agreements/", body, format="json")
    assert answer.status_code == 409
    refusal = answer.json()
    assert refusal["provision"] == "H3" and refusal["total"] == "200.00" and "H3" in refusal["detail"]
    assert refusal["amounts"][0]["amount"] == "200.00" and "renewal" in refusal["amounts"][0]["label"].lower()
    detail = client.get(f"/api/v1/enforcement/cases/{case_id}/").json()
    assert detail["actions"]["compliance_agreement"]["allowed"] is False
    assert "$200.00" in detail["actions"]["compliance_agreement"]["reason"]
    assert (
        detail["internal_notes"] == "Owner evasive"
        and detail["steps"]
        and detail["violations"][0]["days"] >= 1
    )
    fse = api_as(town.users[Role.FSE]).get(f"/api/v1/enforcement/cases/{case_id}/").json()
    assert fse["internal_notes"] is None and fse["reference"] == detail["reference"]


def test_notice_of_violation_by_api_sets_next_due(town):
    case = a_case(town)
    today = town_today()
    client = api_as(town.users[Role.INSPECTOR])
    body = {"violations": [case.violations.get().pk], "required_action": "Fit screens", "issued_on": today.isoformat(),
            "correct_by": (today + dt.timedelta(days=14)).isoformat(), "service_method": "personal_delivery",
            "served_on": today.isoformat()}  # fmt: skip
    answer = client.post(f"/api/v1/enforcement/cases/{case.pk}/notices-of-violation/", body, format="json")
    assert answer.status_code == 201, answer.json()
    detail = client.get(f"/api/v1/enforcement/cases/{case.pk}/").json()
    assert detail["next_due"]["key"] == "correction_due"
    assert detail["next_due"]["due_on"] == (today + dt.timedelta(days=14)).isoformat()
    stranger = dict(body, violations=[a_violation(town, establishment=town.other_fse).pk])
    assert (
        client.post(
            f"/api/v1/enforcement/cases/{case.pk}/notices-of-violation/", stranger, format="json"
        ).status_code
        == 400
    )


def test_case_page_shows_next_due_and_why_steps_are_not_open(town, client):
    case = a_case(town)
    FeeCharge.objects.create(kind=FeeKind.RENEWAL, amount=Decimal("75.00"), fee_schedule=fee_schedule(),
                             establishment=town.own_fse, description="Renewal", assessed_on=dt.date(2026, 1, 5))  # fmt: skip
    client.force_login(town.users[Role.INSPECTOR])
    page = client.get(f"/enforcement/cases/{case.pk}/").content.decode()
    assert "Not open:" in page and "$75.00" in page and "H3" in page
    assert "Owner was rude" in page
    client.force_login(town.users[Role.FSE])
    page = client.get(f"/enforcement/cases/{case.pk}/").content.decode()
    assert case.reference in page and "Owner was rude" not in page


def test_hearing_officer_work_list_shows_upcoming_decisions_due_and_appeals(town, client):
    case = a_case(town)
    today = town_today()
    Hearing.objects.create(case=case, kind="suspension", first_scheduled_on=today + dt.timedelta(days=5),
                           scheduled_on=today + dt.timedelta(days=5), place="Council Chambers")  # fmt: skip
    Hearing.objects.create(case=case, kind="complaint", first_scheduled_on=today - dt.timedelta(days=3),
                           scheduled_on=today - dt.timedelta(days=3), held_on=today - dt.timedelta(days=3),
                           decision_due_on=today + dt.timedelta(days=27))  # fmt: skip
    Hearing.objects.create(case=case, kind="complaint", first_scheduled_on=today - dt.timedelta(days=20),
                           scheduled_on=today - dt.timedelta(days=20), held_on=today - dt.timedelta(days=20),
                           decided_on=today - dt.timedelta(days=2), outcome="Penalty")  # fmt: skip
    client.force_login(town.users[Role.HEARING_OFFICER])
    response = client.get("/enforcement/hearings/work-list/")
    context = response.context
    assert (
        len(context["upcoming"]) == 1
        and len(context["decisions_due"]) == 1
        and len(context["appeals_open"]) == 1
    )
    assert "Council Chambers" in response.content.decode() and "(P6)" in response.content.decode()


def _rows(town):
    def add(count):
        for _ in range(count):
            a_case(town, violations=[a_violation(town)])
            Hearing.objects.create(case=a_case(town), kind="complaint", first_scheduled_on=town_today(),
                                   scheduled_on=town_today())  # fmt: skip

    return add


# Pages: session, user, Town profile (today's date), the count and the page with what it shows joined;
# violations add the Town's time zone for the P3 count; the work list reads its three lists, the
# penalty orders waiting for a second approval, the rulesets once and the Town's calendar once. API: count and page (violations: the Town's today too).
def test_enforcement_lists_take_the_same_exact_queries_for_few_rows_and_many(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert_queries_do_not_grow(
        client,
        _rows(town),
        {"/enforcement/": 6, "/enforcement/violations/": 7, "/enforcement/hearings/work-list/": 10},
        grows=False,
    )
    assert_queries_do_not_grow(
        api_as(town.users[Role.FOG_MANAGER]),
        _rows(town),
        {"/api/v1/violations/": 4, "/api/v1/enforcement/cases/": 3},
    )


def test_the_fse_lists_take_the_same_exact_queries(town, client):
    client.force_login(town.users[Role.FSE])
    assert_queries_do_not_grow(client, _rows(town), {"/enforcement/": 6, "/enforcement/violations/": 7})


@pytest.mark.provision("P3")
def test_p3_staff_open_and_cure_a_violation_from_the_pages(town, client):
    client.force_login(town.users[Role.INSPECTOR])
    today = town_today()
    form = {"establishment": town.own_fse.pk, "provision": "k6", "kind": "discharge", "description": "Grease poured",
            "evidence": "Seen by the inspector", "began_on": (today - dt.timedelta(days=4)).isoformat()}  # fmt: skip
    refused = client.post("/enforcement/violations/new/", dict(form, evidence=" "))
    assert refused.status_code == 400 and "This field is required" in refused.content.decode()
    assert client.post("/enforcement/violations/new/", form).status_code == 302
    page = client.get("/enforcement/violations/?open=true").content.decode()
    assert "K6" in page and "5 calendar days" in page
    from fogcontrol.enforcement.models import Violation

    violation = Violation.objects.get(provision="K6")
    client.post(
        f"/enforcement/violations/{violation.pk}/cure/",
        {"cured_on": today.isoformat(), "evidence": "Cleaned"},
    )
    violation.refresh_from_db()
    assert violation.cured_on == today


@pytest.mark.provision("H3")
def test_h3_the_case_page_refuses_an_agreement_naming_the_amount_and_records_a_notice(town, client):
    case = a_case(town)
    client.force_login(town.users[Role.FOG_MANAGER])
    today = town_today()
    FeeCharge.objects.create(kind=FeeKind.RENEWAL, amount=Decimal("90.00"), fee_schedule=fee_schedule(),
                             establishment=town.own_fse, description="Renewal", assessed_on=dt.date(2026, 1, 5))  # fmt: skip
    answer = client.post(f"/enforcement/cases/{case.pk}/steps/compliance_agreement/", {
        "agreed_on": today.isoformat(), "signed_by": "Pat", "terms": "Fit screens",
        "milestones": f"{(today + dt.timedelta(days=20)).isoformat()} Screens fitted"}, follow=True)  # fmt: skip
    assert "$90.00" in answer.content.decode() and "H3" in answer.content.decode()
    answer = client.post(f"/enforcement/cases/{case.pk}/steps/notice_of_violation/", {
        "violations": [case.violations.get().pk], "required_action": "Fit screens", "issued_on": today.isoformat(),
        "correct_by": (today + dt.timedelta(days=10)).isoformat(), "service_method": "personal_delivery",
        "served_on": today.isoformat()}, follow=True)  # fmt: skip
    page = answer.content.decode()
    assert "Notice of violation recorded." in page and "Correction due" in page
    notice = case.notices_of_violation.get()
    assert f"/notices/documents/{notice.document_id}/pdf/" in page
