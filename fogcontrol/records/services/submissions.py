"""Reports, plans and data submitted against a requirement (C5, D7, E9, F2, F3, F6), each a copy
of record on the chain like a manifest (F1, F5: never changed, kept at least the retention period);
staff review each (accepted, or needs correction with a reason); a correction is a new submission
linked to the original, never an edit of it."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.permits.uploads import check_upload
from fogcontrol.program.selectors import town_calendar, town_today
from fogcontrol.records.models import RecordRequirement, RecordSubmission, SubmissionReview
from fogcontrol.records.roles import RECORD_KEEPERS, REVIEWERS
from fogcontrol.records.schedule import requirement_periods
from fogcontrol.records.services.common import require_bound


def _choose_period(requirement: RecordRequirement, period_number: int | None):
    """The report being submitted: the one named, or the earliest not yet submitted. Only reports
    scheduled up to now, and the next one, may be submitted."""
    periods = requirement_periods(requirement, through=town_today(), calendar=town_calendar())
    if period_number is None:
        submitted = set(
            requirement.submissions.filter(corrects__isnull=True).values_list("period_number", flat=True)
        )
        open_periods = [period for period in periods if period.number not in submitted]
        if not open_periods:
            raise StateConflict(_("Every report of this requirement due so far has been submitted."))
        return open_periods[0]
    for period in periods:
        if period.number == period_number:
            return period
    raise ValidationError(
        {"period_number": _("Choose a report from 1 to %(last)s.") % {"last": periods[-1].number}}
    )


def _append(*, requirement, period, uploaded_file, acting_user, note: str, corrects=None) -> RecordSubmission:
    content_type, sha256 = check_upload(uploaded_file)
    name = (uploaded_file.name or "report")[:255]
    # A correction answers for the same report as the original.
    number, due_on = (
        (period.number, period.due_on)
        if corrects is None
        else (corrects.period_number, corrects.period_due_on)
    )
    submission = RecordSubmission(
        requirement=requirement,
        period_number=number,
        period_due_on=due_on,
        corrects=corrects,
        note=(note or "").strip(),
        original_name=name,
        content_type=content_type,
        size_bytes=uploaded_file.size,
        sha256=sha256,
        submission=canonical_submission(
            {
                "requirement": requirement.pk,
                "kind": requirement.kind,
                "period_number": number,
                "corrects": corrects.pk if corrects is not None else None,
                "file": {"name": name, "sha256": sha256, "size": uploaded_file.size},
                "note": (note or "").strip(),
            }
        ),
    )
    # The file is written first (a random name), so the hash covers its stored name.
    submission.file.save(uploaded_file.name or "report", uploaded_file, save=False)
    record_append(submission, acting_user=acting_user)
    audit_record(
        acting_user=acting_user,
        action="record_submission.correct" if corrects is not None else "record_submission.submit",
        instance=submission,
        after=snapshot(submission),
    )
    return submission


@transaction.atomic
def submission_submit(
    *,
    requirement: RecordRequirement,
    uploaded_file,
    acting_user,
    period_number: int | None = None,
    note: str = "",
) -> RecordSubmission:
    """Submit a report against a requirement (C5, D7, E9, F2, F3, F6): the file (PDF or image,
    checked by content) becomes a copy of record for the report named, or the earliest one owed."""
    require_role(acting_user, RECORD_KEEPERS, "Only the FSE and Town staff submit records.")
    require_bound(acting_user, requirement.establishment, "submit records")
    period = _choose_period(requirement, period_number)
    return _append(
        requirement=requirement,
        period=period,
        uploaded_file=uploaded_file,
        acting_user=acting_user,
        note=note,
    )


@transaction.atomic
def submission_correct(
    *, original: RecordSubmission, uploaded_file, acting_user, note: str = ""
) -> RecordSubmission:
    """Submit a correction of a submission staff found wanting: a new copy of record linked to the
    original, which stays as it was (F1, F5). Only once per original, and only when asked (409)."""
    require_role(acting_user, RECORD_KEEPERS, "Only the FSE and Town staff submit corrections.")
    requirement = original.requirement
    require_bound(acting_user, requirement.establishment, "submit corrections")
    review = SubmissionReview.objects.filter(submission=original).first()
    if review is None or review.outcome != SubmissionReview.Outcome.NEEDS_CORRECTION:
        raise StateConflict(_("Only a submission staff found to need correction can be corrected."))
    if original.corrections.exists():
        raise StateConflict(_("This submission was already corrected; correct the latest one."))
    return _append(
        requirement=requirement,
        period=None,
        uploaded_file=uploaded_file,
        acting_user=acting_user,
        note=note,
        corrects=original,
    )


@transaction.atomic
def submission_review(
    *,
    submission: RecordSubmission,
    outcome: str,
    acting_user,
    reason: str = "",
    reviewed_on: dt.date | None = None,
) -> SubmissionReview:
    """Staff's review of a submission: accepted, or needs correction with the reason the FSE will
    read. A submission is reviewed once (409 the second time)."""
    require_role(acting_user, REVIEWERS, "Only the FOG Manager and inspectors review records.")
    if outcome not in SubmissionReview.Outcome.values:
        raise ValidationError({"outcome": "Choose accepted or needs_correction."})
    reason = (reason or "").strip()
    if outcome == SubmissionReview.Outcome.NEEDS_CORRECTION and not reason:
        raise ValidationError({"reason": "Say what must be corrected."})
    RecordSubmission.objects.filter(pk=submission.pk).select_for_update().values("pk").first()
    if SubmissionReview.objects.filter(submission=submission).exists():
        raise StateConflict("This submission was already reviewed.")
    review = SubmissionReview(
        submission=submission,
        outcome=outcome,
        reason=reason,
        reviewed_on=reviewed_on or town_today(),
        reviewed_by=person(acting_user),
        reviewed_by_label=actor_label_for(acting_user),
    )
    review.full_clean()
    review.save()
    audit_record(
        acting_user=acting_user, action="record_submission.review", instance=review, after=snapshot(review)
    )
    return review
