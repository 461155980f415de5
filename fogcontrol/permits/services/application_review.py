"""Applications for a FOG permit: submit once, as a copy of record (B3, B4), and review (B5).

Every service takes keyword-only arguments and an `acting_user`, runs in one transaction, checks
the state transition (fogcontrol.permits.states) and leaves an audit entry and a timeline event.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import actor_label_for, is_job, person
from fogcontrol.core.languages import Language
from fogcontrol.core.permissions import has_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.permits.models import (
    SINK_KINDS,
    ApplicationDocument,
    ApplicationFixture,
    ApplicationKind,
    ApplicationMessage,
    ApplicationRoute,
    ApplicationStatus,
    ApplicationSubmission,
    PermitApplication,
    PermitNotice,
)
from fogcontrol.permits.selectors_l5 import l5_warnings
from fogcontrol.permits.services.applications import (
    B3_REQUIRED,
    FEE_FOR_KIND,
    lock_application,
    move_application,
    save_application,
    store_document,
)
from fogcontrol.permits.services.common import (
    REVIEWERS,
    audited_save,
    require_applicant_or_reviewer,
    require_fog_manager,
    require_reviewer,
)
from fogcontrol.permits.services.fees import fee_assess
from fogcontrol.permits.services.notice_wordings import (
    application_rejected_wording,
    information_requested_wording,
    l5_denial_wording,
)
from fogcontrol.permits.services.notices import notice_send
from fogcontrol.permits.states import TransitionNotAllowed, check_application_transition
from fogcontrol.program.selectors import town_today

# --- Submission ----------------------------------------------------------------------------


def _field_label(name: str) -> str:
    """A B3 field as the application form labels it in the reader's language; in English as the
    model words it (lower case, inside the sentence)."""
    label = str(PermitApplication._meta.get_field(name).verbose_name)
    shown = gettext(capfirst(label))
    return label if shown == capfirst(label) else shown


def _completeness_errors(application: PermitApplication, fixtures: list[ApplicationFixture]) -> dict:
    errors: dict[str, list[str]] = {}
    if application.route == ApplicationRoute.FULL:
        for name in B3_REQUIRED:
            value = getattr(application, name)
            if value in (None, ""):
                errors[name] = [
                    _("B3 asks for the %(label)s: fill it in before submitting.")
                    % {"label": _field_label(name)}
                ]
        if not fixtures:
            errors["fixtures"] = [
                _("B3 asks for the list of kitchen appliances and plumbing fixtures: add at least one.")
            ]
        missing = [
            f.get_kind_display()
            for f in fixtures
            if f.kind in SINK_KINDS and f.drains_to_device and not f.has_dimensions
        ]
        if missing:
            errors.setdefault("fixtures", []).append(
                _(
                    "Give the compartment length, width and depth (inches) of: %(fixtures)s; the grease "
                    "trap size is worked out from them (A5)."
                )
                % {"fixtures": ", ".join(str(kind) for kind in missing)}
            )
        if not (application.device_id or application.device_kind):
            errors["device_kind"] = [_("Say what grease control device serves the kitchen (A3).")]
    else:
        if not application.applicant_name:
            errors["applicant_name"] = [_("Give the applicant's name.")]
        if not application.building_permit_number:
            errors["building_permit_number"] = [
                _("B4: give the number of the Building and Safety permit for the installed device.")
            ]
        if not any(d.kind == ApplicationDocument.Kind.BUILDING_PERMIT for d in application.documents.all()):
            errors["documents"] = [
                _(
                    "B4: attach the Building and Safety permit or documents confirming the device is installed."
                )
            ]
        if not (application.device_id or application.device_kind):
            errors["device_kind"] = [_("Say what grease control device is installed.")]
    if application.kind == ApplicationKind.CHANGE and not application.change_reasons:
        errors["change_reasons"] = [_("B8: say what changed: ownership, food types or operations.")]
    return errors


def _copy_of_record(application: PermitApplication, fixtures, documents) -> dict:
    """What was submitted, as data: the fields, the fixture list and the files' digests."""
    fields = snapshot(application)
    for name in ("submitted_copy", "submitted_digest", "updated_at", "status"):
        fields.pop(name, None)
    return {
        "application": fields,
        "establishment": {
            "business_name": application.establishment.business_name,
            "licence_number": application.establishment.licence_number,
            "site_address": application.establishment.site_address,
        },
        "previous_permit": application.previous_permit.number if application.previous_permit else None,
        "fixtures": [snapshot(item) for item in fixtures],
        "documents": [
            {"name": d.original_name, "kind": d.kind, "sha256": d.sha256, "size_bytes": d.size_bytes}
            for d in documents
        ],
    }


