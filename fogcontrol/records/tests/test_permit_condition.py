"""A reporting requirement set as a permit condition (C5, F3: "set per FSE or as a permit
condition"): the permit's page and PDF list it; lifting the requirement ends the condition."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import PermitCondition
from fogcontrol.permits.pdf import permit_pdf
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.records import services
from fogcontrol.records.tests.helpers import days_ago
from fogcontrol.records.tests.test_pdf import text_of


@pytest.fixture
def permit(town):
    return PermitFactory(establishment=town.own_fse, term_start=days_ago(60), valid_until=days_ago(-300))


def _page(user, permit) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/permits/{permit.pk}/").content.decode()


@pytest.mark.provision("F3")
def test_f3_a_requirement_set_as_a_permit_condition_is_listed_on_the_permit_until_it_is_lifted(town, permit):
    manager = town.users[Role.FOG_MANAGER]
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="self_monitoring", unit="months", every=1, first_due_on=days_ago(-20),
        description="Sample the outlet monthly.", permit_condition=True, acting_user=manager,
    )  # fmt: skip
    condition = PermitCondition.objects.get(permit=permit)
    assert condition.source == "records" and condition.source_id == requirement.pk
    assert condition.provision == "F3" and condition.started_on == days_ago(0)
    assert "Self-monitoring report (F3)" in condition.text and "Sample the outlet monthly." in condition.text
    assert AuditEntry.objects.filter(action="permit_condition.attach").count() == 1
    page = _page(town.users[Role.FSE], permit)
    assert "Conditions set by the FOG Manager" in page and "Sample the outlet monthly." in page
    pdf = text_of(permit_pdf(permit.versions.get()))
    assert "Conditions set by the FOG Manager" in pdf and "Self-monitoring report (F3)" in pdf

    services.requirement_end(requirement=requirement, ends_on=days_ago(0), acting_user=manager)
    condition.refresh_from_db()
    assert condition.ended_on == days_ago(0)
    assert "Conditions set by the FOG Manager" not in _page(town.users[Role.FSE], permit)
    # The version's PDF still shows that the condition applied, and until when.
    assert "ended" in text_of(permit_pdf(permit.versions.get()))


@pytest.mark.provision("C5")
def test_c5_a_requirement_set_per_fse_puts_nothing_on_the_permit(town, permit):
    services.requirement_set(
        establishment=town.own_fse, kind="bmp_status", unit="months", every=3, first_due_on=days_ago(-20),
        acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    assert not PermitCondition.objects.exists()
    assert "Conditions set by the FOG Manager" not in _page(town.users[Role.FSE], permit)


@pytest.mark.provision("C5")
def test_c5_a_permit_condition_needs_a_permit_in_force(town):
    with pytest.raises(ValidationError) as error:
        services.requirement_set(
            establishment=town.other_fse, kind="bmp_status", unit="months", every=3, first_due_on=days_ago(-20),
            permit_condition=True, acting_user=town.users[Role.FOG_MANAGER],
        )  # fmt: skip
    assert "no permit in force" in str(error.value.message_dict["permit_condition"])


@pytest.mark.provision("C5")
def test_c5_the_manager_sets_a_permit_condition_from_the_records_page_and_the_api(town, permit):
    client = Client()
    client.force_login(town.users[Role.FOG_MANAGER])
    response = client.post(
        f"/records/establishments/{town.own_fse.pk}/requirements/",
        {"kind": "bmp_status", "unit": "months", "every": "3", "first_due_on": days_ago(-20).isoformat(),
         "permit_condition": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    assert PermitCondition.objects.filter(permit=permit, provision="C5").count() == 1
    created = api_as(town.users[Role.FOG_MANAGER]).post(
        "/api/v1/record-requirements/",
        {"establishment": town.own_fse.pk, "kind": "cctv", "unit": "once", "first_due_on": days_ago(-30).isoformat(),
         "permit_condition": True},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201 and created.json()["permit_condition"] is True
    assert PermitCondition.objects.filter(permit=permit, provision="F2").count() == 1
