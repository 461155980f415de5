"""Issue 15, finding 5: uploads are never public; each goes out through an access-checked view."""

import csv
import importlib
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import clear_url_caches

import fogcontrol.urls
from fogcontrol.core.roles import Role
from fogcontrol.servicing.imports import COLUMNS, manifest_import_create, manifest_import_run
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories

TICKET = b"%PDF-1.4 scanned ticket"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def stranger(town):
    """An FSE user of another establishment."""
    user = factories.UserFactory(username="golden-wok", role=Role.FSE)
    town.other_fse.users.add(user)
    return user


def _manifest_with_ticket(town, name="ticket.pdf"):
    ticket = SimpleUploadedFile(name, TICKET, content_type="application/pdf")
    return submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(2), attachments=[ticket])


@pytest.fixture
def debug_urls(settings):
    """The project's routes as `make run` (DEBUG) builds them."""
    settings.DEBUG = True
    importlib.reload(fogcontrol.urls)
    clear_url_caches()
    yield
    settings.DEBUG = False
    importlib.reload(fogcontrol.urls)
    clear_url_caches()


def test_nothing_is_served_from_media_not_even_under_debug(town, debug_urls):
    manifest = _manifest_with_ticket(town)
    stored = manifest.attachments.get().file.name
    for path in (f"/media/{stored}", "/media/servicing/import-reports/import-1-report.csv", "/media/"):
        assert Client().get(path).status_code == 404
        assert _client(town.users[Role.FOG_MANAGER]).get(path).status_code == 404


def test_the_owner_downloads_a_manifest_attachment_linked_from_its_page(town):
    manifest = _manifest_with_ticket(town)
    attachment = manifest.attachments.get()
    url = f"/servicing/manifests/{manifest.pk}/attachments/{attachment.pk}/"
    fse = _client(town.users[Role.FSE])
    assert f'href="{url}"' in fse.get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    response = fse.get(url)
    assert response.status_code == 200 and b"".join(response.streaming_content) == TICKET
    assert response["Content-Disposition"] == 'attachment; filename="ticket.pdf"'
    assert response["X-Content-Type-Options"] == "nosniff"


def test_another_establishments_user_gets_404_for_an_attachment(town, stranger):
    manifest = _manifest_with_ticket(town)
    url = f"/servicing/manifests/{manifest.pk}/attachments/{manifest.attachments.get().pk}/"
    assert _client(stranger).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # anonymous: to the login page


def test_two_attachments_of_the_same_name_get_different_random_names(town):
    first = _manifest_with_ticket(town).attachments.get().file.name
    second = _manifest_with_ticket(town).attachments.get().file.name
    assert first != second
    assert "ticket" not in first and "ticket" not in second and first.endswith(".pdf")


def _import(user):
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=[name for name, _, _ in COLUMNS]).writeheader()
    upload = SimpleUploadedFile("manifests.csv", out.getvalue().encode(), content_type="text/csv")
    record = manifest_import_create(acting_user=user, upload=upload, dry_run=True)
    return manifest_import_run(import_id=record.pk)


def test_an_import_report_has_a_random_name_and_goes_only_to_its_uploader_and_staff(town, stranger):
    hauler = town.users[Role.HAULER]
    first, second = _import(hauler), _import(hauler)
    assert first.file.name != second.file.name and first.report.name != second.report.name
    assert f"import-{first.pk}" not in first.report.name
    url = f"/servicing/imports/{first.pk}/report.csv"
    response = _client(hauler).get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="import-{first.pk}-report.csv"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert _client(stranger).get(url).status_code == 404
