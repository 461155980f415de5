"""Submitting manifests: one set of rules for the portal, the CSV upload and the API (E6, E7, F1-F7).

Every entry path builds a ``ManifestSubmission`` and calls ``manifest_submit``. It refuses what
cannot be true (``manifest_validate``, with a message naming the field and how to fix it), accepts
what is possible but suspicious with flags for staff (``judgement.manifest_judge``), keeps the submission as a
copy of record, and brings the device's state and requirements up to date in the same transaction.
"""

from __future__ import annotations

import hashlib

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.files import random_name
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.core.roles import Role
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import Manifest, ManifestAttachment, ManifestFlag, ServiceRequirement
from fogcontrol.servicing.permissions import MANIFEST_SUBMITTERS, can_review
from fogcontrol.servicing.services.judgement import manifest_judge, review_facts
from fogcontrol.servicing.services.manifest_flags import flag_unconfirmed_namesakes, shared_number_flags
from fogcontrol.servicing.services.manifest_validation import ManifestSubmission, manifest_validate
from fogcontrol.servicing.services.state import apply_consequences, device_state_refresh

# --- submission --------------------------------------------------------------------------------


def _store_attachments(manifest: Manifest, attachments, acting_user) -> None:
    for upload, content_type in attachments:
        digest = hashlib.sha256()
        for chunk in upload.chunks():
            digest.update(chunk)
        upload.seek(0)
        name = default_storage.save(random_name("servicing/manifests", upload.name), upload)
        attachment = ManifestAttachment(
            manifest=manifest,
            original_name=upload.name[:255],
            content_type=content_type,
            size_bytes=upload.size,
            sha256=digest.hexdigest(),
            submission=canonical_submission(
                {"name": upload.name, "size": upload.size, "sha256": digest.hexdigest()}
            ),
        )
        attachment.file.name = name
        record_append(attachment, acting_user=acting_user)


@transaction.atomic
def manifest_submit(
    *,
    acting_user,
    submission: ManifestSubmission,
    channel: str,
    raw: dict | None = None,
    corrects: Manifest | None = None,
    correction_reason: str = "",
    withdrawn: bool = False,
    source_import=None,
    ctx: ProgramContext | None = None,
    device_cache: dict | None = None,
) -> Manifest:
    """Submit a service manifest (E7, F1): validate, keep the copy of record, flag, update the device.

    ``raw`` is the submission exactly as received (the API body, the form, the CSV row); it is
    kept in the copy of record beside the resolved fields.
    """
    require_role(acting_user, MANIFEST_SUBMITTERS, "Your role may not submit manifests.")
    ctx = ctx or ProgramContext()
    resolved = manifest_validate(
        submission, acting_user=acting_user, ctx=ctx, corrects=corrects, device_cache=device_cache
    )
    attachments = resolved.fields.pop("_attachments")
    manifest = Manifest(
        channel=channel,
        corrects=corrects,
        correction_reason=correction_reason,
        withdrawn=withdrawn,
        source_import=source_import,
        submission=canonical_submission(raw if raw is not None else {}),
        **resolved.fields,
    )
    record_append(manifest, acting_user=acting_user)
    _store_attachments(manifest, attachments, acting_user)
    audit_record(
        acting_user=acting_user,
        action="manifest.correct" if corrects else "manifest.submit",
        instance=manifest,
        after=snapshot(manifest),
        note=correction_reason,
    )
    device = resolved.device
    state = device_state_refresh(device=device, ctx=ctx)
    e8_already_open = ServiceRequirement.Kind.INTERCEPTOR_PLANS in state._open_kinds
    if withdrawn:
        return manifest
    snap = getattr(state, "_snapshot", None)
    judged = manifest_judge(
        manifest,
        device=device,
        frequency_days=state.frequency_days,
        recommendation=snap.recommendation if snap else None,
        e8_exception=state.e8_exception,
        ratio=resolved.ratio,
        facts=review_facts(manifest, ctx=ctx),
        e8_already_open=e8_already_open,
        ctx=ctx,
    )
    consequences = apply_consequences(
        device=device,
        state=state,
        ratio=resolved.ratio,
        gallons_removed=manifest.gallons_removed,
        on=manifest.service_date,
        acting_user=acting_user,
        ctx=ctx,
        manifest=manifest,
        consequences=judged.consequences,
    )
    flags = list(judged.flags)
    if resolved.number_shared:  # F1, F7: the FSE-filed manifest(s) with the hauler's number
        flags += shared_number_flags(manifest)
        flag_unconfirmed_namesakes(manifest)
    ManifestFlag.objects.bulk_create(
        ManifestFlag(manifest=manifest, code=f.code, provision=f.provision, message=f.message) for f in flags
    )
    manifest.flag_list = flags
    manifest.consequences = consequences
    return manifest


def submission_from_manifest(manifest: Manifest, **changes) -> ManifestSubmission:
    """A correction starts from the manifest it corrects."""
    values = {
        "device": manifest.device,
        "manifest_number": manifest.manifest_number,
        "serviced_at": manifest.serviced_at,
        "full_pumpout": manifest.full_pumpout,
        "baffles_cleaned": manifest.baffles_cleaned,
        "certified_by_name": manifest.certified_by_name,
        "certification_version": manifest.certification_version,
        "certification_language": manifest.certification_language,
        "establishment": manifest.establishment,
        "hauler": manifest.hauler or manifest.hauler_name or None,
        "driver_name": manifest.driver_name,
        "vehicle_plate": manifest.vehicle_plate,
        "fog_depth_in": manifest.fog_depth_in,
        "solids_depth_in": manifest.solids_depth_in,
        "gallons_removed": manifest.gallons_removed,
        "leak_observed": manifest.leak_observed,
        "damaged_baffles": manifest.damaged_baffles,
        "damaged_tees": manifest.damaged_tees,
        "condition_notes": manifest.condition_notes,
        "receiving_facility": manifest.receiving_facility,
        "delivered_on": manifest.delivered_on,
    }
    values.update(changes)
    return ManifestSubmission(**values)


def can_correct(user, manifest: Manifest) -> bool:
    """Staff who review; the hauler company that filed it; the FSE or owner user who filed it."""
    if can_review(user):
        return True
    if has_role(user, {Role.HAULER}):
        return manifest.hauler_id is not None and user.hauler_companies.filter(pk=manifest.hauler_id).exists()
    return manifest.submitted_by_id == user.pk


@transaction.atomic
def manifest_correct(
    *,
    manifest: Manifest,
    acting_user,
    submission: ManifestSubmission,
    reason: str,
    channel: str,
    raw: dict | None = None,
    withdraw: bool = False,
) -> Manifest:
    """F7: a correction is a new copy of record pointing to the manifest it corrects. Only the
    latest manifest of a correction chain may be corrected; the reason is required."""
    if not can_correct(acting_user, manifest):
        raise PermissionDenied(
            "Only the hauler that filed this manifest, its submitter, or staff may correct it."
        )
    if manifest.withdrawn or Manifest.objects.filter(corrects=manifest).exists():
        raise Conflict(_("This manifest has already been corrected; correct the latest version instead."))
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say what was wrong and what the correction changes.")})
    correction = manifest_submit(
        acting_user=acting_user,
        submission=submission,
        channel=channel,
        raw=raw,
        corrects=manifest,
        correction_reason=reason.strip(),
        withdrawn=withdraw,
    )
    if correction.device_id != manifest.device_id:
        device_state_refresh(device=manifest.device)
    return correction
