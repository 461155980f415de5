"""The licence import API: upload with a dry run, the report, apply, and who may do what."""

import json

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.registry.imports.testing import HEADER, csv_upload, xlsx_upload
from fogcontrol.registry.models import FoodServiceEstablishment, LicenceImport
from fogcontrol.testing.queries import assert_queries_do_not_grow, assert_same_exact_queries

pytestmark = pytest.mark.django_db
URL = "/api/v1/imports/licences/"


def _table(n: int) -> list[list]:
    return [HEADER] + [[f"TL-{i}", f"Diner {i}", f"{i} Main St", "6/30/2027", "", ""] for i in range(n)]


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """POST, then run what the request queued on commit (the import task) as a worker would, and
    answer with the response's body refreshed by a GET of the import, as a client polling does."""

    def send(user, url, data, format="multipart"):
        client = api_as(user)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, data, format=format)
        if response.status_code in (201, 202):
            assert response.json()["status"] == "queued"
            response.data = client.get(f"{URL}{response.json()['id']}/").json()
            response.json = lambda: response.data
        return response

    return send


def test_upload_runs_the_dry_run_and_answers_with_counts(town, post):
    manager = town.users[Role.FOG_MANAGER]
    response = post(manager, URL, {"file": csv_upload(_table(3))})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "checked" and body["report"] == "dry_run"
    assert body["counts"]["rows"] == 3 and body["counts"]["created"] == 3
    assert body["mapping"]["licence_number"] == "Licence No"
    assert not FoodServiceEstablishment.objects.filter(licence_number__startswith="TL-").exists()

    rows = api_as(manager).get(f"{URL}{body['id']}/rows/").json()
    assert rows["count"] == 3
    assert rows["results"][0]["outcome"] == "created" and rows["results"][0]["row_number"] == 2

    applied = post(manager, f"{URL}{body['id']}/apply/", {}, format="json")
    assert applied.status_code == 202
    assert applied.json()["status"] == "applied" and applied.json()["counts"]["created"] == 3
    assert FoodServiceEstablishment.objects.filter(licence_number__startswith="TL-").count() == 3

    again = post(manager, f"{URL}{body['id']}/apply/", {}, format="json")
    assert again.status_code == 409
    assert "already been applied" in again.json()["detail"]


