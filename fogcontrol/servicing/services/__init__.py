"""Every write in servicing: keyword-only arguments, an acting user, one transaction, an audit entry."""

from fogcontrol.servicing.services.frequency import (
    frequency_change,
    frequency_change_withdraw,
    frequency_request_decide,
    frequency_request_file,
)
from fogcontrol.servicing.services.manifest_flags import flag_review
from fogcontrol.servicing.services.manifest_validation import ManifestSubmission, manifest_validate
from fogcontrol.servicing.services.manifests import (
    manifest_correct,
    manifest_submit,
    submission_from_manifest,
)
from fogcontrol.servicing.services.retention import hold_place, hold_release, manifest_purge
from fogcontrol.servicing.services.state import device_state_refresh, reading_record, requirement_close
from fogcontrol.servicing.services.sweep import status_sweep

__all__ = [
    "ManifestSubmission",
    "device_state_refresh",
    "flag_review",
    "frequency_change",
    "frequency_change_withdraw",
    "frequency_request_decide",
    "frequency_request_file",
    "hold_place",
    "hold_release",
    "manifest_correct",
    "manifest_purge",
    "manifest_submit",
    "manifest_validate",
    "reading_record",
    "requirement_close",
    "status_sweep",
    "submission_from_manifest",
]
