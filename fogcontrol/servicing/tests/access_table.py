"""Who may open and do what in servicing: every page and API route × every role.

Manifests and device state follow the device's scope: staff see all; an FSE user its devices'
(`own_device`), a property owner user the devices on its parcels or serving its establishments, a
hauler user its company's manifests and its customers' devices. Outside the scope: 404. Roles
(servicing/permissions.py): manifests are submitted by haulers, FSE and property owner users, the
FOG Manager and inspectors (F1); reviewers (FOG Manager, inspectors) review flags, record readings
and close requirements; the FOG Manager sets frequencies (E1), decides E5 requests and alone holds,
releases and purges records (F5). Review flags, litigation holds, retention approvals and purge
reports are Town staff's: outside users are told they do not exist (404). A role that may never
take a step is refused (403) before its input is read.

Run by servicing/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing import imports
from fogcontrol.servicing.models import ManifestFlag, ServiceRequirement
from fogcontrol.servicing.permissions import (
    FREQUENCY_REQUESTERS,
    FREQUENCY_SETTERS,
    MANIFEST_SUBMITTERS,
    REVIEWERS,
)
from fogcontrol.servicing.retention_models import PurgeReport
from fogcontrol.servicing.services import frequency_change, frequency_request_file, hold_place
from fogcontrol.servicing.tests.helpers import api_body, submit, town_approves_destruction
from fogcontrol.testing.access import STAFF, api, page

FSE, OWNER, HAULER = Role.FSE, Role.PROPERTY_OWNER, Role.HAULER
MANAGER = FREQUENCY_SETTERS
OWN_DEVICE = frozenset({FSE, HAULER})  # the FSE's own device; its hauler's customer
OWN_IMPORT = frozenset({HAULER})


def build(town) -> None:
    """A manifest the hauler filed for the FSE's device, with a review flag; an open requirement; a
    pending frequency change and an E5 request on the device; a litigation hold; the Town's approval
    to destroy old manifests and a purge report; the hauler's CSV upload, run."""
    manager, hauler = town.users[Role.FOG_MANAGER], town.users[HAULER]
    manifest = submit(hauler, town.own_device)
    town.records["manifest"] = manifest
    town.records["flag"] = ManifestFlag.objects.create(
        manifest=manifest, code="fill_high", provision="E4", message="Fill above 25%"
    )
    town.records["requirement"] = ServiceRequirement.objects.create(
        device=town.own_device,
        kind=ServiceRequirement.Kind.IMMEDIATE_SERVICE,
        provision="E6",
        opened_on=town_today(),
    )
    town.records["change"] = frequency_change(
        device=town.own_device, acting_user=manager, to_days=60, reason="Fill at 24%"
    )
    town.records["request"] = frequency_request_file(
        device=town.own_device, acting_user=town.users[FSE], requested_days=180, justification="Low volume"
    )
    town.records["hold"] = hold_place(device=town.own_device, acting_user=manager, reason="Claim 2026-14")
    approval = town_approves_destruction(manager)
    town.records["approval"] = approval
    town.records["purge"] = PurgeReport.objects.create(
        approval=approval,
        device=town.own_device,
        summary="1 manifest",
        reason="Past F5",
        purged_by=manager,
        purged_by_label=manager.username,
    )
    upload = SimpleUploadedFile("manifests.csv", imports.template_csv().encode(), "text/csv")
    record = imports.manifest_import_create(acting_user=hauler, upload=upload, dry_run=True)
    town.records["import"] = imports.manifest_import_run(import_id=record.pk)


def _m(t):
    return t["manifest"].pk


def _d(t):
    return t.own_device.pk


# --- Pages --------------------------------------------------------------------------------------

