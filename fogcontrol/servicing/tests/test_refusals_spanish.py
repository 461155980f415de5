"""A manifest the checks refuse is answered in the submitter's language (issue 18): beside the field
on the portal's form, in the API's answer, and on a CSV import's page, whose problems are stored as
the English of record and shown in the reader's language (servicing/refusals.py)."""

import datetime as dt
import re

import pytest
from django.utils import translation

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.refusals import REFUSALS, refusal, shown
from fogcontrol.servicing.tests.helpers import api_body
from fogcontrol.servicing.tests.test_imports import row as csv_row
from fogcontrol.servicing.tests.test_imports import run
from fogcontrol.servicing.tests.test_pages import portal_post
from fogcontrol.testing.spanish import in_spanish

pytestmark = pytest.mark.django_db


def described_by(page: str, error_id: str) -> bool:
    return re.search(rf'aria-describedby="[^"]*\b{re.escape(error_id)}\b', page) is not None


@pytest.mark.provision("F7")
def test_f7_a_number_the_hauler_already_filed_is_refused_in_spanish_beside_the_field(town):
    client = in_spanish(town.users[Role.HAULER])
    assert client.post("/servicing/manifests/new/", portal_post(town.own_device, manifest_number="P-77")).status_code == 302  # fmt: skip
    again = client.post("/servicing/manifests/new/", portal_post(town.own_device, manifest_number="P-77"))
    page = again.content.decode()
    error = re.search(r'<p class="field-error" id="(id_manifest_number_error)">([^<]*)</p>', page)
    assert error and described_by(page, error.group(1))
    assert "Peninsula Pumping ya presentó el manifiesto P-77" in error.group(2)
    assert "already submitted" not in page
    assert Manifest.objects.filter(manifest_number="P-77").count() == 1


@pytest.mark.provision("F1")
def test_f1_the_api_refuses_a_service_in_the_future_in_the_language_asked_for(town):
    client = api_as(town.users[Role.HAULER])
    future = (dt.datetime.now(dt.UTC) + dt.timedelta(days=2)).isoformat()
    body = api_body(town.own_device, serviced_at=future)
    answer = client.post("/api/v1/manifests/", body, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400
    assert answer.json()["serviced_at"] == [
        "La fecha del servicio está en el futuro; escriba el día y la hora en que se hizo el trabajo."
    ]
    english = client.post("/api/v1/manifests/", body, format="json")
    assert english.json()["serviced_at"][0].startswith("The date of service is in the future")
    assert not Manifest.objects.exists()


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_an_imports_problems_are_kept_in_english_and_shown_in_the_readers_language(town):
    hauler = town.users[Role.HAULER]
    client = in_spanish(hauler)
    with translation.override("es"):  # whoever runs it, the record is written in English
        record = run(hauler, [csv_row(town.own_device, "C-2"), csv_row(town.own_device, "C-2")])
    problem = record.problems.get()
    assert problem.message == (
        "Peninsula Pumping already submitted manifest C-2. To change it, submit a correction of that manifest."
    )
    page = client.get(f"/servicing/imports/{record.pk}/").content.decode()
    assert "Peninsula Pumping ya presentó el manifiesto C-2" in page
    assert "already submitted" not in page


def test_every_stored_refusal_reads_back_in_spanish_with_its_values():
    values = {name: f"V{index}" for index, name in enumerate("identifier text company served device names "
              "value name megabytes limit hauler number installed fog solids depth gallons plate capacity "
              "current version".split())}  # fmt: skip
    for code in REFUSALS:
        with translation.override("en"):
            english = refusal(code, **values)
        with translation.override("es"):
            spanish = refusal(code, **values)
            assert spanish != english, code
            assert shown(english) == spanish, code
    assert shown("Something a person wrote.") == "Something a person wrote."
