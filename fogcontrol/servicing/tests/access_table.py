"""Servicing: who gets what from every page and API route (fogcontrol.testing.access).

The world (test_access_table.py): a manifest the hauler submitted for the FSE's own device
(`manifest`, `device`). Routes on records the small town does not hold (flags, requirements,
holds, purge reports, frequency requests and changes, imports) are checked on an id that exists
nowhere (`missing`): every role gets the same 404 as for a record outside its scope."""

from fogcontrol.servicing.models import Manifest
from fogcontrol.testing.access import Route, api, expect, page, snapshot

OWN = expect(200, property_owner=404)
STAFF_ONLY_PAGE = expect(200, outside=404)
NOWHERE = expect(404)
# Only those who may submit or correct a manifest (staff who record them, the hauler).
SUBMITTERS = expect(200, billing_clerk=403, hearing_officer=403, staff_readonly=403)
# These writes check the form before the role: an empty form is 400 for every user who can see the
# device, read-only staff included (nothing changes; today's behaviour, reported).
EMPTY_FORM_400 = expect(400, property_owner=404)
PURGE = expect(400, outside=404)


def _state(world):
    from fogcontrol.audit.models import AuditEntry

    return snapshot(AuditEntry, Manifest)


def _post(name, url, expected, label=""):
    return Route(name, url, expected, method="post", state=_state, label=label)


def _m(path):
    return lambda w: path.format(manifest=w.manifest.pk, device=w.device.pk, missing=w.missing)


ACCESS = [
    Route("servicing:home", page("/servicing/"), expect(200)),
    Route("servicing:manifest_list", page("/servicing/manifests/"), expect(200)),
    Route("servicing:manifest_new", page("/servicing/manifests/new/"), SUBMITTERS),
    Route("servicing:manifest_detail", page(_m("/servicing/manifests/{manifest}/")), OWN),
    Route(
        "servicing:manifest_correct",
        page(_m("/servicing/manifests/{manifest}/correct/")),
        expect(403, fog_manager=200, inspector=200, hauler=200, property_owner=404),
    ),
    Route("servicing:certification", page("/servicing/certification/"), expect(200)),
    Route("servicing:import_list", page("/servicing/imports/"), SUBMITTERS),
    Route("servicing:import_template", page("/servicing/imports/template.csv"), expect(200)),
    Route("servicing:import_detail", page(_m("/servicing/imports/{missing}/")), NOWHERE),
    Route("servicing:import_report", page(_m("/servicing/imports/{missing}/report.csv")), NOWHERE),
    Route("servicing:device_history", page(_m("/servicing/devices/{device}/")), OWN),
    Route("servicing:device_holds", page(_m("/servicing/devices/{device}/holds/")), STAFF_ONLY_PAGE),
    Route("servicing:retention", page("/servicing/retention/"), STAFF_ONLY_PAGE),
    Route("servicing:purge_report", page(_m("/servicing/retention/purges/{missing}/")), NOWHERE),
    Route("servicing:flag_list", page("/servicing/flags/"), STAFF_ONLY_PAGE),
    Route("servicing:requirement_list", page("/servicing/requirements/"), expect(200)),
    Route("servicing:request_list", page("/servicing/frequency-requests/"), expect(200)),
    Route("servicing:request_detail", page(_m("/servicing/frequency-requests/{missing}/")), NOWHERE),
    _post("servicing:device_frequency", _m("/servicing/devices/{device}/frequency/"), EMPTY_FORM_400),
    _post(
        "servicing:device_frequency_request",
        _m("/servicing/devices/{device}/frequency-request/"),
        EMPTY_FORM_400,
    ),
    _post("servicing:device_reading", _m("/servicing/devices/{device}/readings/"), EMPTY_FORM_400),
    _post(
        "servicing:frequency_change_withdraw", _m("/servicing/frequency-changes/{missing}/withdraw/"), NOWHERE
    ),
    _post("servicing:hold_release", _m("/servicing/holds/{missing}/release/"), NOWHERE),
    _post("servicing:manifest_purge", _m("/servicing/manifests/{manifest}/purge/"), PURGE),
    _post("servicing:flag_review", _m("/servicing/flags/{missing}/review/"), NOWHERE),
    _post("servicing:requirement_close", _m("/servicing/requirements/{missing}/close/"), NOWHERE),
    # --- API
    Route("manifest-list", api("/manifests/"), expect(200)),
    Route("manifest-detail", api(_m("/manifests/{manifest}/")), OWN),
    Route("manifest-import-list", api("/manifest-imports/"), expect(200)),
    Route("manifest-import-detail", api(_m("/manifest-imports/{missing}/")), NOWHERE),
    Route("manifest-import-problems", api(_m("/manifest-imports/{missing}/problems/")), NOWHERE),
    Route("manifest-import-report", api(_m("/manifest-imports/{missing}/report/")), NOWHERE),
    Route("manifest-flag-list", api("/manifest-flags/"), expect(200)),
    Route("service-status-list", api("/service-status/"), expect(200)),
    Route("service-requirement-list", api("/service-requirements/"), expect(200)),
    Route("service-requirement-detail", api(_m("/service-requirements/{missing}/")), NOWHERE),
    Route("frequency-request-list", api("/frequency-requests/"), expect(200)),
    Route("frequency-request-detail", api(_m("/frequency-requests/{missing}/")), NOWHERE),
    Route("sludge-reading-list", api("/sludge-readings/"), expect(200)),
    Route("retention-approval-list", api("/retention-approvals/"), expect(200)),
    Route("retention-approval-detail", api(_m("/retention-approvals/{missing}/")), NOWHERE),
    Route("purge-report-list", api("/purge-reports/"), expect(200)),
    Route("purge-report-detail", api(_m("/purge-reports/{missing}/")), NOWHERE),
    Route("device-compliance", api(_m("/devices/{device}/compliance/")), OWN),
    Route("device-history", api(_m("/devices/{device}/history/")), OWN),
    Route("device-frequency", api(_m("/devices/{device}/frequency/")), OWN),
    Route("device-holds", api(_m("/devices/{device}/holds/")), STAFF_ONLY_PAGE),
    _post("manifest-batch", api("/manifests/batch/"), expect(400)),
    _post("manifest-correct", api(_m("/manifests/{manifest}/correct/")), EMPTY_FORM_400),
    _post("manifest-flag-review", api(_m("/manifest-flags/{missing}/review/")), NOWHERE),
    _post("service-requirement-close", api(_m("/service-requirements/{missing}/close/")), NOWHERE),
    _post("frequency-request-decide", api(_m("/frequency-requests/{missing}/decide/")), NOWHERE),
    _post("frequency-change-withdraw", api(_m("/frequency-changes/{missing}/withdraw/")), NOWHERE),
    _post("hold-release", api(_m("/litigation-holds/{missing}/release/")), NOWHERE),
    _post("manifest-purge", api(_m("/manifests/{manifest}/purge/")), PURGE),
]