S = "/servicing"
PAGES = [
    page("servicing:home", f"{S}/", record=False),
    page("servicing:manifest_list", f"{S}/manifests/", record=False),
    page("servicing:manifest_new", f"{S}/manifests/new/", record=False, may=MANIFEST_SUBMITTERS),
    page(
        "servicing:manifest_new",
        f"{S}/manifests/new/",
        record=False,
        may=MANIFEST_SUBMITTERS,
        method="post",
        body={},
        label="submit",
    ),
    page("servicing:manifest_detail", lambda t: f"{S}/manifests/{_m(t)}/", owners=OWN_DEVICE),
    page(
        "servicing:manifest_attachment",
        lambda t: f"{S}/manifests/{_m(t)}/attachments/999999/",
        scope=frozenset(),
        label="no such attachment",
    ),
    page(
        "servicing:manifest_correct",
        lambda t: f"{S}/manifests/{_m(t)}/correct/",
        owners=OWN_DEVICE,
        may=MANIFEST_SUBMITTERS,
        special={FSE: 403},  # the hauler filed it: an FSE user corrects only what it filed
    ),
    page(
        "servicing:manifest_correct",
        lambda t: f"{S}/manifests/{_m(t)}/correct/",
        owners=OWN_DEVICE,
        may=MANIFEST_SUBMITTERS,
        special={FSE: 403},  # the hauler filed it: an FSE user corrects only what it filed
        method="post",
        body={},
        label="correct",
    ),
    page("servicing:certification", f"{S}/certification/", record=False),
    page("servicing:import_list", f"{S}/imports/", record=False, may=MANIFEST_SUBMITTERS),
    page(
        "servicing:import_list",
        f"{S}/imports/",
        record=False,
        may=MANIFEST_SUBMITTERS,
        method="post",
        body={},
        label="upload",
    ),
    page("servicing:import_template", f"{S}/imports/template.csv", record=False),
    page("servicing:import_detail", lambda t: f"{S}/imports/{t['import'].pk}/", owners=OWN_IMPORT),
    page("servicing:import_report", lambda t: f"{S}/imports/{t['import'].pk}/report.csv", owners=OWN_IMPORT),
    page("servicing:device_history", lambda t: f"{S}/devices/{_d(t)}/", owners=OWN_DEVICE),
    page("servicing:device_history", lambda t: f"{S}/devices/{t.other_device.pk}/", label="another FSE's"),
    page(
        "servicing:device_frequency",
        lambda t: f"{S}/devices/{_d(t)}/frequency/",
        method="post",
        owners=OWN_DEVICE,
        may=MANAGER,
        body={},
    ),
    page(
        "servicing:frequency_change_withdraw",
        lambda t: f"{S}/frequency-changes/{t['change'].pk}/withdraw/",
        method="post",
        owners=OWN_DEVICE,
        may=MANAGER,
    ),
    page(
        "servicing:device_frequency_request",
        lambda t: f"{S}/devices/{_d(t)}/frequency-request/",
        method="post",
        owners=OWN_DEVICE,
        may=FREQUENCY_REQUESTERS,
        body={},
    ),
    page(
        "servicing:device_reading",
        lambda t: f"{S}/devices/{_d(t)}/readings/",
        method="post",
        owners=OWN_DEVICE,
        may=REVIEWERS,
        body={},
    ),
    page("servicing:device_holds", lambda t: f"{S}/devices/{_d(t)}/holds/", scope=STAFF),
    page(
        "servicing:device_holds",
        lambda t: f"{S}/devices/{_d(t)}/holds/",
        scope=STAFF,
        may=MANAGER,
        method="post",
        body={},
        label="place",
    ),
    page(
        "servicing:hold_release",
        lambda t: f"{S}/holds/{t['hold'].pk}/release/",
        scope=STAFF,
        may=MANAGER,
        method="post",
    ),
    page("servicing:manifest_purge", lambda t: f"{S}/manifests/{_m(t)}/purge/", scope=STAFF),
    page(
        "servicing:manifest_purge",
        lambda t: f"{S}/manifests/{_m(t)}/purge/",
        scope=STAFF,
        may=MANAGER,
        method="post",
        body={},
        label="purge",
    ),
    page("servicing:retention", f"{S}/retention/", scope=STAFF),
    page(
        "servicing:retention",
        f"{S}/retention/",
        scope=STAFF,
        may=MANAGER,
        method="post",
        body={},
        label="record an approval",
    ),
    page("servicing:purge_report", lambda t: f"{S}/retention/purges/{t['purge'].pk}/", scope=STAFF),
    page("servicing:flag_list", f"{S}/flags/", scope=STAFF),
    page(
        "servicing:flag_review",
        lambda t: f"{S}/flags/{t['flag'].pk}/review/",
        scope=STAFF,
        may=REVIEWERS,
        method="post",
        body={},
    ),
    page("servicing:requirement_list", f"{S}/requirements/", record=False),
    page(
        "servicing:requirement_close",
        lambda t: f"{S}/requirements/{t['requirement'].pk}/close/",
        owners=OWN_DEVICE,
        may=REVIEWERS,
        method="post",
        body={},
    ),
    page("servicing:request_list", f"{S}/frequency-requests/", record=False),
    page("servicing:request_detail", lambda t: f"{S}/frequency-requests/{t['request'].pk}/", owners={FSE}),
    page(
        "servicing:request_detail",
        lambda t: f"{S}/frequency-requests/{t['request'].pk}/",
        owners={FSE},
        may=MANAGER,
        method="post",
        body={},
        label="decide",
    ),
]


# --- API ----------------------------------------------------------------------------------------

