"""The servicing lists as spreadsheets (core/exports.py): device service status, manifests, flags
to review, service requirements and frequency-change requests."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from fogcontrol.core.exports import Column


def _state(device):
    """The device's service state, or None before the first sweep has judged it."""
    try:
        return device.service_state
    except ObjectDoesNotExist:
        return None


def _of_state(read):
    return lambda device: None if (state := _state(device)) is None else read(state)


STATUS_COLUMNS = (
    Column("Device", lambda d: d.identifier),
    Column("Serves", lambda d: ", ".join(fse.business_name for fse in d.establishments.all())),
    Column("Status", _of_state(lambda s: s.get_status_display())),
    Column("Service now (E6)", _of_state(lambda s: s.immediate_service_required)),
    Column("Last full pump-out", _of_state(lambda s: s.last_full_pumpout)),
    Column("Next due", _of_state(lambda s: s.next_due)),
    Column("Frequency (days)", _of_state(lambda s: s.frequency_days)),
    Column("Frequency is the default", _of_state(lambda s: s.frequency_is_default)),
    Column("Fill (%)", _of_state(lambda s: s.fill_percent)),
)

MANIFEST_COLUMNS = (
    Column("Manifest", lambda m: m.manifest_number),
    Column("Serviced", lambda m: m.serviced_at),
    Column("Device", lambda m: m.device.identifier),
    Column("Site", lambda m: str(m.establishment) if m.establishment_id else m.site_address),
    Column("Hauler", lambda m: m.hauler_name),
    Column("Pumped", lambda m: "Full" if m.full_pumpout else "Partial"),
    Column("Fill before (%)", lambda m: m.fill_percent),
    Column("Gallons removed", lambda m: m.gallons_removed),
    Column("To review", lambda m: m.has_open_flags),
    Column("Corrected", lambda m: m.is_corrected),
    Column("Withdrawal", lambda m: m.withdrawn),
)

FLAG_COLUMNS = (
    Column("Manifest", lambda f: f.manifest.manifest_number),
    Column("Hauler", lambda f: f.manifest.hauler_name),
    Column("Device", lambda f: f.manifest.device.identifier),
    Column("Provision", lambda f: f.provision),
    Column("Flag", lambda f: f.message),
    Column("Raised", lambda f: f.created_at),
    Column("Review", lambda f: f.get_review_display()),
)

REQUIREMENT_COLUMNS = (
    Column("Opened", lambda r: r.opened_on),
    Column("Device", lambda r: r.device.identifier),
    Column("Requirement", lambda r: r.get_kind_display()),
    Column("Provision", lambda r: r.provision),
    Column("Due", lambda r: r.due_on),
    Column("Proposed frequency (days, B7)", lambda r: r.proposed_frequency_days),
    Column("Proposed from", lambda r: r.proposed_effective_on),
    Column("Status", lambda r: r.get_status_display()),
)

REQUEST_COLUMNS = (
    Column("Filed", lambda r: r.submitted_at),
    Column("Device", lambda r: r.device.identifier),
    Column("From (days)", lambda r: r.current_days),
    Column("Requested (days)", lambda r: r.requested_days),
    Column(
        "Engine's view (E5)",
        lambda r: "Supported" if (r.assessment or {}).get("granted") else "Not supported",
    ),
    Column("Status", lambda r: r.get_status_display()),
)

IMPORT_COLUMNS = (
    Column("File", lambda i: i.original_name),
    Column("Uploaded", lambda i: i.created_at),
    Column("Kind", lambda i: "Dry run" if i.dry_run else "Import"),
    Column("Status", lambda i: i.get_status_display()),
    Column("Rows", lambda i: i.rows_total),
    Column("Accepted", lambda i: i.rows_accepted),
    Column("Rejected", lambda i: i.rows_rejected),
)
