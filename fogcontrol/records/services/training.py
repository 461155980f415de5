"""C4 employee training: record a session, its roster signed on screen (or its signed sheet), and
new hires, whose training falls due at hiring. Every write: keyword-only arguments, an acting user
(or a job label), one transaction, an audit entry."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.images import signature_from_data_url
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.permits.uploads import check_upload
from fogcontrol.program.selectors import town_today
from fogcontrol.records.models import TRAINING_SUBJECTS, Employee, TrainingAttendance, TrainingSession
from fogcontrol.records.roles import RECORD_KEEPERS
from fogcontrol.records.services.common import CHAIN_FIELDS, require_bound
from fogcontrol.registry.models import FoodServiceEstablishment


def _check_keeper(acting_user, establishment, what: str) -> None:
    require_role(acting_user, RECORD_KEEPERS, f"Only the FSE and Town staff {what}.")
    require_bound(acting_user, establishment, what)


def _not_future(day: dt.date, field: str) -> None:
    if day > town_today():
        raise ValidationError({field: _("This date is in the future: record what has happened.")})


@transaction.atomic
def employee_add(
    *, establishment: FoodServiceEstablishment, name: str, hire_date: dt.date, acting_user
) -> Employee:
    """Record an employee and the hire date: training falls due at hiring (C4). The same name and
    hire date at the same establishment is the same person (returned as it is)."""
    _check_keeper(acting_user, establishment, "record employees")
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"employee_name": _("Give the employee's name.")})
    _not_future(hire_date, "hire_date")
    existing = Employee.objects.filter(establishment=establishment, name=name, hire_date=hire_date).first()
    if existing is not None:
        return existing
    employee = Employee(establishment=establishment, name=name[:150], hire_date=hire_date)
    employee.full_clean()
    employee.save()
    audit_record(acting_user=acting_user, action="employee.add", instance=employee, after=snapshot(employee))
    return employee


@transaction.atomic
def training_session_record(
    *,
    establishment: FoodServiceEstablishment,
    held_on: dt.date,
    trainer: str,
    subjects,
    acting_user,
    language: str = TrainingSession.Language.ENGLISH,
    notes: str = "",
    signed_sheet=None,
) -> TrainingSession:
    """Record a training session (C4): the day, the trainer, the subjects covered (of the four C4
    names) and the language; optionally the signed roster sheet as a PDF or image (checked by
    content, stored under a random name). The session is a copy of record on its chain (F5)."""
    _check_keeper(acting_user, establishment, "record training")
    subjects = list(dict.fromkeys(subjects or []))
    unknown = [subject for subject in subjects if subject not in TRAINING_SUBJECTS]
    if unknown or not subjects:
        raise ValidationError(
            {
                "subjects": _("Choose the C4 subjects covered from: %(subjects)s.")
                % {"subjects": ", ".join(TRAINING_SUBJECTS)}
            }
        )
    if not (trainer or "").strip():
        raise ValidationError({"trainer": _("Name the person who gave the training.")})
    _not_future(held_on, "held_on")
    session = TrainingSession(
        establishment=establishment,
        held_on=held_on,
        trainer=trainer.strip(),
        subjects=[key for key in TRAINING_SUBJECTS if key in subjects],
        language=language,
        notes=(notes or "").strip(),
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    if signed_sheet is not None:
        session.signed_sheet_type, session.signed_sheet_sha256 = check_upload(signed_sheet, "signed_sheet")
        session.signed_sheet = signed_sheet
        session.signed_sheet_name = (signed_sheet.name or "roster")[:255]
    session.submission = canonical_submission(
        {
            "establishment": establishment.pk,
            "held_on": held_on,
            "trainer": session.trainer,
            "subjects": session.subjects,
            "language": session.language,
            "notes": session.notes,
            "signed_sheet": (
                {"name": session.signed_sheet_name, "sha256": session.signed_sheet_sha256}
                if signed_sheet is not None
                else None
            ),
        }
    )
    session.full_clean(exclude=CHAIN_FIELDS)
    if signed_sheet is not None:
        # Written first (a random name), so the record's hash covers its stored name.
        session.signed_sheet.save(signed_sheet.name or "roster", signed_sheet, save=False)
    record_append(session, acting_user=acting_user)
    audit_record(acting_user=acting_user, action="training.record", instance=session, after=snapshot(session))
    return session


@transaction.atomic
def training_attendance_sign(
    *,
    session: TrainingSession,
    employee_name: str,
    hire_date: dt.date,
    acting_user,
    signature: str = "",
) -> TrainingAttendance:
    """Add an employee to a session's roster (C4: "employee signatures retained"). The signature is
    drawn on screen (a PNG data URL, re-encoded); it may be left out only when the session's signed
    sheet was uploaded. An employee signs a session once (409 the second time). Each line is a copy
    of record on its chain: a signature is given once and never redrawn (F5)."""
    _check_keeper(acting_user, session.establishment, "sign training rosters")
    if not signature and not session.signed_sheet:
        raise ValidationError(
            {"signature": _("Sign in the box, or upload the signed sheet with the training session.")}
        )
    image = signature_from_data_url(signature, field="signature") if signature else None
    employee = employee_add(
        establishment=session.establishment, name=employee_name, hire_date=hire_date, acting_user=acting_user
    )
    if TrainingAttendance.objects.filter(session=session, employee=employee).exists():
        raise StateConflict(_("%(name)s is already on this training's roster.") % {"name": employee.name})
    attendance = TrainingAttendance(session=session, employee=employee)
    png_sha256 = None
    if image is not None:
        png_sha256 = hashlib.sha256(image.read()).hexdigest()
        image.seek(0)
        attendance.signature.save("signature.png", image, save=False)
        attendance.signed_at = timezone.now()
    attendance.submission = canonical_submission(
        {
            "session": session.pk,
            "employee": {"id": employee.pk, "name": employee.name, "hire_date": employee.hire_date},
            "signature": {"sha256": png_sha256} if png_sha256 else "on the signed sheet",
        }
    )
    record_append(attendance, acting_user=acting_user)
    audit_record(
        acting_user=acting_user, action="training.sign", instance=attendance, after=snapshot(attendance)
    )
    return attendance