V = "/api/v1"
API_ROUTES = [
    api("device-compliance", lambda t: f"{V}/devices/{_d(t)}/compliance/", owners=OWN_DEVICE),
    api("device-compliance", lambda t: f"{V}/devices/{t.other_device.pk}/compliance/", label="another FSE's"),
    api("device-history", lambda t: f"{V}/devices/{_d(t)}/history/", owners=OWN_DEVICE),
    api(
        "device-frequency",
        lambda t: f"{V}/devices/{_d(t)}/frequency/",
        owners=OWN_DEVICE,
        method="post",
        may=MANAGER,
        body={},
    ),
    api(
        "frequency-change-withdraw",
        lambda t: f"{V}/frequency-changes/{t['change'].pk}/withdraw/",
        owners=OWN_DEVICE,
        method="post",
        may=MANAGER,
        body={},
    ),
    api("device-holds", lambda t: f"{V}/devices/{_d(t)}/holds/", scope=STAFF),
    api(
        "device-holds",
        lambda t: f"{V}/devices/{_d(t)}/holds/",
        scope=STAFF,
        method="post",
        may=MANAGER,
        body={},
        label="place",
    ),
    api(
        "hold-release",
        lambda t: f"{V}/litigation-holds/{t['hold'].pk}/release/",
        scope=STAFF,
        method="post",
        may=MANAGER,
        body={},
    ),
    api(
        "manifest-purge",
        lambda t: f"{V}/manifests/{_m(t)}/purge/",
        scope=STAFF,
        method="post",
        may=MANAGER,
        body={},
    ),
    api("manifest-list", f"{V}/manifests/", record=False),
    api(
        "manifest-list",
        f"{V}/manifests/",
        record=False,
        method="post",
        may=MANIFEST_SUBMITTERS,
        body=lambda t: api_body(t.own_device, fog_depth_in="abc"),
        label="submit",
    ),
    api(
        "manifest-batch",
        f"{V}/manifests/batch/",
        record=False,
        method="post",
        may=MANIFEST_SUBMITTERS,
        body={},
    ),
    api("manifest-detail", lambda t: f"{V}/manifests/{_m(t)}/", owners=OWN_DEVICE),
    api(
        "manifest-correct",
        lambda t: f"{V}/manifests/{_m(t)}/correct/",
        owners=OWN_DEVICE,
        method="post",
        may=MANIFEST_SUBMITTERS,
        body={},
    ),
    api("manifest-import-list", f"{V}/manifest-imports/", record=False),
    api(
        "manifest-import-list",
        f"{V}/manifest-imports/",
        record=False,
        method="post",
        may=MANIFEST_SUBMITTERS,
        body={},
        label="upload",
    ),
    api("manifest-import-detail", lambda t: f"{V}/manifest-imports/{t['import'].pk}/", owners=OWN_IMPORT),
    api(
        "manifest-import-problems",
        lambda t: f"{V}/manifest-imports/{t['import'].pk}/problems/",
        owners=OWN_IMPORT,
    ),
    api(
        "manifest-import-report",
        lambda t: f"{V}/manifest-imports/{t['import'].pk}/report/",
        owners=OWN_IMPORT,
    ),
    api("manifest-flag-list", f"{V}/manifest-flags/", scope=STAFF),
    api(
        "manifest-flag-review",
        lambda t: f"{V}/manifest-flags/{t['flag'].pk}/review/",
        scope=STAFF,
        method="post",
        may=REVIEWERS,
        body={},
    ),
    api("service-status-list", f"{V}/service-status/", record=False),
    api("service-requirement-list", f"{V}/service-requirements/", record=False),
    api(
        "service-requirement-detail",
        lambda t: f"{V}/service-requirements/{t['requirement'].pk}/",
        owners=OWN_DEVICE,
    ),
    api(
        "service-requirement-close",
        lambda t: f"{V}/service-requirements/{t['requirement'].pk}/close/",
        owners=OWN_DEVICE,
        method="post",
        may=REVIEWERS,
        body={},
    ),
    api("frequency-request-list", f"{V}/frequency-requests/", record=False),
    api(
        "frequency-request-list",
        f"{V}/frequency-requests/",
        record=False,
        method="post",
        may=FREQUENCY_REQUESTERS,
        body={},
        label="file",
    ),
    api("frequency-request-detail", lambda t: f"{V}/frequency-requests/{t['request'].pk}/", owners={FSE}),
    api(
        "frequency-request-decide",
        lambda t: f"{V}/frequency-requests/{t['request'].pk}/decide/",
        owners={FSE},
        method="post",
        may=MANAGER,
        body={},
    ),
    api("sludge-reading-list", f"{V}/sludge-readings/", record=False),
    api(
        "sludge-reading-list",
        f"{V}/sludge-readings/",
        record=False,
        method="post",
        may=REVIEWERS,
        body={},
        label="record",
    ),
    api("retention-approval-list", f"{V}/retention-approvals/", scope=STAFF),
    api(
        "retention-approval-list",
        f"{V}/retention-approvals/",
        scope=STAFF,
        method="post",
        may=MANAGER,
        body={},
        label="record",
    ),
    api("retention-approval-detail", lambda t: f"{V}/retention-approvals/{t['approval'].pk}/", scope=STAFF),
    api("purge-report-list", f"{V}/purge-reports/", scope=STAFF),
    api("purge-report-detail", lambda t: f"{V}/purge-reports/{t['purge'].pk}/", scope=STAFF),
]

ROUTES = [*PAGES, *API_ROUTES]
