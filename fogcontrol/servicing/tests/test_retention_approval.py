"""F5 is the permittee's minimum; the Town's own copies of record are destroyed only under the Town's
records-retention schedule (Gov. Code §34090: council approval and city attorney consent), and each
purge lists what it destroyed while the chain still verifies. Service, page and API."""

import datetime as dt
from io import StringIO

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.models import PurgedRecord
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest, ManifestAttachment, PurgeReport, RetentionApproval
from fogcontrol.servicing.services import manifest_correct, manifest_purge, submission_from_manifest
from fogcontrol.servicing.services.retention import retention_approval_record
from fogcontrol.servicing.tests.helpers import days_ago, submit, town_approves_destruction

OUTSIDE = [Role.FSE, Role.PROPERTY_OWNER, Role.HAULER]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


@pytest.fixture
def old_manifest(town):
    """Serviced 800 days ago, with a scanned ticket and a correction: F5's two years have passed."""
    hauler = town.users[Role.HAULER]
    ticket = SimpleUploadedFile("ticket.pdf", b"%PDF-1.4 scanned ticket", content_type="application/pdf")
    original = submit(hauler, town.own_device, serviced_at=days_ago(800), attachments=[ticket])
    manifest_correct(
        manifest=original,
        acting_user=hauler,
        submission=submission_from_manifest(original, gallons_removed=950),
        reason="Gallons misread on the ticket",
        channel=Manifest.Channel.PORTAL,
    )
    return original


@pytest.mark.provision("F5")
def test_f5_gov_code_34090_an_old_manifest_is_kept_without_the_towns_approval(town, manager, old_manifest):
    with pytest.raises(Conflict) as refused:
        manifest_purge(manifest=old_manifest, acting_user=manager, reason="F5 retention ended")
    message = str(refused.value)
    assert "Gov. Code §34090" in message and "F5" in message and "city attorney" in message
    assert Manifest.objects.filter(pk=old_manifest.pk).exists()
    assert not PurgedRecord.objects.exists() and not PurgeReport.objects.exists()


@pytest.mark.provision("F5")
def test_f5_gov_code_34090_an_approval_covers_only_its_record_class_and_dates(town, manager, old_manifest):
    town_approves_destruction(manager, older_than_days=900)  # covers records up to 900 days old only
    with pytest.raises(Conflict, match="§34090"):
        manifest_purge(manifest=old_manifest, acting_user=manager, reason="F5 retention ended")
    assert Manifest.objects.filter(pk=old_manifest.pk).exists()


@pytest.mark.provision("F5")
def test_f5_gov_code_34090_a_purge_under_the_approval_reports_what_it_destroyed_and_the_chain_verifies(
    town, manager, old_manifest
):
    newer = submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(10))
    approval = town_approves_destruction(manager)
    attachment = ManifestAttachment.objects.get(manifest=old_manifest)
    report = manifest_purge(manifest=old_manifest, acting_user=manager, reason="Records schedule, item 14")
    assert report.approval == approval and report.reason == "Records schedule, item 14"
    assert report.summary.startswith(
        f"Manifest {old_manifest.manifest_number} of device {town.own_device.identifier}"
    )
    items = list(report.items.select_related("purged_record"))
    assert sorted(item.kind for item in items) == ["attachment", "manifest", "manifest"]
    assert any("Correction of manifest" in item.description for item in items)
    assert any("ticket.pdf" in item.description for item in items)
    hashes = {item.purged_record.record_hash for item in items}
    assert old_manifest.record_hash in hashes and attachment.record_hash in hashes
    assert Manifest.objects.filter(pk=newer.pk).exists() and Manifest.objects.count() == 1
    assert verify_chain(Manifest).ok and verify_chain(ManifestAttachment).ok
    out = StringIO()
    call_command("verify_records", stdout=out)
    assert "servicing_manifest: 1 record(s), 2 purged: intact." in out.getvalue()
    assert AuditEntry.objects.filter(action="records.purge", object_id=str(report.pk)).exists()


@pytest.mark.provision("F5")
def test_gov_code_34090_an_approval_is_recorded_by_the_fog_manager_once_given(town, manager):
    today = timezone.localdate()
    answers = dict(
        record_class="manifests",
        records_from=dt.date(2020, 1, 1),
        records_to=dt.date(2023, 12, 31),
        council_resolution_number="2026-41",
        council_resolution_date=today,
        city_attorney_name="R. Delgado",
        city_attorney_consent_date=today + dt.timedelta(days=3),
    )
    with pytest.raises(ValidationError) as error:
        retention_approval_record(acting_user=manager, **answers)
    assert "§34090" in error.value.message_dict["city_attorney_consent_date"][0]
    with pytest.raises(ValidationError) as error:
        retention_approval_record(acting_user=manager, **answers | {"records_to": dt.date(2019, 1, 1),
                                                                   "city_attorney_consent_date": today})  # fmt: skip
    assert "records_to" in error.value.message_dict
    with pytest.raises(PermissionDenied):
        retention_approval_record(acting_user=town.users[Role.INSPECTOR], **answers)
    assert not RetentionApproval.objects.exists()
    approval = retention_approval_record(
        acting_user=manager, **answers | {"city_attorney_consent_date": today}
    )
    assert AuditEntry.objects.filter(action="retention_approval.record", object_id=str(approval.pk)).exists()


# --- pages ---------------------------------------------------------------------------------------


