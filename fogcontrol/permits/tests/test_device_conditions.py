"""A4, A5: a permit for a device flagged under A4 (too few compartments, a small manhole) or smaller
than the CPC size is issued only with a condition and a compliance date, and the permit states it."""

import datetime as dt
import html

import pytest
from django.core.exceptions import ValidationError

from conftest import api_as
from fogcontrol.permits import services
from fogcontrol.permits.models import Permit
from fogcontrol.permits.pdf import permit_pdf
from fogcontrol.permits.tests.test_pdf import text_of
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.services import device_update

CONDITION = "Replace the interceptor with a two-compartment unit with 24 in manholes, as approved by the Building Official."


def page_text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.fixture
def a4_flagged(accepted, town, manager):
    """The establishment's interceptor has one compartment and an 18 in manhole (A4)."""
    device_update(device=town.own_device, acting_user=manager, compartments=1, manhole_diameter_in=18)
    return accepted


@pytest.mark.provision("A4")
def test_a4_issue_for_a_flagged_device_without_a_condition_is_refused(a4_flagged, manager):
    with pytest.raises(ValidationError) as error:
        services.permit_issue(application=a4_flagged, acting_user=manager)
    assert "A4: 1 compartment(s)" in error.value.message_dict["device_condition"][0]
    assert "device_compliance_date" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.permit_issue(application=a4_flagged, acting_user=manager, device_condition=CONDITION,
                              device_compliance_date=town_today())  # fmt: skip
    assert "after the day of issue" in error.value.message_dict["device_compliance_date"][0]
    assert not Permit.objects.exists()


@pytest.mark.provision("A4")
def test_a4_with_a_condition_and_compliance_date_the_permit_and_its_pdf_state_them(
    a4_flagged, manager, client
):
    due = town_today() + dt.timedelta(days=180)
    permit = services.permit_issue(
        application=a4_flagged, acting_user=manager, device_condition=CONDITION, device_compliance_date=due
    )
    version = permit.versions.get()
    assert version.device_condition == CONDITION and version.device_compliance_date == due
    assert any("A4: access manhole 18" in finding for finding in version.device_findings)
    text = text_of(permit_pdf(version))
    assert "Condition on the grease control device (A4, A5)" in text
    assert "Replace the interceptor with a two-compartment unit" in text
    assert f"Compliance date: {due:%B} {due.day}, {due.year}" in text
    client.force_login(manager)
    page = page_text(client.get(f"/permits/{permit.pk}/"))
    assert "Condition on the device (A4, A5)" in page and f"Comply by {due:%B} {due.day}, {due.year}" in page


@pytest.mark.provision("A5")
def test_a5_an_undersized_device_needs_a_condition_too(accepted, manager):
    with pytest.raises(ValidationError) as error:
        services.permit_issue(application=accepted, acting_user=manager, device_capacity_gallons=300)
    assert "smaller than the CPC size of 500 gallons" in error.value.message_dict["device_condition"][0]
    permit = services.permit_issue(
        application=accepted, acting_user=manager, device_capacity_gallons=300,
        device_condition="Install a 500 gallon interceptor (A4, A5).",
        device_compliance_date=town_today() + dt.timedelta(days=90),
    )  # fmt: skip
    assert permit.versions.get().device_condition == "Install a 500 gallon interceptor (A4, A5)."


@pytest.mark.provision("A4")
def test_a4_the_api_refuses_without_the_condition_400_naming_the_field(a4_flagged, manager):
    url = f"/api/v1/permit-applications/{a4_flagged.pk}/issue/"
    response = api_as(manager).post(url, {}, format="json")
    assert response.status_code == 400
    assert "device_condition" in response.json() and "device_compliance_date" in response.json()
    due = town_today() + dt.timedelta(days=120)
    response = api_as(manager).post(
        url, {"device_condition": CONDITION, "device_compliance_date": str(due)}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["versions"][0]["device_compliance_date"] == str(due)


@pytest.mark.provision("A4")
def test_a4_the_issue_form_asks_for_the_condition_when_the_device_is_flagged(a4_flagged, manager, client):
    client.force_login(manager)
    page = page_text(client.get(f"/permits/applications/{a4_flagged.pk}/"))
    assert (
        "Condition on the device (A4, A5) *" in page
        and "The sizing check found: A4: 1 compartment(s)" in page
    )
    form = {"issue-device_kind": "gravity_interceptor", "issue-device_capacity_gallons": "1000",
            "issue-service_frequency_days": "90"}  # fmt: skip
    refused = client.post(f"/permits/applications/{a4_flagged.pk}/issue/", form)
    assert refused.status_code == 400 and not Permit.objects.exists()
    due = town_today() + dt.timedelta(days=180)
    form |= {"issue-device_condition": CONDITION, "issue-device_compliance_date": str(due)}
    assert client.post(f"/permits/applications/{a4_flagged.pk}/issue/", form).status_code == 302
    assert Permit.objects.get().versions.get().device_compliance_date == due
