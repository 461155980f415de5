"""A waste-oil pickup the service refuses is answered in the FSE's language (issue 18): beside the
field on the records page, and in the API's answer in the language asked for (Accept-Language).
So is why a submission can no longer be corrected, on its page (F4)."""

import datetime as dt

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.records import services
from fogcontrol.records.models import OilPickup
from fogcontrol.records.tests.helpers import bmp_report_submitted, pdf_upload
from fogcontrol.testing.spanish import field_error, in_spanish

pytestmark = pytest.mark.django_db

FUTURE = "Esta fecha está en el futuro: registre una recolección que ya ocurrió."


@pytest.mark.provision("C2")
def test_c2_a_pickup_dated_in_the_future_is_refused_in_spanish_beside_the_field(town):
    later = town_today() + dt.timedelta(days=3)
    answer = in_spanish(town.users[Role.FSE]).post(
        f"/records/establishments/{town.own_fse.pk}/pickups/",
        {"picked_up_on": later.isoformat(), "gallons": "40", "hauler": town.hauler.pk},
    )
    assert answer.status_code == 400
    assert field_error(answer.content.decode(), "picked_up_on") == FUTURE
    assert not OilPickup.objects.exists()


@pytest.mark.provision("C2")
def test_c2_the_api_refuses_a_pickup_in_the_future_in_the_language_asked_for(town):
    later = town_today() + dt.timedelta(days=3)
    answer = api_as(town.users[Role.FSE]).post(
        "/api/v1/oil-pickups/",
        {"establishment": town.own_fse.pk, "picked_up_on": later.isoformat(), "gallons": "40",
         "hauler": town.hauler.pk},
        format="json", HTTP_ACCEPT_LANGUAGE="es",
    )  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["picked_up_on"] == [FUTURE]


@pytest.mark.provision("F4")
def test_f4_a_submission_already_corrected_says_why_in_spanish_on_its_page(town):
    manager, fse, original = bmp_report_submitted(town)
    services.submission_review(
        submission=original, outcome="needs_correction", reason="Borrosa", acting_user=manager
    )
    services.submission_correct(original=original, uploaded_file=pdf_upload(), acting_user=fse)

    page = in_spanish(fse).get(f"/records/submissions/{original.pk}/").content.decode()
    assert "Esta presentación ya fue corregida; corrija la más reciente." in page
    assert "already corrected" not in page