@pytest.mark.provision("F5")
def test_f5_gov_code_34090_the_page_keeps_the_towns_copy_until_the_approval_is_recorded(
    town, manager, old_manifest
):
    client = _client(manager)
    page = client.get(f"/servicing/manifests/{old_manifest.pk}/purge/").content.decode()
    assert "Gov. Code §34090" in page and "Purge the manifest" not in page
    refused = client.post(f"/servicing/manifests/{old_manifest.pk}/purge/", {"reason": "F5 ended"})
    assert refused.status_code == 409 and "§34090" in refused.content.decode()
    assert Manifest.objects.filter(pk=old_manifest.pk).exists()

    today = timezone.localdate()
    recorded = client.post(
        "/servicing/retention/",
        {
            "record_class": "manifests",
            "records_from": "2000-01-01",
            "records_to": str(today - dt.timedelta(days=730)),
            "council_resolution_number": "2026-41",
            "council_resolution_date": str(today - dt.timedelta(days=5)),
            "city_attorney_name": "R. Delgado",
            "city_attorney_consent_date": str(today - dt.timedelta(days=6)),
        },
    )
    assert recorded.status_code == 302
    assert "No. 2026-41" in client.get("/servicing/retention/").content.decode()
    purged = client.post(
        f"/servicing/manifests/{old_manifest.pk}/purge/", {"reason": "Records schedule"}, follow=True
    )
    report = PurgeReport.objects.get()
    assert purged.redirect_chain[-1][0] == f"/servicing/retention/purges/{report.pk}/"
    page = purged.content.decode()
    assert old_manifest.manifest_number in page and "ticket.pdf" in page and "2026-41" in page
    assert report.summary in client.get("/servicing/retention/").content.decode()


def test_a_future_consent_is_refused_beside_its_field_on_the_page(town, manager):
    today = timezone.localdate()
    response = _client(manager).post(
        "/servicing/retention/",
        {
            "record_class": "manifests", "records_from": "2000-01-01", "records_to": "2020-12-31",
            "council_resolution_number": "2026-41", "council_resolution_date": str(today),
            "city_attorney_name": "R. Delgado", "city_attorney_consent_date": str(today + dt.timedelta(days=1)),
        },
    )  # fmt: skip
    assert response.status_code == 400 and "after today" in response.content.decode()
    assert not RetentionApproval.objects.exists()


@pytest.mark.parametrize("role", OUTSIDE)
def test_outside_users_never_see_approvals_or_purge_reports(town, manager, role, old_manifest):
    town_approves_destruction(manager)
    report = manifest_purge(manifest=old_manifest, acting_user=manager, reason="Records schedule")
    client = _client(town.users[role])
    assert client.get("/servicing/retention/").status_code == 404
    assert client.get(f"/servicing/retention/purges/{report.pk}/").status_code == 404
    api = api_as(town.users[role])
    assert api.get(f"/api/v1/purge-reports/{report.pk}/").status_code == 404
    # Staff lists: outside users are told they do not exist, in the API as on the pages (issue #9).
    assert api.get("/api/v1/purge-reports/").status_code == 404
    assert api.get("/api/v1/retention-approvals/").status_code == 404


# --- API -----------------------------------------------------------------------------------------


@pytest.mark.provision("F5")
def test_f5_gov_code_34090_api_refuses_then_records_the_approval_then_purges_with_a_report(
    town, manager, old_manifest
):
    api = api_as(manager)
    url = f"/api/v1/manifests/{old_manifest.pk}/purge/"
    decision = api.get(url).json()
    assert decision["allowed"] is False and "§34090" in decision["reason"] and decision["approval"] is None
    refused = api.post(url, {"reason": "F5 ended"}, format="json")
    assert refused.status_code == 409 and "§34090" in refused.json()["detail"]

    today = timezone.localdate()
    body = {
        "record_class": "manifests",
        "records_from": "2000-01-01",
        "records_to": str(today - dt.timedelta(days=730)),
        "council_resolution_number": "2026-41",
        "council_resolution_date": str(today - dt.timedelta(days=5)),
        "city_attorney_name": "R. Delgado",
        "city_attorney_consent_date": str(today + dt.timedelta(days=2)),
    }
    future = api.post("/api/v1/retention-approvals/", body, format="json")
    assert future.status_code == 400 and "city_attorney_consent_date" in future.json()
    assert (
        api_as(town.users[Role.INSPECTOR])
        .post(
            "/api/v1/retention-approvals/", body | {"city_attorney_consent_date": str(today)}, format="json"
        )
        .status_code
        == 403
    )
    created = api.post(
        "/api/v1/retention-approvals/", body | {"city_attorney_consent_date": str(today)}, format="json"
    )
    assert created.status_code == 201 and created.json()["council_resolution_number"] == "2026-41"
    assert api.get(url).json()["approval"]["id"] == created.json()["id"]

    purged = api.post(url, {"reason": "Records schedule, item 14"}, format="json")
    assert purged.status_code == 201
    report = purged.json()
    assert report["approval"]["council_resolution_number"] == "2026-41"
    assert sorted(item["kind"] for item in report["items"]) == ["attachment", "manifest", "manifest"]
    assert {item["record_id"] for item in report["items"] if item["kind"] == "manifest"} >= {old_manifest.pk}
    listed = api.get("/api/v1/purge-reports/").json()["results"]
    assert [row["id"] for row in listed] == [report["id"]]
    assert api.get(f"/api/v1/purge-reports/{report['id']}/").json()["items"] == report["items"]
    assert verify_chain(Manifest).ok
