"""Issue 20, "Files": uploaded files and stored documents go through Django's STORAGES, so a Town
with several app servers keeps them in an S3-compatible object store (FOGCONTROL_STORAGE=s3). The
program works with a storage other than the file system: here Django's InMemoryStorage, for a
manifest's attachment stored and downloaded through its access-checked view, and an import file
uploaded through the page and read back by the importer; nothing lands in MEDIA_ROOT. Files are
never public (servicing/tests/test_file_downloads.py: nothing is served from MEDIA_URL)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import InMemoryStorage, default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.envconfig import FILE_SYSTEM_STORAGE, S3_STORAGE, check_storage_installed, file_storage
from fogcontrol.registry.imports.testing import HEADER, csv_upload
from fogcontrol.registry.models import LicenceImport
from fogcontrol.servicing.tests.helpers import days_ago, submit

TICKET = b"%PDF-1.4 a ticket kept in memory"


@pytest.fixture
def in_memory(settings, tmp_path):
    """Every file in Django's InMemoryStorage; MEDIA_ROOT an empty folder that must stay empty."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    assert isinstance(default_storage._setup() or default_storage._wrapped, InMemoryStorage)
    yield
    assert not (tmp_path / "media").exists() or not any((tmp_path / "media").rglob("*"))


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_manifest_ticket_round_trips_through_another_storage(town, in_memory):
    ticket = SimpleUploadedFile("ticket.pdf", TICKET, content_type="application/pdf")
    manifest = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(2), attachments=[ticket])
    attachment = manifest.attachments.get()
    assert isinstance(attachment.file.storage, InMemoryStorage)
    assert attachment.file.storage.exists(attachment.file.name)
    response = _client(town.users[Role.FSE]).get(
        f"/servicing/manifests/{manifest.pk}/attachments/{attachment.pk}/"
    )
    assert response.status_code == 200 and b"".join(response.streaming_content) == TICKET
    assert response["Content-Disposition"] == 'attachment; filename="ticket.pdf"'


@pytest.mark.django_db
def test_an_import_file_is_read_back_from_another_storage(
    town, in_memory, django_capture_on_commit_callbacks
):
    """The licence importer reads its upload through the storage, never by a path on disk."""
    clerk = _client(town.users[Role.FOG_MANAGER])
    table = [HEADER] + [
        [f"MEM-{i}", f"Memory Diner {i}", f"{i} Cloud St", "6/30/2027", "", ""] for i in range(3)
    ]
    response = clerk.post("/registry/imports/new/", {"file": csv_upload(table)})
    assert response.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        clerk.post(response["Location"], {"licence_number": "Licence No", "business_name": "Business Name",
                                          "site_address": "Site Address"})  # fmt: skip
    licence_import = LicenceImport.objects.latest("pk")
    assert isinstance(licence_import.file.storage, InMemoryStorage)
    assert licence_import.rows.filter(licence_number__startswith="MEM-").count() == 3


def test_the_file_system_is_the_default():
    assert file_storage({}) == {"BACKEND": FILE_SYSTEM_STORAGE}
    assert file_storage({"FOGCONTROL_STORAGE": "filesystem"})["BACKEND"] == FILE_SYSTEM_STORAGE


def test_an_s3_compatible_store_is_configured_from_the_environment():
    storage = file_storage({
        "FOGCONTROL_STORAGE": "s3", "FOGCONTROL_S3_BUCKET": "fog-files", "FOGCONTROL_S3_PREFIX": "/county/",
        "FOGCONTROL_S3_ENDPOINT_URL": "http://127.0.0.1:9000", "FOGCONTROL_S3_ADDRESSING_STYLE": "path",
    })  # fmt: skip
    assert storage["BACKEND"] == S3_STORAGE
    options = storage["OPTIONS"]
    assert options["bucket_name"] == "fog-files" and options["location"] == "county"
    assert options["endpoint_url"] == "http://127.0.0.1:9000" and options["addressing_style"] == "path"
    # Private objects, never overwritten: a file is reached only through the program's views.
    assert options["default_acl"] == "private" and options["file_overwrite"] is False
    assert "region_name" not in options


def test_an_s3_store_without_its_bucket_or_with_a_wrong_name_is_refused_by_name():
    with pytest.raises(ImproperlyConfigured, match="FOGCONTROL_S3_BUCKET"):
        file_storage({"FOGCONTROL_STORAGE": "s3"})
    with pytest.raises(ImproperlyConfigured, match="filesystem or s3"):
        file_storage({"FOGCONTROL_STORAGE": "ftp"})


def test_the_s3_backend_is_installed_with_the_extra():
    """The `s3` extra (django-storages, boto3) is in the lock; `make install` installs every extra."""
    check_storage_installed(file_storage({"FOGCONTROL_STORAGE": "s3", "FOGCONTROL_S3_BUCKET": "b"}))
    from storages.backends.s3 import S3Storage

    storage = S3Storage(**file_storage({"FOGCONTROL_STORAGE": "s3", "FOGCONTROL_S3_BUCKET": "b"})["OPTIONS"])
    assert storage.bucket_name == "b" and storage.default_acl == "private"
