"""The sampling pages (D5, D6, D7): a sample taken from an inspection's page, its hand-offs and
results on its page (a result outside its limit shown with its provision), a CSV refused with
every row's reason, limits and facilities; the FSE reads its own, without a form."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.inspections.tests.helpers import scheduled
from fogcontrol.program.selectors import town_today
from fogcontrol.sampling.models import LabResult, Sample
from fogcontrol.sampling.services import results_record
from fogcontrol.sampling.tests.helpers import fog_limit, fog_row, sample_of, schedule_with_rates

pytestmark = pytest.mark.django_db


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.provision("D5")
def test_d5_a_sample_is_taken_from_the_inspection_page(town):
    inspector = town.users[Role.INSPECTOR]
    visit = scheduled(town.own_fse, inspector)
    client = client_as(inspector)
    page = client.get(f"/inspections/{visit.pk}/").content.decode()
    assert f'href="/sampling/new/?inspection={visit.pk}"' in page
    form = client.get(f"/sampling/new/?inspection={visit.pk}").content.decode()
    assert "Blue Plate Diner" in form and "Golden Wok" not in form
    when = (town_today() - dt.timedelta(days=1)).isoformat() + "T10:30"
    response = client.post(
        "/sampling/new/",
        {
            "establishment": town.own_fse.pk, "inspection": visit.pk, "kind": "grab", "sampled_at": when,
            "sampled_by": "Ines Inspector", "sample_point": "Sample tee", "container": "1 L glass",
            "laboratory": "Bay Analytical",
        },
    )  # fmt: skip
    sample = Sample.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sampling/{sample.pk}/"
    assert sample.inspection == visit and sample.sampled_at.tzinfo is not None


@pytest.mark.provision("D5")
def test_d5_a_bad_sample_form_names_the_field(town):
    response = client_as(town.users[Role.INSPECTOR]).post(
        "/sampling/new/", {"establishment": town.own_fse.pk, "kind": "grab", "sampled_at": "yesterday"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert 'id="id_sampled_at_error"' in body and 'id="id_laboratory_error"' in body


@pytest.mark.provision("D5")
def test_d5_the_sample_page_shows_the_custody_timeline_and_the_result_over_its_limit(town):
    inspector = town.users[Role.INSPECTOR]
    fog_limit(town.own_fse, town.users[Role.FOG_MANAGER])
    sample = sample_of(town.own_fse, inspector)
    client = client_as(inspector)
    day = sample.sampled_at.date().isoformat()
    handed = client.post(
        f"/sampling/{sample.pk}/custody/",
        {
            "released_by": "Ines Inspector",
            "received_by": "Bay Analytical",
            "at": f"{day}T12:00",
            "seal_intact": "on",
        },
    )
    assert handed.status_code == 302
    refused = client.post(
        f"/sampling/{sample.pk}/custody/",
        {"released_by": "Bay Analytical", "received_by": "Archive", "at": f"{day}T11:00"},
    )
    assert refused.status_code == 400 and "cannot come before the last one" in refused.content.decode()
    result = client.post(f"/sampling/{sample.pk}/results/", fog_row("180"))
    assert result.status_code == 302
    body = client.get(f"/sampling/{sample.pk}/").content.decode()
    assert "Ines Inspector → Bay Analytical" in body
    assert 'class="over"' in body and "<strong>D5</strong>" in body and "≤ 100 mg/L" in body


@pytest.mark.provision("D5")
def test_d5_a_csv_with_bad_rows_is_refused_on_the_page_with_every_reason(town, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    inspector = town.users[Role.INSPECTOR]
    sample = sample_of(town.own_fse, inspector)
    day = (town_today() - dt.timedelta(days=1)).isoformat()
    csv = f"analyte,value,unit,method,analysed_on,reported_by\nfog,abc,mg/L,EPA,{day},Lab\nfog,2,gallons,EPA,{day},Lab\n"
    response = client_as(inspector).post(
        f"/sampling/{sample.pk}/results/upload/", {"file": SimpleUploadedFile("r.csv", csv.encode())}
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert (
        "Row 1: value &#x27;abc&#x27; is not a number" in body and "Row 2: unit &#x27;gallons&#x27;" in body
    )
    assert not LabResult.objects.exists()


@pytest.mark.provision("D5")
def test_d5_the_fse_reads_its_sample_without_any_form_and_not_anothers(town):
    inspector = town.users[Role.INSPECTOR]
    own, other = sample_of(town.own_fse, inspector), sample_of(town.other_fse, inspector)
    results_record(sample=own, rows=[fog_row("12")], acting_user=inspector)
    client = client_as(town.users[Role.FSE])
    body = client.get(f"/sampling/{own.pk}/").content.decode()
    assert "Bay Analytical" in body and "Record a hand-off" not in body and "Enter a result" not in body
    assert client.get(f"/sampling/{other.pk}/").status_code == 404
    listing = client.get("/sampling/").content.decode()
    assert f"/sampling/{own.pk}/" in listing and f"/sampling/{other.pk}/" not in listing


@pytest.mark.provision("D7")
def test_d7_the_facilities_page_shows_the_overdue_one(town):
    manager = town.users[Role.FOG_MANAGER]
    client = client_as(manager)
    required = (town_today() - dt.timedelta(days=200)).isoformat()
    response = client.post(
        "/sampling/facilities/",
        {"establishment": town.own_fse.pk, "kind": "sampling", "description": "Sample box",
         "location": "Rear lot", "required_on": required},
    )  # fmt: skip
    assert response.status_code == 302
    body = client.get("/sampling/facilities/").content.decode()
    assert "overdue (D7)" in body and "Rear lot" in body


@pytest.mark.provision("D5")
def test_d5_the_limits_page_records_a_permit_condition(town):
    client = client_as(town.users[Role.FOG_MANAGER])
    response = client.post(
        "/sampling/limits/",
        {"establishment": town.own_fse.pk, "analyte": "fog", "max_value": "100", "unit": "mg/L",
         "effective_from": "2026-01-01", "provision": "D5", "condition": "FOG ≤ 100 mg/L"},
    )  # fmt: skip
    assert response.status_code == 302
    assert "≤ 100 mg/L" in client.get("/sampling/limits/").content.decode()
    refused = client.post("/sampling/limits/", {"establishment": town.own_fse.pk, "analyte": "fog", "unit": "mg/L",
                                                 "effective_from": "2026-02-01", "provision": "D5"})  # fmt: skip
    assert refused.status_code == 400 and "Give the maximum" in refused.content.decode()


@pytest.mark.provision("D6")
def test_d6_charges_pages_record_and_the_fse_reads_its_own(town):
    schedule_with_rates()
    inspector = town.users[Role.INSPECTOR]
    client = client_as(inspector)
    response = client.post(
        "/inspections/charges/new/",
        {"establishment": town.own_fse.pk, "kind": "staff_time", "quantity": "1.5",
         "incurred_on": town_today().isoformat(), "reason": "Review of the spill report"},
    )  # fmt: skip
    assert response.status_code == 302
    sample = sample_of(town.own_fse, inspector)
    charged = client.post(
        f"/sampling/{sample.pk}/charges/",
        {
            "kind": "lab_analysis",
            "quantity": "2",
            "incurred_on": town_today().isoformat(),
            "reason": "FOG tests",
        },
    )
    assert charged.status_code == 302
    body = client_as(town.users[Role.FSE]).get("/inspections/charges/").content.decode()
    assert "$112.50" in body and "$85.00" in body and "Record a charge" not in body
    assert "Review of the spill report" in body
    other = client_as(town.users[Role.FSE]).get(f"/inspections/charges/?establishment={town.other_fse.pk}")
    assert other.status_code in (200, 400) and "$112.50" not in other.content.decode()


@pytest.mark.provision("D6")
def test_d6_a_charge_without_a_rate_is_refused_beside_the_field(town):
    response = client_as(town.users[Role.INSPECTOR]).post(
        "/inspections/charges/new/",
        {"establishment": town.own_fse.pk, "kind": "sampling", "quantity": "1",
         "incurred_on": town_today().isoformat(), "reason": "x"},
    )  # fmt: skip
    assert response.status_code == 400 and "No rate is set" in response.content.decode()


@pytest.mark.provision("D6")
def test_d6_a_charge_naming_an_unknown_inspection_is_refused_beside_the_field(town):
    schedule_with_rates()
    response = client_as(town.users[Role.INSPECTOR]).post(
        "/inspections/charges/new/",
        {"establishment": town.own_fse.pk, "kind": "sampling", "quantity": "1", "inspection": 999999,
         "incurred_on": town_today().isoformat(), "reason": "x"},
    )  # fmt: skip
    assert response.status_code == 400 and "No inspection with this id" in response.content.decode()
