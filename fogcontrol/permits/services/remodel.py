"""Expansion, remodel and process change: the 60-day notice (G1) and the plan review (G2)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import person
from fogcontrol.permits.models import FeeKind, RemodelNotice
from fogcontrol.permits.services.common import audited_save, require_applicant_or_reviewer, require_reviewer
from fogcontrol.permits.services.fees import fee_assess
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.uploads import check_upload
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import remodel_notice_latest


@transaction.atomic
def remodel_notice_file(
    *,
    acting_user,
    establishment,
    kind: str,
    description: str,
    planned_start: dt.date,
    filed_on: dt.date | None = None,
) -> RemodelNotice:
    """G1: the FSE's written notice of a planned expansion, remodel or process change.

    A notice filed less than `remodel_notice_days` before the planned start is kept and flagged late,
    with the working; plan review is requested at once (G2).
    """
    require_applicant_or_reviewer(acting_user, establishment, "file a remodel notice")
    today = town_today()
    filed_on = filed_on or today
    errors = {}
    if filed_on > today:
        errors["filed_on"] = [_("A notice cannot be filed in the future.")]
    if planned_start is None:
        errors["planned_start"] = [_("Give the planned start date of the work.")]
    if not (description or "").strip():
        errors["description"] = [_("Describe the change: what is built, remodelled or done differently.")]
    if kind not in RemodelNotice.Kind.values:
        errors["kind"] = [_("Choose from: %(values)s.") % {"values": ", ".join(RemodelNotice.Kind.values)}]
    if errors:
        raise ValidationError(errors)
    deadline = remodel_notice_latest(planned_start, ruleset=ruleset_on(filed_on), calendar=town_calendar())
    assert deadline.latest is not None
    late = filed_on > deadline.latest
    notice = RemodelNotice(
        establishment=establishment,
        kind=kind,
        description=description.strip(),
        planned_start=planned_start,
        filed_on=filed_on,
        latest_notice_on=deadline.latest,
        late=late,
        explanation=deadline.explanation.as_record(),
        filed_by=person(acting_user),
    )
    notice.full_clean()
    notice.save()
    notice.reference = f"RN-{filed_on:%Y}-{notice.pk:05d}"
    audited_save(notice, acting_user=acting_user, action="remodel.notice", creating=True)
    return notice


@transaction.atomic
def remodel_plans_submit(*, notice: RemodelNotice, acting_user, plans) -> RemodelNotice:
    """G2: the plans for review, with the plan review fee; resubmitted after revisions are asked for."""
    require_applicant_or_reviewer(acting_user, notice.establishment, "submit plans")
    notice = RemodelNotice.objects.select_for_update().get(pk=notice.pk)
    if notice.plan_review not in (
        RemodelNotice.PlanReview.AWAITING_PLANS,
        RemodelNotice.PlanReview.REVISIONS_REQUIRED,
    ):
        raise TransitionNotAllowed(
            f"The plan review is {notice.get_plan_review_display().lower()}: plans are not awaited."
        )
    if plans is None:
        raise ValidationError({"plans": [_("Attach the plans (PDF).")]})
    _content_type, sha256 = check_upload(plans, field="plans")
    first_submittal = notice.plan_review == RemodelNotice.PlanReview.AWAITING_PLANS
    before = snapshot(notice)
    notice.plans = plans
    notice.plans_sha256 = sha256
    notice.plan_review = RemodelNotice.PlanReview.PLANS_RECEIVED
    audited_save(notice, acting_user=acting_user, action="remodel.plans", before=before)
    if first_submittal:
        fee_assess(
            acting_user=acting_user,
            kind=FeeKind.PLAN_REVIEW,
            establishment=notice.establishment,
            on=town_today(),
            description=f"Plan review — {notice.reference}",
            remodel_notice=notice,
        )
    return notice


@transaction.atomic
def remodel_plan_review_decide(
    *, notice: RemodelNotice, acting_user, approved: bool, notes: str = ""
) -> RemodelNotice:
    """G2: the plans are approved (construction permits may then be sought) or revisions are required."""
    require_reviewer(acting_user, "decide plan reviews")
    notice = RemodelNotice.objects.select_for_update().get(pk=notice.pk)
    if notice.plan_review != RemodelNotice.PlanReview.PLANS_RECEIVED:
        raise TransitionNotAllowed("No plans are in review: the FSE must submit them first.")
    if not approved and not (notes or "").strip():
        raise ValidationError({"notes": ["Say what must be revised."]})
    before = snapshot(notice)
    notice.plan_review = (
        RemodelNotice.PlanReview.APPROVED if approved else RemodelNotice.PlanReview.REVISIONS_REQUIRED
    )
    notice.plan_review_notes = (notes or "").strip()
    notice.decided_at = timezone.now()
    notice.decided_by = person(acting_user)
    return audited_save(notice, acting_user=acting_user, action="remodel.decide", before=before)
