"""A job is an actor in every servicing service: it acts under its label, and the record and the
audit trail name it. People are still held to their roles."""

import pytest
from django.core.exceptions import PermissionDenied

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import ManifestFlag
from fogcontrol.servicing.services import (
    flag_review,
    frequency_request_decide,
    frequency_request_file,
    hold_place,
)
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.servicing.tests.test_imports import row, run

JOB = "nightly-sweep"


def _open_flag(town) -> ManifestFlag:
    manifest = submit(town.users[Role.HAULER], town.own_device, baffles_cleaned=False)
    return manifest.flags.get(code="baffles_not_cleaned")


def _last_entry(action: str) -> AuditEntry:
    return AuditEntry.objects.filter(action=action).latest("id")


@pytest.mark.provision("F7")
def test_a_job_reviews_a_flag_and_the_trail_names_the_job(town):
    flag = flag_review(flag=_open_flag(town), acting_user=JOB, outcome="cleared", note="Cleared in bulk")
    flag.refresh_from_db()
    assert flag.review == "cleared" and flag.reviewed_by is None
    entry = _last_entry("manifest_flag.review")
    assert (entry.actor, entry.actor_label) == (None, JOB)
    assert (entry.before["review"], entry.after["review"]) == ("open", "cleared")


def test_a_person_without_the_role_still_may_not_review_a_flag(town):
    flag = _open_flag(town)
    with pytest.raises(PermissionDenied, match="Only the FOG Manager and inspectors review flags"):
        flag_review(flag=flag, acting_user=town.users[Role.HAULER], outcome="cleared")
    flag.refresh_from_db()
    assert flag.review == "open"


@pytest.mark.provision("E5")
def test_a_job_files_and_decides_a_frequency_request(town):
    filed = frequency_request_file(
        device=town.own_device, acting_user=JOB, requested_days=180, justification="Filed from the paper form"
    )
    assert (filed.submitted_by, filed.submitted_by_label) == (None, JOB)
    frequency_request_decide(request=filed, acting_user=JOB, grant=False)
    filed.refresh_from_db()
    assert filed.status == "refused" and filed.decided_by is None


@pytest.mark.provision("F5")
def test_a_job_places_a_litigation_hold_and_the_hold_names_it(town, client):
    hold = hold_place(device=town.own_device, acting_user=JOB, reason="Claim 2026-14")
    assert (hold.placed_by, hold.placed_by_label) == (None, JOB)
    assert _last_entry("litigation_hold.place").actor_label == JOB
    client.force_login(town.users[Role.FOG_MANAGER])
    page = client.get(f"/servicing/devices/{town.own_device.pk}/holds/")
    assert page.status_code == 200 and JOB in page.content.decode()


def test_a_person_still_names_themselves_on_a_hold(town):
    manager = town.users[Role.FOG_MANAGER]
    hold = hold_place(device=town.own_device, acting_user=manager, reason="Claim 2026-15")
    assert (hold.placed_by, hold.placed_by_label) == (manager, manager.username)


def test_a_job_uploads_a_manifest_csv_and_its_rows_are_submitted_under_its_label(town):
    record = run(JOB, [row(town.own_device, "J-1")])
    assert (record.uploaded_by, record.uploaded_by_label) == (None, JOB)
    assert (record.status, record.rows_accepted) == ("done", 1)
    manifest = town.own_device.manifests.get(manifest_number="J-1")
    assert (manifest.submitted_by, manifest.submitted_by_label) == (None, JOB)
