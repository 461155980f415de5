"""Completing an inspection: once, by a key (D1, D4, D8, E3, E6).

In one transaction: the visit's hours are checked against the Town's office hours (D1: flagged,
never refused); refused entry is recorded as the outcome with its D1 finding; each device's depths
become an inspection reading in servicing (``reading_record``), which opens the same E6
requirement a manifest would when the device is over 25%; every failed item opens a finding citing
its provision (items corrected on the spot are closed at once); a follow-up closes the findings
it found corrected. A submit that fails changes nothing, so the saved draft stays as it was; a
retried submit with the same key returns the same inspection and creates nothing.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import finding_close, finding_open
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.roles import INSPECTORS
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_profile, town_zone
from fogcontrol.rules import inspections as rules
from fogcontrol.rules.inspections import FindingDraft
from fogcontrol.servicing.models import SludgeReading
from fogcontrol.servicing.services import reading_record

MAX_KEY = 200


def _check_ready(inspection: Inspection) -> None:
    """Everything a completed report needs, each problem beside its field."""
    errors: dict[str, str] = {}
    if inspection.started_at is None:
        errors["started_at"] = "Record when the visit began."
    if not inspection.inspector_signed_name:
        errors["inspector_signed_name"] = "Type the inspector's name."
    if not inspection.inspector_signature:
        errors["inspector_signature"] = "The inspector signs in the box."
    if inspection.entry != Inspection.Entry.REFUSED and not inspection.fse_declined_to_sign:
        if not inspection.fse_signed_name:
            errors["fse_signed_name"] = (
                "Type the name of the FSE's person on site (or mark that they declined)."
            )
        if not inspection.fse_signature:
            errors["fse_signature"] = "The FSE's person signs in the box (or mark that they declined)."
    if errors:
        raise ValidationError(errors)


def _photos_by_item(inspection: Inspection) -> dict[tuple[str, int | None], list[dict]]:
    photos: dict[tuple[str, int | None], list[dict]] = {}
    for photo in inspection.photos.all():
        ref = {"id": photo.pk, "url": reverse("inspections:photo", args=[photo.pk])}
        photos.setdefault((photo.item, photo.device_id), []).append(ref)
    return photos


def _open_findings(inspection, drafts, *, device, day, photos, acting_user) -> list[Finding]:
    opened = []
    for draft in drafts:
        note = inspection.item_notes.get(draft.item, "")
        description = f"{draft.description}. {note}" if note else draft.description
        finding = finding_open(
            establishment=inspection.establishment,
            device=device,
            provision=draft.provision,
            item=draft.item,
            description=description,
            reading=draft.reading,
            photos=photos.get((draft.item, device.pk if device else None), []),
            began_on=day,
            source=Finding.Source.INSPECTION,
            source_id=inspection.pk,
            acting_user=acting_user,
        )
        if draft.item in inspection.corrected_items:
            finding_close(
                finding=finding,
                acting_user=acting_user,
                closed_on=day,
                how=Finding.ClosedHow.ON_THE_SPOT,
                evidence=f"Corrected during inspection {inspection.pk}, in the inspector's presence.",
            )
        opened.append(finding)
    return opened


def _assess_devices(inspection, *, day, ruleset, photos, acting_user) -> None:
    for assessment in inspection.assessments.select_related("device"):
        device = assessment.device
        try:
            result = rules.device_assessment(
                kind=device.kind,
                answers=assessment.answers,
                fog_depth_in=assessment.fog_depth_in,
                solids_depth_in=assessment.solids_depth_in,
                total_depth_in=device.total_design_depth_in,
                ruleset=ruleset,
            )
        except ValueError as exc:
            raise ValidationError({f"devices.{device.pk}": str(exc)}) from exc
        if assessment.fog_depth_in is not None and assessment.solids_depth_in is not None:
            # The same service a manifest's reading goes through: over 25% opens E6 (immediate service).
            assessment.reading = reading_record(
                device=device,
                acting_user=acting_user,
                taken_on=day,
                fog_depth_in=assessment.fog_depth_in,
                solids_depth_in=assessment.solids_depth_in,
                source=SludgeReading.Source.INSPECTION,
                notes=f"Inspection {inspection.pk}",
            )
        assessment.fill_ratio = round(result.fill_ratio, 4) if result.fill_ratio is not None else None
        assessment.over_limit = result.over_limit
        assessment.save(update_fields=["reading", "fill_ratio", "over_limit"])
        _open_findings(
            inspection, result.findings, device=device, day=day, photos=photos, acting_user=acting_user
        )


def _close_followed_up(inspection, *, day, acting_user) -> None:
    if not inspection.closes_findings:
        return
    findings = Finding.objects.filter(pk__in=inspection.closes_findings).select_related("establishment")
    found = {finding.pk: finding for finding in findings}
    for pk in inspection.closes_findings:
        finding = found.get(pk)
        if finding is None or finding.establishment_id != inspection.establishment_id:
            raise ValidationError({"closes_findings": f"Finding {pk} is not one of this establishment's."})
        if finding.closed_on is not None:
            continue
        finding_close(
            finding=finding,
            acting_user=acting_user,
            closed_on=day,
            how=Finding.ClosedHow.FOLLOW_UP,
            evidence=f"Found corrected at follow-up inspection {inspection.pk}.",
            closed_by_source_id=inspection.pk,
        )


@transaction.atomic
def inspection_complete(*, inspection: Inspection, acting_user, idempotency_key: str) -> Inspection:
    """Complete a draft once (see the module's docstring). Returns the inspection; a retry with the
    key that completed it returns it unchanged; any other change to a completed one is 409."""
    require_role(acting_user, INSPECTORS, "Only the FOG Manager and inspectors complete inspections.")
    key = (idempotency_key or "").strip()
    if not key or len(key) > MAX_KEY:
        raise ValidationError(
            {"idempotency_key": f"Send a key of 1 to {MAX_KEY} characters with the submit."}
        )
    inspection = Inspection.objects.select_for_update().select_related("establishment").get(pk=inspection.pk)
    if inspection.status == Inspection.Status.COMPLETED and inspection.idempotency_key == key:
        return inspection
    if inspection.status != Inspection.Status.DRAFT:
        raise StateConflict(
            f"This inspection is {inspection.get_status_display().lower()}; it can no longer change."
        )
    if Inspection.objects.filter(idempotency_key=key).exclude(pk=inspection.pk).exists():
        raise ValidationError({"idempotency_key": "This key completed another inspection; use a new key."})
    _check_ready(inspection)
    before = snapshot(inspection)
    if inspection.finished_at is None:
        inspection.finished_at = max(timezone.now(), inspection.started_at)
    zone = town_zone()
    started = timezone.localtime(inspection.started_at, zone)
    finished = timezone.localtime(inspection.finished_at, zone)
    day = started.date()
    hours = rules.visit_hours_check(
        started_at=started.replace(tzinfo=None),
        finished_at=finished.replace(tzinfo=None),
        office_hours=town_profile().office_hours,
        calendar=town_calendar(),
    )
    inspection.outside_hours = hours.outside
    inspection.hours_explanation = hours.explanation.as_record()
    photos = _photos_by_item(inspection)
    entry = rules.entry_findings(
        refused=inspection.entry == Inspection.Entry.REFUSED,
        delayed=inspection.entry == Inspection.Entry.DELAYED,
        minutes_delayed=inspection.entry_delay_minutes,
    )
    _open_findings(inspection, entry, device=None, day=day, photos=photos, acting_user=acting_user)
    if inspection.entry != Inspection.Entry.REFUSED:
        ruleset = ruleset_on(day)
        _assess_devices(inspection, day=day, ruleset=ruleset, photos=photos, acting_user=acting_user)
        try:
            site: tuple[FindingDraft, ...] = rules.checklist_findings(inspection.answers, ruleset=ruleset)
        except ValueError as exc:
            raise ValidationError({"answers": str(exc)}) from exc
        _open_findings(inspection, site, device=None, day=day, photos=photos, acting_user=acting_user)
        _close_followed_up(inspection, day=day, acting_user=acting_user)
    inspection.visited_on = day
    inspection.status = Inspection.Status.COMPLETED
    inspection.idempotency_key = key
    inspection.completed_at = timezone.now()
    inspection.completed_by = person(acting_user)
    inspection.completed_by_label = actor_label_for(acting_user)
    inspection.save()
    audit_record(
        acting_user=acting_user,
        action="inspection.complete",
        instance=inspection,
        before=before,
        after=snapshot(inspection),
    )
    return inspection
