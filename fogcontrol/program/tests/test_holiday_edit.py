"""Counting days: a closed day is corrected in place (issue 18: holidays could only be removed and
re-added), on the page and through the API, audited, and a clash is named beside the date."""

import datetime as dt

import pytest
from django.test import Client
from rest_framework.test import APIClient

from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.core.roles import Role
from fogcontrol.program import services
from fogcontrol.program.models import Holiday


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def closure(town, manager, today):
    return services.holiday_add(
        acting_user=manager, date=dt.date(2026, 7, 10), name="Closure", kind="closure"
    )


@pytest.mark.provision("Counting days")
def test_the_fog_manager_edits_a_closed_day_on_its_page(town, manager, today, closure):
    page = client_as(manager).get("/program/holidays/?year=2026").content.decode()
    assert f'href="/program/holidays/{closure.pk}/edit/"' in page
    form = client_as(manager).get(f"/program/holidays/{closure.pk}/edit/").content.decode()
    assert 'value="2026-07-10"' in form and 'value="Closure"' in form
    response = client_as(manager).post(
        f"/program/holidays/{closure.pk}/edit/",
        {"date": "2026-07-24", "name": "9/80 Friday", "kind": "closure"},
    )
    assert response.status_code == 302
    closure.refresh_from_db()
    assert closure.date == dt.date(2026, 7, 24) and closure.name == "9/80 Friday"
    assert Holiday.objects.filter(date=dt.date(2026, 7, 10)).count() == 0
    assert [e.action for e in audit_entries_for(closure)][0] == "holiday.update"


@pytest.mark.provision("Counting days")
def test_moving_a_day_onto_another_closed_day_is_refused_beside_the_date_and_nothing_changes(
    town, manager, today, closure
):
    services.holiday_add(acting_user=manager, date=dt.date(2026, 7, 17), name="Other", kind="closure")
    response = client_as(manager).post(
        f"/program/holidays/{closure.pk}/edit/", {"date": "2026-07-17", "name": "Closure", "kind": "closure"}
    )
    assert response.status_code == 400
    assert "already on the calendar as Other" in response.content.decode()
    closure.refresh_from_db()
    assert closure.date == dt.date(2026, 7, 10)


def test_staff_other_than_the_fog_manager_cannot_edit_a_day(town, today, closure):
    response = client_as(town.users[Role.INSPECTOR]).post(
        f"/program/holidays/{closure.pk}/edit/", {"date": "2026-07-24", "name": "x", "kind": "closure"}
    )
    assert response.status_code == 403
    closure.refresh_from_db()
    assert closure.name == "Closure"


@pytest.mark.provision("Counting days")
def test_the_api_renames_a_day_with_patch(town, manager, today, closure):
    api = APIClient()
    api.force_authenticate(manager)
    response = api.patch(f"/api/v1/program/holidays/{closure.pk}/", {"name": "Furlough day"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Furlough day" and response.json()["date"] == "2026-07-10"
    bad = api.patch(f"/api/v1/program/holidays/{closure.pk}/", {"date": "1999-01-01"}, format="json")
    assert bad.status_code == 400 and "year" in str(bad.json()).lower()
