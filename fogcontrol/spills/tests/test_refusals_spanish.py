"""A spill report the service refuses is answered in the FSE's language (issue 18): beside the field
on the portal's page, and in the API's answer in the language asked for (Accept-Language)."""

import datetime as dt

import pytest
from django.urls import reverse

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.spills.models import SpillReport
from fogcontrol.testing.spanish import field_error, in_spanish

pytestmark = pytest.mark.django_db


@pytest.mark.provision("J1")
def test_j1_a_spill_reported_in_the_future_is_refused_in_spanish_beside_the_field(town):
    tomorrow = town_today() + dt.timedelta(days=2)
    answer = in_spanish(town.users[Role.FSE]).post(reverse("spills:report_new"), {
        "establishment": town.own_fse.pk, "occurred_at": f"{tomorrow:%Y-%m-%d}T10:00", "location": "Yard",
        "what": "Grease bin spilled",
    })  # fmt: skip
    assert answer.status_code == 400
    assert (
        field_error(answer.content.decode(), "occurred_at")
        == "Un derrame que se reporta no puede estar en el futuro."
    )
    assert not SpillReport.objects.exists()


@pytest.mark.provision("J1")
def test_j1_the_api_refuses_a_spill_in_the_future_in_the_language_asked_for(town):
    tomorrow = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    answer = api_as(town.users[Role.FSE]).post("/api/v1/spill-reports/", {
        "establishment": town.own_fse.pk, "occurred_at": tomorrow.isoformat(), "location": "Yard", "what": "Bin",
    }, format="json", HTTP_ACCEPT_LANGUAGE="es")  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["occurred_at"] == ["Un derrame que se reporta no puede estar en el futuro."]
