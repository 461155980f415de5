"""Saving a draft as the inspector goes (autosave), and attaching photos (D1, D4, D8).

A draft takes any part of the form at a time; each save is checked (answers are pass / fail / n/a
for the items of the checklist, depths within the device) and audited. The 25% result is worked
out on every save, so the inspector sees it on the spot (E3)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.images import reencode_photo, signature_from_data_url
from fogcontrol.core.permissions import require_role
from fogcontrol.inspections.models import DeviceAssessment, Inspection, InspectionPhoto
from fogcontrol.inspections.roles import INSPECTORS
from fogcontrol.inspections.services.scheduling import require_draft
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.rules import inspections as rules
from fogcontrol.rules.devices import fill_ratio

SITE_FIELDS = (
    "started_at",
    "finished_at",
    "entry",
    "entry_delay_minutes",
    "entry_note",
    "notes",
    "person_met",
    "inspector_signed_name",
    "fse_signed_name",
    "fse_declined_to_sign",
)
SITE_SECTIONS = (rules.SECTION_RECORDS, rules.SECTION_BMP, rules.SECTION_PROHIBITED)
SIGNATURES = {"inspector_signature": "inspector_signature", "fse_signature": "fse_signature"}


def _check_site_answers(answers: dict[str, str]) -> dict[str, str]:
    clean = {}
    for key, answer in (answers or {}).items():
        if answer in ("", None):
            continue
        try:
            rules.check_answer(key, answer)
        except ValueError as exc:
            raise ValidationError({"answers": str(exc)}) from exc
        if rules.ITEMS[key].section not in SITE_SECTIONS:
            raise ValidationError({"answers": f"{key}: answer it in its own section."})
        clean[key] = answer
    return clean


def _decimal(value, field: str) -> Decimal | None:
    if value in ("", None):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation as exc:
        raise ValidationError({field: "Enter a depth in inches, e.g. 4.5."}) from exc
    if not number.is_finite() or number < 0 or number > Decimal("9999"):
        raise ValidationError({field: "Enter a depth in inches, 0 or more."})
    return number.quantize(Decimal("0.01"))


def _apply_device(assessment: DeviceAssessment, values: dict[str, Any], ruleset) -> None:
    device = assessment.device
    prefix = f"devices.{device.pk}"
    if "answers" in values:
        answers = {k: v for k, v in (values["answers"] or {}).items() if v not in ("", None)}
        allowed = {item.key for item in rules.section_items(rules.SECTION_DEVICE, device.kind)}
        for key, answer in answers.items():
            try:
                rules.check_answer(key, answer)
            except ValueError as exc:
                raise ValidationError({f"{prefix}.answers": str(exc)}) from exc
            if key not in allowed:
                raise ValidationError({f"{prefix}.answers": f"{key}: does not apply to this kind of device."})
        assessment.answers = answers
    for name in ("fog_depth_in", "solids_depth_in"):
        if name in values:
            setattr(assessment, name, _decimal(values[name], f"{prefix}.{name}"))
    if "condition" in values:
        condition = values["condition"] or ""
        if condition and condition not in DeviceAssessment.Condition.values:
            raise ValidationError({f"{prefix}.condition": "Choose good, fair, poor or failed."})
        assessment.condition = condition
    if "notes" in values:
        assessment.notes = (values["notes"] or "").strip()
    assessment.fill_ratio, assessment.over_limit = None, False
    fog, solids, total = assessment.fog_depth_in, assessment.solids_depth_in, device.total_design_depth_in
    if fog is not None and solids is not None and total:
        try:
            ratio = fill_ratio(fog, solids, total)
        except ValueError as exc:
            raise ValidationError({f"{prefix}.fog_depth_in": str(exc).partition(": ")[2]}) from exc
        assessment.fill_ratio = ratio.quantize(Decimal("0.0001"))
        assessment.over_limit = ratio > ruleset.fill_limit_ratio
    assessment.save()


def _apply_site(inspection: Inspection, changes: dict[str, Any]) -> None:
    for name in SITE_FIELDS:
        if name not in changes:
            continue
        value = changes[name]
        if (
            name in ("started_at", "finished_at")
            and isinstance(value, dt.datetime)
            and timezone.is_naive(value)
        ):
            raise ValidationError({name: "Give the time with its time zone."})
        if isinstance(value, str):
            value = value.strip()
        setattr(inspection, name, value)
    if "answers" in changes:
        inspection.answers = _check_site_answers(changes["answers"])
    if "item_notes" in changes:
        notes = changes["item_notes"] or {}
        unknown = sorted(set(notes) - set(rules.ITEMS) - {rules.FILL_ITEM})
        if unknown:
            raise ValidationError({"item_notes": f"{unknown[0]}: not an item of the checklist."})
        inspection.item_notes = {k: str(v).strip() for k, v in notes.items() if str(v or "").strip()}
    if "corrected_items" in changes:
        corrected = list(dict.fromkeys(changes["corrected_items"] or []))
        unknown = [key for key in corrected if key not in rules.ITEMS and key != rules.FILL_ITEM]
        if unknown:
            raise ValidationError({"corrected_items": f"{unknown[0]}: not an item of the checklist."})
        inspection.corrected_items = corrected
    if "closes_findings" in changes:
        inspection.closes_findings = sorted({int(pk) for pk in changes["closes_findings"] or []})
    for name, field in SIGNATURES.items():
        if changes.get(name):
            image = signature_from_data_url(changes[name], field=name)
            getattr(inspection, field).save(image.name, image, save=False)
    if inspection.entry not in Inspection.Entry.values:
        raise ValidationError({"entry": f"Choose one of: {', '.join(Inspection.Entry.values)}."})
    if inspection.started_at and inspection.finished_at and inspection.finished_at < inspection.started_at:
        raise ValidationError({"finished_at": "The visit cannot end before it began."})
    if inspection.started_at and timezone.localdate(inspection.started_at) > town_today():
        raise ValidationError({"started_at": "The visit cannot begin in the future."})
    inspection.full_clean(exclude=["inspector_signature", "fse_signature", "idempotency_key"])


@transaction.atomic
def inspection_save_draft(*, inspection: Inspection, acting_user, changes: dict[str, Any]) -> Inspection:
    """Save part or all of a draft: site fields, ``answers`` (records, BMPs, prohibited
    discharges), ``item_notes``, ``corrected_items``, ``closes_findings``, the signatures (PNG
    data URLs) and ``devices`` ({device id: {fog_depth_in, solids_depth_in, answers, condition,
    notes}}). A completed or cancelled inspection is refused (409)."""
    require_role(acting_user, INSPECTORS, "Only the FOG Manager and inspectors fill in inspections.")
    inspection = Inspection.objects.select_for_update().select_related("establishment").get(pk=inspection.pk)
    require_draft(inspection)
    before = snapshot(inspection)
    _apply_site(inspection, changes)
    inspection.save()
    devices = changes.get("devices") or {}
    if devices:
        ruleset = ruleset_on(town_today())
        assessments = {
            a.device_id: a for a in inspection.assessments.select_related("device").select_for_update()
        }
        for device_id, values in devices.items():
            pk = int(device_id) if str(device_id).isdigit() else None
            assessment = assessments.get(pk)
            if assessment is None:
                raise ValidationError({"devices": f"Device {device_id} is not part of this inspection."})
            _apply_device(assessment, values or {}, ruleset)
    audit_record(
        acting_user=acting_user,
        action="inspection.save_draft",
        instance=inspection,
        before=before,
        after=snapshot(inspection),
        note="devices: " + ", ".join(str(k) for k in devices) if devices else "",
    )
    return inspection


@transaction.atomic
def photo_add(
    *,
    inspection: Inspection,
    acting_user,
    file,
    item: str = "",
    device_id: int | None = None,
    caption: str = "",
) -> InspectionPhoto:
    """Attach a photo to a draft (any item, or a device): re-encoded, size-limited, stored
    privately under a random name."""
    require_role(acting_user, INSPECTORS, "Only the FOG Manager and inspectors add photos.")
    inspection = Inspection.objects.select_for_update().get(pk=inspection.pk)
    require_draft(inspection)
    if item and item not in rules.ITEMS and item != rules.FILL_ITEM:
        raise ValidationError({"item": f"{item}: not an item of the checklist."})
    device = None
    if device_id is not None:
        assessment = inspection.assessments.select_related("device").filter(device_id=device_id).first()
        if assessment is None:
            raise ValidationError({"device": "This device is not part of the inspection."})
        device = assessment.device
    content, width, height = reencode_photo(file)
    photo = InspectionPhoto(
        inspection=inspection,
        item=item,
        device=device,
        caption=(caption or "").strip()[:200],
        content_type="image/jpeg",
        size_bytes=content.size,
        width=width,
        height=height,
        uploaded_by_label=actor_label_for(acting_user),
    )
    photo.file.save(content.name, content, save=False)
    photo.save()
    audit_record(
        acting_user=acting_user, action="inspection.photo_add", instance=photo, after=snapshot(photo)
    )
    return photo