@transaction.atomic
def application_submit(*, application: PermitApplication, acting_user) -> PermitApplication:
    """Submit a draft, once (B3 / B4). It becomes a copy of record, and the fee is recorded as owed.

    Incomplete applications are refused with every missing item named; the draft is kept.
    """
    require_applicant_or_reviewer(acting_user, application.establishment, "submit this application")
    application = lock_application(application)
    check_application_transition(application.status, ApplicationStatus.SUBMITTED)
    fixtures = list(application.fixtures.all())
    errors = _completeness_errors(application, fixtures)
    if errors:
        raise ValidationError(errors)
    before = snapshot(application)
    now = timezone.now()
    today = town_today()
    application.submitted_at = now
    application.submitted_by = person(acting_user)
    application.submitted_by_label = actor_label_for(acting_user)
    copy = _copy_of_record(application, fixtures, list(application.documents.all()))
    copy["submitted_at"] = now.isoformat()
    copy["submitted_by"] = application.submitted_by_label
    application.submitted_copy = copy
    application.submitted_digest = hashlib.sha256(
        json.dumps(copy, sort_keys=True, default=str).encode()
    ).hexdigest()
    move_application(
        application, ApplicationStatus.SUBMITTED, acting_user=acting_user, action="application.submit"
    )
    save_application(application, acting_user=acting_user, action="application.submit", before=before)
    record_append(
        ApplicationSubmission(application=application, submission=canonical_submission(copy)),
        acting_user=acting_user,
    )
    fee_assess(
        acting_user=acting_user,
        kind=FEE_FOR_KIND[application.kind],
        establishment=application.establishment,
        on=today,
        description=f"{application.get_kind_display()} — application {application.reference}",
        application=application,
    )
    return application


# --- Review (B5) ---------------------------------------------------------------------------


def _review_step(application, *, acting_user, target, action, note="", **changes) -> PermitApplication:
    application = lock_application(application)
    before = snapshot(application)
    move_application(application, target, acting_user=acting_user, action=action, note=note)
    for name, value in changes.items():
        setattr(application, name, value)
    if application.reviewer_id is None and not is_job(acting_user):
        application.reviewer = person(acting_user)
    return save_application(application, acting_user=acting_user, action=action, before=before, note=note)


@transaction.atomic
def application_start_review(*, application: PermitApplication, acting_user) -> PermitApplication:
    """B5: the FOG Manager's staff take up a submitted application."""
    require_reviewer(acting_user, "review applications")
    return _review_step(
        application,
        acting_user=acting_user,
        target=ApplicationStatus.UNDER_REVIEW,
        action="application.review",
    )


def _post(application, *, acting_user, kind, body) -> ApplicationMessage:
    if not (body or "").strip():
        raise ValidationError({"message": [_("Write the message: it cannot be empty.")]})
    message = ApplicationMessage.objects.create(
        application=application,
        kind=kind,
        body=body.strip(),
        author=person(acting_user),
        author_label=actor_label_for(acting_user),
    )
    audited_save(message, acting_user=acting_user, action=f"application.message.{kind}", creating=True)
    return message


@transaction.atomic
def application_request_information(
    *, application: PermitApplication, acting_user, message: str
) -> PermitApplication:
    """B3: the FOG Manager asks for anything else needed to evaluate the application."""
    require_reviewer(acting_user, "ask an applicant for information")
    application = _review_step(
        application,
        acting_user=acting_user,
        target=ApplicationStatus.INFORMATION_REQUESTED,
        action="application.request_information",
    )
    _post(application, acting_user=acting_user, kind=ApplicationMessage.Kind.REQUEST, body=message)
    notice_send(
        acting_user=acting_user,
        establishment=application.establishment,
        kind=PermitNotice.Kind.INFORMATION_REQUESTED,
        wording=functools.partial(
            information_requested_wording,
            reference=application.reference,
            business=application.establishment.business_name,
            message=message.strip(),
        ),
        sent_on=town_today(),
        application=application,
    )
    return application


@transaction.atomic
def application_respond(
    *, application: PermitApplication, acting_user, message: str, files: Iterable = ()
) -> PermitApplication:
    """The applicant answers a request for information; the answer joins the thread, and review resumes."""
    require_applicant_or_reviewer(acting_user, application.establishment, "answer for this application")
    application = lock_application(application)
    if application.status != ApplicationStatus.INFORMATION_REQUESTED:
        raise TransitionNotAllowed(
            "The FOG Manager has not asked for information on this application: add a note instead."
        )
    _post(application, acting_user=acting_user, kind=ApplicationMessage.Kind.RESPONSE, body=message)
    for uploaded in files:
        store_document(
            application,
            acting_user=acting_user,
            uploaded_file=uploaded,
            kind=ApplicationDocument.Kind.INFORMATION,
        )
    before = snapshot(application)
    move_application(
        application, ApplicationStatus.UNDER_REVIEW, acting_user=acting_user, action="application.respond"
    )
    return save_application(application, acting_user=acting_user, action="application.respond", before=before)


@transaction.atomic
def application_add_note(*, application: PermitApplication, acting_user, message: str) -> ApplicationMessage:
    """A note on the thread, by staff or the applicant, in any state; nothing else changes."""
    require_applicant_or_reviewer(acting_user, application.establishment, "write on this application")
    return _post(application, acting_user=acting_user, kind=ApplicationMessage.Kind.NOTE, body=message)


