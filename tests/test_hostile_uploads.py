"""Issue 15, "Tests that stay": every hostile file to every upload endpoint of the product, pages
and API alike.

The rule: a hostile file is refused with a 4xx (the API: 400 naming the field; a page: 400 with its
form shown again and the message beside the field or above it), never a 5xx, within 10 s each
(the issue's bound), and nothing it carried is left in the media folder. For each endpoint a good
file (a small PDF or PNG) is sent first with the same body and must be accepted, so a refusal is
the file's and not a missing field's. The corpus is fogcontrol/testing/hostile_files.py; the
figures are in docs/security.md ("Hostile uploads").
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from fogcontrol.core.roles import Role
from fogcontrol.inspections.tests.helpers import photo_bytes, scheduled
from fogcontrol.permits import services as permit_services
from fogcontrol.records import services as record_services
from fogcontrol.records.tests.helpers import PDF, days_ago
from fogcontrol.registry.imports.testing import HEADER, XLSX_TYPE, csv_bytes
from fogcontrol.sampling.tests.helpers import sample_of
from fogcontrol.servicing.tests.helpers import api_body
from fogcontrol.spills.tests.helpers import fog_spill
from fogcontrol.testing import hostile_files
from fogcontrol.testing.auth import force_login_verified

pytestmark = pytest.mark.django_db
REQUEST_SECONDS = 10
PNG = photo_bytes(fmt="PNG")


@pytest.fixture(scope="module")
def corpus() -> dict[str, tuple[str, bytes, str]]:
    """name -> (file name, bytes, declared content type): built once (a few seconds)."""
    xlsx = {
        "shared strings bomb (400 MB)": hostile_files.shared_strings_bomb(400),
        "five million rows": hostile_files.endless_sheet(5_000_000),
        "compressed 400 times": hostile_files.compressed_too_well(40),
        "declares five million rows": hostile_files.sheet_declaring("A1:C5000000"),
        "declares 16,384 columns": hostile_files.sheet_declaring("A1:XFD2"),
        "rows jump to 1,048,576": hostile_files.sheet_with_a_row_gap(),
        "zip, not a workbook": hostile_files.zip_not_a_workbook(),
    }
    files = {name: ("hostile.xlsx", data, XLSX_TYPE) for name, data in xlsx.items()}
    files.update(
        {
            "random bytes named .csv": ("upload.csv", hostile_files.garbage(), "text/csv"),
            "a 2 MB first line": ("upload.csv", hostile_files.csv_with_a_huge_first_line(), "text/csv"),
            "1,002 columns": ("upload.csv", hostile_files.csv_with_columns(1000), "text/csv"),
            "UTF-16 text": ("upload.csv", hostile_files.utf16_text(), "text/csv"),
            "empty file": ("upload.pdf", b"", "application/pdf"),
            "HTML named .pdf": ("report.pdf", hostile_files.html_named_pdf(), "application/pdf"),
            "PNG of 1.6 billion pixels": ("photo.png", hostile_files.png_bomb(), "image/png"),
            "truncated JPEG": ("photo.jpg", hostile_files.truncated_jpeg(), "image/jpeg"),
            "random bytes named .jpg": ("photo.jpg", hostile_files.garbage(seed=7), "image/jpeg"),
        }
    )
    return files


@dataclasses.dataclass
class Endpoint:
    """One upload: as whom, where, the rest of the body, the file's field; `good` is a file the
    endpoint accepts (None: an import, whose good files its own tests cover)."""

    name: str
    role: Role
    setup: Callable  # town -> (url, body without the file)
    field: str = "file"
    api: bool = False
    good: tuple[str, bytes, str] | None = ("good.pdf", PDF, "application/pdf")
    accepted: tuple = (200, 201, 302)


def _draft_application(town):
    """One draft per establishment may be in progress: the same one for every file."""
    if "draft" not in town.records:
        town.records["draft"] = permit_services.application_create(
            acting_user=town.users[Role.FSE], establishment=town.own_fse, route="in_lieu"
        )
    return town.records["draft"]


def _requirement(town):
    return record_services.requirement_set(
        establishment=town.own_fse, kind="self_monitoring", unit="months", every=1,
        first_due_on=days_ago(10), requested_on=days_ago(40), acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip


def _reviewed_submission(town):
    requirement = _requirement(town)
    submission = record_services.submission_submit(
        requirement=requirement,
        uploaded_file=SimpleUploadedFile("june.pdf", PDF),
        acting_user=town.users[Role.FSE],
    )
    record_services.submission_review(
        submission=submission, outcome="needs_correction", reason="Unsigned",
        acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    return submission


def _training(town):
    return {"held_on": str(days_ago(1)), "trainer": "Ana", "language": "en",
            "subjects": ["dry_wipe", "food_waste", "absorbents", "waste_oil"]}  # fmt: skip


PNG_GOOD = ("good.png", PNG, "image/png")
CSV_GOOD = ("good.csv", csv_bytes([list(HEADER), ["BL-1", "Diner", "1 Main St"]]), "text/csv")

ENDPOINTS = [
    # registry: the licence import (A4)
    Endpoint(
        "licence import page", Role.FOG_MANAGER, lambda t: ("/registry/imports/new/", {}), good=CSV_GOOD
    ),
    Endpoint(
        "licence import API",
        Role.FOG_MANAGER,
        lambda t: ("/api/v1/imports/licences/", {}),
        api=True,
        good=CSV_GOOD,
    ),  # fmt: skip
    # servicing: the manifest CSV import, and a manifest's attachments (F1)
    Endpoint(
        "manifest import page",
        Role.FOG_MANAGER,
        lambda t: ("/servicing/imports/", {"dry_run": "on"}),
        good=None,
    ),  # fmt: skip
    Endpoint(
        "manifest import API",
        Role.FOG_MANAGER,
        lambda t: ("/api/v1/manifest-imports/", {"dry_run": "true"}),
        api=True,
        good=None,
    ),  # fmt: skip
    Endpoint(
        "manifest attachments API",
        Role.HAULER,
        lambda t: ("/api/v1/manifests/", api_body(t.own_device)),
        field="attachments",
        api=True,
    ),  # fmt: skip
    # records: training sheets, receipts, record submissions and their corrections (C2, C4, F3)
    Endpoint(
        "training sheet page",
        Role.FSE,
        lambda t: (f"/records/establishments/{t.own_fse.pk}/training/", _training(t)),
        field="signed_sheet",
    ),
    Endpoint(
        "training sheet API",
        Role.FSE,
        lambda t: ("/api/v1/training-sessions/", {"establishment": t.own_fse.pk, **_training(t)}),
        field="signed_sheet",
        api=True,
    ),  # fmt: skip
    Endpoint(
        "oil pickup receipt page",
        Role.HAULER,
        lambda t: (
            "/records/pickups/",
            {"establishment": t.own_fse.pk, "picked_up_on": str(days_ago(1)), "gallons": "30"},
        ),
        field="receipt",
    ),  # fmt: skip
    Endpoint(
        "oil pickup receipt API",
        Role.HAULER,
        lambda t: (
            "/api/v1/oil-pickups/",
            {"establishment": t.own_fse.pk, "picked_up_on": str(days_ago(1)), "gallons": "30"},
        ),
        field="receipt",
        api=True,
    ),  # fmt: skip
    Endpoint(
        "record submission page",
        Role.FSE,
        lambda t: (
            f"/records/establishments/{t.own_fse.pk}/submissions/",
            {"requirement": _requirement(t).pk},
        ),
    ),
    Endpoint(
        "record submission API",
        Role.FSE,
        lambda t: ("/api/v1/record-submissions/", {"requirement": _requirement(t).pk}),
        api=True,
    ),
    Endpoint(
        "record correction page",
        Role.FSE,
        lambda t: (f"/records/submissions/{_reviewed_submission(t).pk}/", {"step": "correct"}),
    ),
    Endpoint(
        "record correction API",
        Role.FSE,
        lambda t: (f"/api/v1/record-submissions/{_reviewed_submission(t).pk}/correct/", {}),
        api=True,
    ),
    # permits: an application's documents, an answer's files, remodel plans (B3, B4, G2)
    Endpoint(
        "application document page",
        Role.FSE,
        lambda t: (
            f"/permits/applications/{_draft_application(t).pk}/document/",
            {"document-kind": "building_permit"},
        ),
        field="document-file",
    ),  # fmt: skip
    Endpoint(
        "application document API",
        Role.FSE,
        lambda t: (
            f"/api/v1/permit-applications/{_draft_application(t).pk}/documents/",
            {"kind": "building_permit"},
        ),
        api=True,
    ),  # fmt: skip
    # inspections: photos (D8)
    Endpoint(
        "inspection photo page",
        Role.INSPECTOR,
        lambda t: (f"/inspections/{scheduled(t.own_fse, t.users[Role.INSPECTOR]).pk}/photos/", {}),
        field="photo",
        good=PNG_GOOD,
    ),  # fmt: skip
    Endpoint(
        "inspection photo API",
        Role.INSPECTOR,
        lambda t: (f"/api/v1/inspections/{scheduled(t.own_fse, t.users[Role.INSPECTOR]).pk}/photos/", {}),
        api=True,
        good=PNG_GOOD,
    ),  # fmt: skip
    # spills: photos and the State's files (J)
    Endpoint(
        "spill photo page",
        Role.INSPECTOR,
        lambda t: (f"/spills/{fog_spill(t).pk}/photos/", {}),
        field="file",
        good=PNG_GOOD,
    ),  # fmt: skip
    Endpoint("spill import page", Role.FOG_MANAGER, lambda t: ("/spills/imports/", {}), good=None),
    Endpoint(
        "spill import API", Role.FOG_MANAGER, lambda t: ("/api/v1/imports/spills/", {}), api=True, good=None
    ),
    # sampling: the laboratory's results (D4, D5)
    Endpoint(
        "lab results page",
        Role.INSPECTOR,
        lambda t: (f"/sampling/{sample_of(t.own_fse, t.users[Role.INSPECTOR]).pk}/results/upload/", {}),
        good=None,
    ),  # fmt: skip
    Endpoint(
        "lab results API",
        Role.INSPECTOR,
        lambda t: (f"/api/v1/samples/{sample_of(t.own_fse, t.users[Role.INSPECTOR]).pk}/results/upload/", {}),
        api=True,
        good=None,
    ),  # fmt: skip
]


def _client(endpoint: Endpoint, user):
    if endpoint.api:
        client = APIClient()
        client.force_authenticate(user)
    else:
        from django.test import Client

        client = Client()
    force_login_verified(client, user)  # staff signing for a party have just authenticated
    client.raise_request_exception = False
    return client


def _stored_files() -> set[Path]:
    root = Path(settings.MEDIA_ROOT)
    return {path for path in root.rglob("*") if path.is_file()} if root.exists() else set()


def _send(client, endpoint: Endpoint, url: str, body: dict, file: tuple[str, bytes, str]):
    name, data, content_type = file
    upload = SimpleUploadedFile(name, data, content_type=content_type)
    if endpoint.api:
        return client.post(url, {**body, endpoint.field: upload}, format="multipart")
    return client.post(url, {**body, endpoint.field: upload})


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_every_hostile_file_is_refused_by_every_upload_endpoint(town, corpus, endpoint, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    user = town.users[endpoint.role]
    client = _client(endpoint, user)
    if endpoint.good is not None:
        url, body = endpoint.setup(town)
        control = _send(client, endpoint, url, body, endpoint.good)
        assert control.status_code in endpoint.accepted, (
            endpoint.name,
            control.status_code,
            control.content[:600],
        )
    outcomes, slowest = {}, 0.0
    for name, file in corpus.items():
        url, body = endpoint.setup(town)
        before = _stored_files()
        started = time.monotonic()
        response = _send(client, endpoint, url, body, file)
        took = time.monotonic() - started
        slowest = max(slowest, took)
        left = _stored_files() - before
        text = response.content.decode(errors="replace")
        said = 400 <= response.status_code < 500 and ("error" in text.lower() or response.status_code != 400
                                                      or endpoint.api)  # fmt: skip
        outcomes[name] = (response.status_code, round(took, 1), len(left), said)
    wrong = {
        name: outcome
        for name, outcome in outcomes.items()
        if not (400 <= outcome[0] < 500) or outcome[1] > REQUEST_SECONDS or outcome[2] or not outcome[3]
    }
    assert wrong == {}, f"{endpoint.name}: (status, seconds, files left, message shown) {wrong}"
