"""The sampling API (D5, D6, D7): recording a sample, its hand-offs, results as a JSON list and as
a CSV upload (all or none, 400 with every row's reason), limits, facilities and compliance charges;
an FSE reads its own, never another's (404), and writes nothing (403)."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.program.selectors import town_today
from fogcontrol.sampling.models import LabResult
from fogcontrol.sampling.tests.helpers import at, fog_limit, fog_row, sample_of, schedule_with_rates

pytestmark = pytest.mark.django_db
SAMPLES = "/api/v1/samples/"


@pytest.fixture
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.mark.provision("D5")
def test_d5_api_sample_custody_and_results_flow(town):
    inspector = town.users[Role.INSPECTOR]
    fog_limit(town.own_fse, town.users[Role.FOG_MANAGER])
    client = api_as(inspector)
    day = town_today() - dt.timedelta(days=2)
    created = client.post(
        SAMPLES,
        {
            "establishment": town.own_fse.pk, "device": town.own_device.pk, "kind": "composite",
            "sampled_at": at(day, 8).isoformat(), "sampled_by": "Ines Inspector",
            "sample_point": "Sample tee", "container": "1 L glass", "laboratory": "Bay Analytical",
        },
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.json()
    sample_id = created.json()["id"]
    handed = client.post(
        f"{SAMPLES}{sample_id}/custody/",
        {"released_by": "Ines Inspector", "received_by": "Bay Analytical", "at": at(day, 10).isoformat()},
        format="json",
    )
    assert handed.status_code == 201 and handed.json()["custody"][0]["sequence"] == 1
    backwards = client.post(
        f"{SAMPLES}{sample_id}/custody/",
        {"released_by": "Bay Analytical", "received_by": "Archive", "at": at(day, 9).isoformat()},
        format="json",
    )
    assert backwards.status_code == 400 and "before the last one" in backwards.json()["at"][0]
    results = client.post(f"{SAMPLES}{sample_id}/results/", [fog_row("150")], format="json")
    assert results.status_code == 201
    body = results.json()[0]
    assert body["outside"] is True and body["provision"] == "D5" and "D5" in body["judgement"]["provisions"]
    detail = client.get(f"{SAMPLES}{sample_id}/").json()
    assert detail["results"][0]["limit"] == "≤ 100 mg/L"
    assert Finding.objects.filter(source="sample", source_id=body["id"]).count() == 1


@pytest.mark.provision("D5")
def test_d5_api_results_are_all_or_none_with_each_rows_reason(town):
    inspector = town.users[Role.INSPECTOR]
    sample = sample_of(town.own_fse, inspector)
    response = api_as(inspector).post(
        f"{SAMPLES}{sample.pk}/results/", [fog_row("10"), fog_row("x"), fog_row("3", analysed_on="1999-01-01")],
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    reasons = response.json()["results"]
    assert reasons[0].startswith("Row 2: value") and reasons[1].startswith("Row 3: analysed_on")
    assert not LabResult.objects.exists()
    not_a_list = api_as(inspector).post(f"{SAMPLES}{sample.pk}/results/", fog_row("10"), format="json")
    assert not_a_list.status_code == 400 and "JSON list" in not_a_list.json()["results"][0]


@pytest.mark.provision("D5")
def test_d5_api_csv_upload_all_or_none(town, _media):
    inspector = town.users[Role.INSPECTOR]
    sample = sample_of(town.own_fse, inspector)
    day = (town_today() - dt.timedelta(days=1)).isoformat()
    url = f"{SAMPLES}{sample.pk}/results/upload/"
    head = "analyte,value,unit,method,analysed_on,reported_by\n"
    bad = SimpleUploadedFile(
        "r.csv", f"{head}fog,1,mg/L,EPA 1664B,{day},Lab\nfog,,mg/L,EPA,{day},Lab\n".encode()
    )
    refused = api_as(inspector).post(url, {"file": bad}, format="multipart")
    assert refused.status_code == 400 and refused.json()["file"][0].startswith("Row 2: value")
    good = SimpleUploadedFile(
        "r.csv", f"{head}fog,1,mg/L,EPA 1664B,{day},Lab\nph,7.1,s.u.,SM 4500,{day},Lab\n".encode()
    )
    answer = api_as(inspector).post(url, {"file": good}, format="multipart")
    assert answer.status_code == 201 and len(answer.json()["results"]) == 2
    assert answer.json()["report"]["url"] == f"/sampling/reports/{answer.json()['report']['id']}/"


@pytest.mark.provision("D5")
def test_d5_an_fse_reads_its_own_samples_and_never_anothers(town):
    inspector = town.users[Role.INSPECTOR]
    own, other = sample_of(town.own_fse, inspector), sample_of(town.other_fse, inspector)
    client = api_as(town.users[Role.FSE])
    assert [row["id"] for row in client.get(SAMPLES).json()["results"]] == [own.pk]
    assert client.get(f"{SAMPLES}{other.pk}/").status_code == 404
    assert client.post(f"{SAMPLES}{own.pk}/results/", [fog_row("1")], format="json").status_code == 403


@pytest.mark.provision("D7")
def test_d7_api_facility_with_its_due_date_and_working(town):
    manager = town.users[Role.FOG_MANAGER]
    response = api_as(manager).post(
        "/api/v1/monitoring-facilities/",
        {"establishment": town.own_fse.pk, "kind": "flow_monitoring", "description": "Flow meter",
         "location": "Vault", "required_on": "2026-01-05"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201
    assert (
        response.json()["due_on"] == "2026-04-06" and "D7" in response.json()["due_explanation"]["provisions"]
    )
    installed = api_as(town.users[Role.INSPECTOR]).post(
        f"/api/v1/monitoring-facilities/{response.json()['id']}/installed/",
        {"installed_on": "2026-03-01"},
        format="json",
    )
    assert installed.status_code == 200 and installed.json()["installed_on"] == "2026-03-01"


@pytest.mark.provision("D5")
def test_d5_api_limits_need_a_maximum_or_minimum(town):
    manager = town.users[Role.FOG_MANAGER]
    body = {
        "establishment": town.own_fse.pk,
        "analyte": "fog",
        "unit": "mg/L",
        "effective_from": "2026-01-01",
    }
    refused = api_as(manager).post("/api/v1/discharge-limits/", body, format="json")
    assert refused.status_code == 400 and "maximum" in refused.json()["max_value"][0]
    created = api_as(manager).post("/api/v1/discharge-limits/", {**body, "max_value": "100"}, format="json")
    assert created.status_code == 201 and created.json()["wording"] == "≤ 100 mg/L"


@pytest.mark.provision("D6")
def test_d6_api_records_and_lists_charges_and_the_fse_reads_its_own(town):
    schedule_with_rates()
    inspector = town.users[Role.INSPECTOR]
    created = api_as(inspector).post(
        "/api/v1/compliance-charges/",
        {"establishment": town.own_fse.pk, "kind": "sampling", "quantity": "2", "reason": "Over-limit FOG",
         "incurred_on": town_today().isoformat()},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201 and created.json()["amount"] == "120.00"
    assert created.json()["unit"] == "samples" and created.json()["status"] == "owed"
    fse = api_as(town.users[Role.FSE])
    assert [row["id"] for row in fse.get("/api/v1/compliance-charges/").json()["results"]] == [
        created.json()["id"]
    ]
    assert fse.post("/api/v1/compliance-charges/", {}, format="json").status_code == 403
    refused = api_as(inspector).post(
        f"/api/v1/compliance-charges/{created.json()['id']}/cancel/", {"reason": "x"}, format="json"
    )
    assert refused.status_code == 403  # only the FOG Manager cancels
    cancelled = api_as(town.users[Role.FOG_MANAGER]).post(
        f"/api/v1/compliance-charges/{created.json()['id']}/cancel/", {"reason": "Duplicate"}, format="json"
    )
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    again = api_as(town.users[Role.FOG_MANAGER]).post(
        f"/api/v1/compliance-charges/{created.json()['id']}/cancel/", {"reason": "Duplicate"}, format="json"
    )
    assert again.status_code == 409


@pytest.mark.provision("D6")
def test_d6_api_a_bad_quantity_is_a_400_naming_the_field(town):
    schedule_with_rates()
    response = api_as(town.users[Role.INSPECTOR]).post(
        "/api/v1/compliance-charges/",
        {"establishment": town.own_fse.pk, "kind": "staff_time", "quantity": "0", "reason": "x",
         "incurred_on": town_today().isoformat()},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400 and "quantity" in response.json()