@transaction.atomic
def application_accept(*, application: PermitApplication, acting_user, note: str = "") -> PermitApplication:
    """B5: the FOG Manager accepts the data provided; next, an optional inspection, then issuance."""
    require_fog_manager(acting_user, "accept applications")
    return _review_step(
        application,
        acting_user=acting_user,
        target=ApplicationStatus.ACCEPTED,
        action="application.accept",
        note=note,
        accepted_at=timezone.now(),
    )


@transaction.atomic
def application_schedule_inspection(
    *, application: PermitApplication, acting_user, scheduled_for, inspector=None
) -> PermitApplication:
    """B5: an on-site inspection of the waste discharge and treatment systems, after acceptance."""
    require_reviewer(acting_user, "schedule inspections")
    if scheduled_for is None:
        raise ValidationError({"scheduled_for": ["Give the date and time of the inspection."]})
    if inspector is not None and not has_role(inspector, REVIEWERS):
        raise ValidationError({"inspector": [f"{inspector} is not an inspector or the FOG Manager."]})
    return _review_step(
        application,
        acting_user=acting_user,
        target=ApplicationStatus.INSPECTION_SCHEDULED,
        action="application.schedule_inspection",
        note=f"Inspection on {timezone.localtime(scheduled_for):%Y-%m-%d %H:%M}",
        inspection_scheduled_for=scheduled_for,
        inspector=inspector or person(acting_user),
        inspection_passed=None,
        inspected_on=None,
    )


@transaction.atomic
def application_record_inspection(
    *, application: PermitApplication, acting_user, inspected_on, passed: bool, notes: str = ""
) -> PermitApplication:
    """B5: the result of the on-site inspection. Passed: ready to issue. Failed: stays scheduled for a revisit."""
    require_reviewer(acting_user, "record inspections")
    if application.status != ApplicationStatus.INSPECTION_SCHEDULED:
        raise TransitionNotAllowed("No inspection is scheduled for this application: schedule one first.")
    if inspected_on is None:
        raise ValidationError({"inspected_on": ["Give the date of the inspection."]})
    if inspected_on > town_today():
        raise ValidationError({"inspected_on": ["An inspection cannot be recorded before it happens."]})
    if passed is None:
        raise ValidationError({"passed": ["Say whether the inspection passed."]})
    if not passed and not (notes or "").strip():
        raise ValidationError({"notes": ["Say what failed, so the applicant knows what to correct."]})
    target = ApplicationStatus.ACCEPTED if passed else ApplicationStatus.INSPECTION_SCHEDULED
    return _review_step(
        application,
        acting_user=acting_user,
        target=target,
        action="application.inspection",
        note=("Passed" if passed else "Failed") + (f": {notes.strip()}" if notes else ""),
        inspected_on=inspected_on,
        inspection_passed=passed,
        inspection_notes=notes.strip(),
    )


@transaction.atomic
def application_reject(
    *, application: PermitApplication, acting_user, reasons: str, deny_under_l5: bool = False
) -> PermitApplication:
    """The FOG Manager rejects an application, giving reasons; the applicant is told. With
    ``deny_under_l5`` the reasons begin with L5 and the revoked permits and orders the application's
    business is associated with (refused when there is none)."""
    require_fog_manager(acting_user, "reject applications")
    if not (reasons or "").strip():
        raise ValidationError(
            {"reasons": ["Give the reasons for the rejection: the applicant is told them."]}
        )
    given, warnings = reasons.strip(), []
    if deny_under_l5:
        warnings = l5_warnings(application)
        if not warnings:
            raise ValidationError(
                {"deny_under_l5": ["L5: this application is not associated with any revoked permit; give "
                                   "other reasons."]}
            )  # fmt: skip
        with translation.override(Language.ENGLISH):
            reasons = l5_denial_wording(warnings) + "\n\n" + given
    application = _review_step(
        application,
        acting_user=acting_user,
        target=ApplicationStatus.REJECTED,
        action="application.reject",
        note=reasons.strip(),
        decided_at=timezone.now(),
        decision_reason=reasons.strip(),
    )
    notice_send(
        acting_user=acting_user,
        establishment=application.establishment,
        kind=PermitNotice.Kind.APPLICATION_REJECTED,
        wording=functools.partial(
            application_rejected_wording,
            reference=application.reference,
            business=application.establishment.business_name,
            reasons=given,
            warnings=warnings,
        ),
        sent_on=town_today(),
        application=application,
    )
    return application


@transaction.atomic
def application_withdraw(
    *, application: PermitApplication, acting_user, reason: str = ""
) -> PermitApplication:
    """The applicant (or staff) withdraws an application that is not yet decided."""
    require_applicant_or_reviewer(acting_user, application.establishment, "withdraw this application")
    return _review_step(
        application,
        acting_user=acting_user,
        target=ApplicationStatus.WITHDRAWN,
        action="application.withdraw",
        note=reason,
        decided_at=timezone.now(),
        decision_reason=reason,
    )
