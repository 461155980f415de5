"""The permits services' refusals in the applicant's language (issue 18): an FSE reading Spanish
sees each refusal beside its field on the application's page, and the API answers in the language
asked for (Accept-Language). English stays word for word (the other tests)."""

import pytest

from conftest import api_as
from fogcontrol.permits.models import ApplicationStatus, PermitApplication
from fogcontrol.permits.tests.conftest import B3_ANSWERS
from fogcontrol.testing.spanish import field_error, in_spanish

pytestmark = pytest.mark.django_db

APPS = "/api/v1/permit-applications/"


def management():
    return {"fixtures-TOTAL_FORMS": "0", "fixtures-INITIAL_FORMS": "0",
            "fixtures-MIN_NUM_FORMS": "0", "fixtures-MAX_NUM_FORMS": "1000"}  # fmt: skip


@pytest.mark.provision("A4")
def test_a4_an_inlet_pipe_the_table_does_not_size_is_refused_in_spanish_beside_the_field(
    client, draft, fse_user
):
    form = {f"app-{k}": v for k, v in B3_ANSWERS.items()} | {"app-inlet_pipe_size_in": "7"} | management()
    refused = in_spanish(fse_user, client).post(f"/permits/applications/{draft.pk}/edit/", form)
    assert refused.status_code == 400
    message = field_error(refused.content.decode(), "app-inlet_pipe_size_in")
    assert message.startswith("La Tabla 703.2 del CPC no da un máximo para una tubería de 7 pulg")
    assert "gives no maximum" not in refused.content.decode()
    draft.refresh_from_db()
    assert draft.inlet_pipe_size_in is None


@pytest.mark.provision("B3")
def test_b3_a_missing_item_at_submission_is_named_in_spanish_beside_its_field(client, town, fse_user, fees):
    fse = in_spanish(fse_user, client)
    fse.post("/permits/applications/new/", {"establishment": town.own_fse.pk, "route": "full"})
    application = PermitApplication.objects.get()
    answers = {f"app-{k}": v for k, v in B3_ANSWERS.items() if k != "wastewater_volume_gpd"}
    response = fse.post(
        f"/permits/applications/{application.pk}/edit/", answers | management() | {"submit": "1"}
    )
    assert response.status_code == 400
    message = field_error(response.content.decode(), "app-wastewater_volume_gpd")
    assert message == (
        "B3 pide el dato «Volumen de aguas residuales (galones por día)»: complételo antes de presentar la solicitud."
    )
    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT


@pytest.mark.provision("A4")
def test_a4_the_api_refuses_an_inlet_pipe_in_the_language_asked_for(town, fse_user, fees):
    client = api_as(fse_user)
    created = client.post(APPS, {"establishment": town.own_fse.pk}, format="json")
    pk = created.json()["id"]
    refused = client.patch(
        f"{APPS}{pk}/", {"inlet_pipe_size_in": "3.5"}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert refused.status_code == 400
    assert refused.json()["inlet_pipe_size_in"] == [
        "La Tabla 703.2 del CPC no da un máximo para una tubería de 3.5 pulg: indique el tamaño de la "
        "tubería de entrada en pulgadas, uno de 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8."
    ]
