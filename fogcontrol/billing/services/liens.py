"""Liens (P9) under the two-person rule (issue #15): a penalty delinquent 60 days is on the lien list
(the nightly ``lien_sweep``); one authorised person asks for it to be recorded, a second, different one
approves it (or refuses it with the reason); only then is it taken to the County Recorder and its
recording noted, in force. Once the penalty is paid the release is recorded and its letter printed."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.billing.models import Invoice, Lien
from fogcontrol.billing.services.common import require_biller
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.two_person import decision_note, require_person, require_second_person, stamp_decision
from fogcontrol.program.selectors import town_today


def _still_owed(lien: Lien) -> None:
    if lien.invoice.status != Invoice.Status.OPEN:
        raise StateConflict(
            f"{lien.invoice.number} is {lien.invoice.get_status_display().lower()}: there is nothing to lien (P9)."
        )


@transaction.atomic
def lien_request(*, acting_user, lien: Lien, note: str = "") -> Lien:
    """Ask for a lien on the list (or one refused before) to be recorded. Nothing is recorded until a
    second authorised person approves (``lien_decide``)."""
    require_biller(acting_user, "ask for liens")
    require_person(acting_user, "A lien")
    lien = Lien.objects.select_for_update(of=("self",)).select_related("invoice").get(pk=lien.pk)
    if lien.status not in (Lien.Status.LISTED, Lien.Status.REFUSED):
        raise StateConflict(f"This lien is already {lien.get_status_display().lower()}.")
    _still_owed(lien)
    before = snapshot(lien)
    lien.status = Lien.Status.REQUESTED
    lien.requested_by, lien.requested_by_label = person(acting_user), actor_label_for(acting_user)
    lien.requested_at, lien.request_note = timezone.now(), (note or "").strip()
    lien.decided_by, lien.decided_by_label, lien.decided_at, lien.decision_note = None, "", None, ""
    lien.save()
    audit_record(acting_user=acting_user, action="billing.lien_request", instance=lien, before=before,
                 after=snapshot(lien), note=lien.request_note)  # fmt: skip
    return lien


@transaction.atomic
def lien_decide(*, acting_user, lien: Lien, approve: bool, note: str = "") -> Lien:
    """The second person's decision (two-person rule): not the one who asked. Approved, the lien may
    be taken to the County Recorder and its recording noted; refused, the reason is kept and nothing is
    recorded (it may be asked for again)."""
    require_biller(acting_user, "approve liens")
    lien = Lien.objects.select_for_update(of=("self",)).select_related("invoice").get(pk=lien.pk)
    if lien.status != Lien.Status.REQUESTED:
        raise StateConflict(
            f"This lien is {lien.get_status_display().lower()}: there is no request to decide."
        )
    require_second_person(acting_user, lien.requested_by_id, "A lien")
    note = decision_note(approve=approve, note=note, what="the lien")
    if approve:
        _still_owed(lien)
    before = snapshot(lien)
    lien.status = Lien.Status.APPROVED if approve else Lien.Status.REFUSED
    stamp_decision(lien, acting_user, note)
    lien.save()
    audit_record(acting_user=acting_user, action="billing.lien_approve" if approve else "billing.lien_refuse",
                 instance=lien, before=before, after=snapshot(lien), note=note)  # fmt: skip
    return lien


@transaction.atomic
def lien_record(*, acting_user, lien: Lien, recorded_on: dt.date, document_number: str) -> Lien:
    """P9: the lien as recorded by the County Recorder (the date and the document number), in force
    from then on. Only a lien a second person approved is recorded."""
    require_biller(acting_user, "record liens")
    lien = Lien.objects.select_for_update(of=("self",)).get(pk=lien.pk)
    if lien.status in (Lien.Status.LISTED, Lien.Status.REQUESTED, Lien.Status.REFUSED):
        raise StateConflict(
            f"This lien is {lien.get_status_display().lower()}: a lien is recorded only once a second "
            "authorised person has approved it (two-person rule)."
        )
    if lien.status != Lien.Status.APPROVED:
        raise StateConflict(f"This lien is already {lien.get_status_display().lower()}.")
    errors = {}
    if not (document_number or "").strip():
        errors["document_number"] = ["Give the County Recorder's document number."]
    if recorded_on is None or recorded_on > town_today():
        errors["recorded_on"] = ["Give the day it was recorded (today or earlier)."]
    if errors:
        raise ValidationError(errors)
    return _note_recorder_document(
        acting_user=acting_user, lien=lien, status=Lien.Status.RECORDED, action="billing.lien_record",
        recorded_on=recorded_on, recording_number=document_number.strip(),
    )  # fmt: skip


@transaction.atomic
def lien_release(*, acting_user, lien: Lien, released_on: dt.date, document_number: str) -> Lien:
    """P9: once the penalty is paid (or cancelled), the lien is released: the release's date and
    document number are kept and the release letter can be printed."""
    require_biller(acting_user, "release liens")
    lien = Lien.objects.select_for_update(of=("self",)).select_related("invoice").get(pk=lien.pk)
    if lien.status != Lien.Status.RECORDED:
        raise StateConflict("Only a recorded lien is released: one not yet recorded is simply not recorded.")
    if lien.invoice.status == Invoice.Status.OPEN:
        raise StateConflict(f"{lien.invoice.number} is not paid: the lien stays until it is.")
    errors = {}
    if not (document_number or "").strip():
        errors["document_number"] = ["Give the document number of the recorded release."]
    if released_on is None or released_on > town_today() or released_on < lien.recorded_on:
        errors["released_on"] = [
            "Give the day the release was recorded (not before the lien, not in the future)."
        ]
    if errors:
        raise ValidationError(errors)
    return _note_recorder_document(
        acting_user=acting_user, lien=lien, status=Lien.Status.RELEASED, action="billing.lien_release",
        released_on=released_on, release_number=document_number.strip(),
    )  # fmt: skip


def _note_recorder_document(*, acting_user, lien: Lien, status: str, action: str, **document) -> Lien:
    """P9: a County Recorder's document (the lien's recording or its release) moves the lien on:
    its day and number are kept on the lien, with the audit entry."""
    before = snapshot(lien)
    lien.status = status
    for field, value in document.items():
        setattr(lien, field, value)
    lien.save()
    audit_record(acting_user=acting_user, action=action, instance=lien, before=before, after=snapshot(lien))
    return lien