def test_upload_with_a_mapping_and_dry_run_false_applies_at_once(town, post):
    table = [["Lic", "Trade", "Where"], ["A-1", "Noodle Bar", "5 Castro St"]]
    mapping = {"licence_number": "Lic", "business_name": "Trade", "site_address": "Where"}
    response = post(
        town.users[Role.FOG_MANAGER],
        URL,
        {"file": xlsx_upload(table), "mapping": json.dumps(mapping), "dry_run": "false"},
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "applied"
    assert FoodServiceEstablishment.objects.get(licence_number="A-1").business_name == "Noodle Bar"


def test_rows_filter_by_outcome(town, post):
    table = _table(2) + [
        ["", "No licence", "1 Main St", "", "", ""],
        ["BL-9", "Bad date", "2 Main St", "31/31/31", "", ""],
    ]
    body = post(town.users[Role.INSPECTOR], URL, {"file": csv_upload(table)}).json()
    rejected = api_as(town.users[Role.INSPECTOR]).get(f"{URL}{body['id']}/rows/?outcome=rejected").json()
    assert [row["row_number"] for row in rejected["results"]] == [4, 5]
    assert rejected["results"][0]["reasons"][0]["code"] == "licence_number_missing"
    bad = api_as(town.users[Role.INSPECTOR]).get(f"{URL}{body['id']}/rows/?outcome=sideways")
    assert bad.status_code == 400 and "outcome" in bad.json()


@pytest.mark.parametrize(
    "data, field",
    [
        ({}, "file"),
        ({"file": csv_upload(_table(1)), "mapping": "{not json"}, "mapping"),
        (
            {"file": csv_upload(_table(1)), "mapping": json.dumps({"business_name": "Business Name"})},
            "mapping",
        ),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_leaves_no_import(town, post, data, field):
    response = post(town.users[Role.FOG_MANAGER], URL, data)
    assert response.status_code == 400
    assert field in response.json()
    assert not LicenceImport.objects.exists()


def test_a_bad_file_is_a_400_on_the_file_field(town, post):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = post(
        town.users[Role.FOG_MANAGER], URL, {"file": SimpleUploadedFile("x.pdf", b"%PDF", "application/pdf")}
    )
    assert response.status_code == 400
    assert "CSV or XLSX" in response.json()["file"][0]


@pytest.mark.parametrize("role", [Role.FSE, Role.PROPERTY_OWNER, Role.HAULER])
def test_outside_users_find_nothing(town, post, role):
    manager_import = post(town.users[Role.FOG_MANAGER], URL, {"file": csv_upload(_table(1))}).json()
    user = town.users[role]
    assert api_as(user).get(URL).json()["count"] == 0
    assert api_as(user).get(f"{URL}{manager_import['id']}/").status_code == 404
    assert api_as(user).get(f"{URL}{manager_import['id']}/rows/").status_code == 404
    assert post(user, URL, {"file": csv_upload(_table(1))}).status_code == 404
    assert post(user, f"{URL}{manager_import['id']}/apply/", {}, format="json").status_code == 404
    assert LicenceImport.objects.count() == 1


@pytest.mark.parametrize(
    "role", [Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY]
)
def test_only_the_fog_manager_applies(town, post, role):
    body = post(town.users[Role.FOG_MANAGER], URL, {"file": csv_upload(_table(1))}).json()
    user = town.users[role]
    assert api_as(user).get(f"{URL}{body['id']}/").status_code == 200
    assert post(user, f"{URL}{body['id']}/apply/", {}, format="json").status_code == 403
    assert LicenceImport.objects.get().status == "checked"
    assert not FoodServiceEstablishment.objects.filter(licence_number="TL-0").exists()


@pytest.mark.parametrize("role", [Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY])
def test_staff_without_registry_rights_cannot_upload(town, post, role):
    assert post(town.users[role], URL, {"file": csv_upload(_table(1))}).status_code == 403
    assert not LicenceImport.objects.exists()


def test_anonymous_is_refused(town):
    from rest_framework.test import APIClient

    assert APIClient().get(URL).status_code in (401, 403)


def test_dry_run_again_with_a_new_mapping(town, post):
    manager = town.users[Role.FOG_MANAGER]
    body = post(manager, URL, {"file": csv_upload(_table(2))}).json()
    mapping = {"licence_number": "Licence No", "business_name": "Business Name"}
    response = post(manager, f"{URL}{body['id']}/dry-run/", {"mapping": mapping}, format="json")
    assert response.status_code == 202
    # Without the address, new establishments are refused: the report says so, row by row.
    assert response.json()["counts"]["rejected"] == 2
    assert response.json()["mapping"] == mapping


def test_lists_cost_the_same_queries_whatever_their_length(town, post):
    """The list of imports (2, then 6) and the report rows of one import (3, then 30)."""
    manager = town.users[Role.FOG_MANAGER]
    client = api_as(manager)
    imports = {3: [], 30: []}

    def add_imports(count):
        for _ in range(count):
            for size, made in imports.items():
                made.append(post(manager, URL, {"file": csv_upload(_table(size))}).json()["id"])

    # Town profile, count and page: the counts and mapping are columns of the import.
    assert_queries_do_not_grow(client, add_imports, {URL: 3}, small=1, large=3)
    # Town profile, the import the rows belong to, their count and page.
    few, many = assert_same_exact_queries(client, [f"{URL}{imports[n][-1]}/rows/" for n in (3, 30)], 4)
    assert len(few.json()["results"]) == 3 and len(many.json()["results"]) == 30


def test_the_schema_documents_the_import_endpoints(town):
    schema = api_as(town.users[Role.FOG_MANAGER]).get("/api/v1/schema/?format=json").json()
    assert "/api/v1/imports/licences/" in schema["paths"]
    assert "/api/v1/imports/licences/{id}/rows/" in schema["paths"]
