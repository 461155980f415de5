"""The administrative complaint (P5, P6): served by personal delivery or certified mail with its
hearing set within the P5 limit of service (the Town's maximum: never later); the respondent's waiver
(P6); the appeal to the Town Council within the P6 window, and the Council's outcome."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement import documents_orders as documents
from fogcontrol.enforcement.documents import words
from fogcontrol.enforcement.models import AdministrativeComplaint, Case, Hearing, ServiceMethod, Violation
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, HEARING_RECORDERS
from fogcontrol.enforcement.services.hearings import HEARING_OFFICERS_ONLY, rules_for, stamp
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.deadlines import complaint_hearing_due
from fogcontrol.rules.explain import fmt_date, fmt_money

COMPLAINT_METHODS = (ServiceMethod.PERSONAL_DELIVERY, ServiceMethod.CERTIFIED_MAIL)
OFFICERS_ONLY = "Only the FOG Manager and inspectors issue administrative complaints."


def complaint_hearing_limit(served_on: dt.date):
    """P5: the latest hearing date for a complaint served on ``served_on`` (a Deadline)."""
    return complaint_hearing_due(served_on, **rules_for(served_on))


@transaction.atomic
def complaint_serve(
    *,
    acting_user,
    case: Case,
    violations: Sequence[Violation],
    statement: str,
    law_violated: str,
    proposed_penalty: Decimal,
    issued_on: dt.date,
    service_method: str,
    served_on: dt.date | None = None,
    article_number: str = "",
    hearing_on: dt.date,
    hearing_place: str,
) -> AdministrativeComplaint:
    """P5: issue and serve the complaint, and set its hearing within the P5 limit of service.

    By certified mail with no ``served_on``, the complaint is issued **waiting for mailing**: its
    letter waits in the certified mail run, and its hearing limit counts from the day of issue (the
    earliest service: never later than the law allows) until the mail log records the mailing date
    (``complaint_served``, through notices' ``document_served``)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = Case.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=case.pk)
    if case.closed_on:
        raise StateConflict(f"The case was closed on {fmt_date(case.closed_on)}.")
    errors: dict[str, str] = {}
    ids = set(case.violations.values_list("pk", flat=True))
    chosen = list(violations)
    if not chosen or any(v.pk not in ids for v in chosen):
        errors["violations"] = "Choose at least one violation of this case."
    for field, value in (
        ("statement", statement),
        ("law_violated", law_violated),
        ("hearing_place", hearing_place),
    ):
        if not (value or "").strip():
            errors[field] = {
                "statement": "P5: state the acts or failures that are the violation.",
                "law_violated": "P5: name the provisions of law authorising the penalty.",
                "hearing_place": "Give the place of the hearing.",
            }[field]
    if proposed_penalty is None or proposed_penalty < 0:
        errors["proposed_penalty"] = "P5: give the proposed penalty, zero or more."
    if service_method not in COMPLAINT_METHODS:
        errors["service_method"] = (
            "P5: a complaint is served by personal delivery (personal_delivery) or certified mail (certified_mail)."
        )
    elif service_method == ServiceMethod.CERTIFIED_MAIL and not (article_number or "").strip():
        errors["article_number"] = "P5: give the certified mail article number."
    today = town_today()
    if service_method == ServiceMethod.PERSONAL_DELIVERY and served_on is None:
        errors["served_on"] = "P5: give the day the complaint was delivered in person."
    elif issued_on is None or issued_on > today or (served_on and served_on > today):
        errors["served_on"] = "Record the service once it is done: dates today or earlier."
    elif served_on and served_on < issued_on:
        errors["served_on"] = "A complaint is served on or after the day it is issued."
    if errors:
        raise ValidationError(errors)
    start = served_on or issued_on
    limit = complaint_hearing_limit(start)
    if hearing_on is None or not (start < hearing_on <= limit.due):
        counted = f"served {fmt_date(served_on)}" if served_on else (
            f"counted from the issue on {fmt_date(issued_on)} until the mailing date is recorded")  # fmt: skip
        raise ValidationError(
            {"hearing_on": f"P5: the hearing is held within {ruleset_days(start)} days after service, no later "
             f"than {fmt_date(limit.due)} ({counted})."}
        )  # fmt: skip
    hearing = Hearing(
        case=case,
        kind=Hearing.Kind.COMPLAINT,
        first_scheduled_on=hearing_on,
        scheduled_on=hearing_on,
        place=hearing_place.strip(),
        latest_on=limit.due,
        explanation={"P5": limit.explanation.as_record(), **({} if served_on else {"P5-waiting": True})},
    )
    stamp(hearing, acting_user)
    hearing.save()
    complaint = AdministrativeComplaint(
        case=case,
        statement=statement.strip(),
        law_violated=law_violated.strip(),
        proposed_penalty=proposed_penalty,
        issued_on=issued_on,
        service_method=service_method,
        served_on=served_on,
        article_number=(article_number or "").strip(),
        hearing=hearing,
        hearing_latest_on=limit.due,
        explanation={"P5": limit.explanation.as_record(), **({} if served_on else {"P5-waiting": True})},
    )
    stamp(complaint, acting_user)
    complaint.save()
    complaint.reference = f"AC-{issued_on:%Y}-{complaint.pk:05d}"
    complaint.violations.set(chosen)
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_complaint",
        case=case,
        context={
            "complaint_reference": complaint.reference,
            "statement": complaint.statement,
            "law_violated": complaint.law_violated,
            "proposed_penalty": fmt_money(proposed_penalty),
            "hearing_on": words(gettext_noop("%(day)s at %(place)s"), day=hearing_on, place=hearing.place),
            # The rules' working of the last day, said in the letter's language.
            "hearing_latest_on": words(
                gettext_noop("%(day)s (%(working)s)"), day=limit.due, working=limit.explanation.steps[-1]
            ),
        },
        subject=complaint,
        service_method=service_method,
        served_on=served_on,
        article_number=complaint.article_number,
        issued_on=issued_on,
    )
    complaint.document_id = document.pk
    complaint.save(update_fields=["reference", "document_id"])
    audit_record(
        acting_user=acting_user, action="complaint.serve", instance=complaint, after=snapshot(complaint)
    )
    return complaint


@transaction.atomic
def complaint_served(
    *, acting_user, complaint: AdministrativeComplaint, served_on: dt.date, article_number: str = ""
) -> AdministrativeComplaint:
    """P5: the mail log recorded the day the complaint was mailed by certified mail (notices'
    ``document_served``): it is served that day, and the latest hearing date is counted again from
    it (``rules.deadlines.complaint_hearing_due``). Refused, naming P5, when the hearing set in the
    complaint is not after that day, or the hearing was already held."""
    complaint = _locked(complaint)
    hearing = complaint.hearing
    if complaint.served_on == served_on:
        return complaint
    if complaint.waived_on or (hearing and hearing.held_on):
        raise ValidationError(
            {"served_on": f"P5: the hearing of complaint {complaint.reference} was already held or waived: "
             "its service can no longer change."}
        )  # fmt: skip
    limit = complaint_hearing_limit(served_on)
    if hearing and not (served_on < hearing.scheduled_on <= limit.due):
        raise ValidationError(
            {"served_on": f"P5: complaint {complaint.reference} sets its hearing on {fmt_date(hearing.scheduled_on)}, "
             f"which is not within {ruleset_days(served_on)} days after mailing on {fmt_date(served_on)} "
             f"(no later than {fmt_date(limit.due)}). Continue the hearing first, or serve a new complaint."}
        )  # fmt: skip
    before = snapshot(complaint)
    complaint.served_on, complaint.hearing_latest_on = served_on, limit.due
    complaint.article_number = (article_number or complaint.article_number).strip()
    complaint.explanation = {**complaint.explanation, "P5": limit.explanation.as_record()}
    complaint.explanation.pop("P5-waiting", None)
    complaint.save(update_fields=["served_on", "hearing_latest_on", "article_number", "explanation"])
    if hearing:
        hearing.latest_on = limit.due
        hearing.explanation = {**hearing.explanation, "P5": limit.explanation.as_record()}
        hearing.explanation.pop("P5-waiting", None)
        hearing.save(update_fields=["latest_on", "explanation"])
    audit_record(acting_user=acting_user, action="complaint.served", instance=complaint, before=before,
                 after=snapshot(complaint), note="Mailing date from the mail log (certified mail).")  # fmt: skip
    return complaint


def ruleset_days(day: dt.date) -> int:
    return rules_for(day)["ruleset"].complaint_hearing_days


def _locked(complaint: AdministrativeComplaint) -> AdministrativeComplaint:
    return (
        AdministrativeComplaint.objects.select_for_update(of=("self",))
        .select_related("case__establishment", "hearing")
        .get(pk=complaint.pk)
    )


@transaction.atomic
def complaint_waive(
    *, acting_user, complaint: AdministrativeComplaint, waived_on: dt.date
) -> AdministrativeComplaint:
    """P6: the respondent waived the hearing; the hearing officer decides without one."""
    require_role(acting_user, HEARING_RECORDERS, HEARING_OFFICERS_ONLY)
    complaint = _locked(complaint)
    if complaint.waived_on or (complaint.hearing and complaint.hearing.held_on):
        raise StateConflict("The hearing was already held or waived.")
    if (
        waived_on is None
        or waived_on < (complaint.served_on or complaint.issued_on)
        or waived_on > town_today()
    ):
        raise ValidationError(
            {"waived_on": "Give the date of the waiver: on or after service, today or earlier."}
        )
    before = snapshot(complaint)
    complaint.waived_on = waived_on
    complaint.save(update_fields=["waived_on"])
    hearing = complaint.hearing
    hearing.waived_on = waived_on
    hearing.save(update_fields=["waived_on"])
    audit_record(acting_user=acting_user, action="complaint.waive", instance=complaint, before=before,
                 after=snapshot(complaint))  # fmt: skip
    return complaint


@transaction.atomic
def complaint_appeal(
    *, acting_user, complaint: AdministrativeComplaint, appeal_status: str, on: dt.date, outcome: str = ""
) -> AdministrativeComplaint:
    """P6: the appeal filed with the Town Clerk within the window (``filed``), then the Council's outcome
    (``upheld``, ``modified``, ``overturned``). A late appeal is refused naming the last day."""
    require_role(acting_user, HEARING_RECORDERS, HEARING_OFFICERS_ONLY)
    complaint = _locked(complaint)
    A = AdministrativeComplaint.Appeal
    if complaint.appeal_by is None:
        raise StateConflict("P6: the hearing officer has not decided yet: there is nothing to appeal.")
    if on is None or on > town_today():
        raise ValidationError({"on": "Give the date, today or earlier."})
    before = snapshot(complaint)
    if appeal_status == A.FILED:
        if complaint.appeal_status:
            raise StateConflict("The appeal is already recorded.")
        if on > complaint.appeal_by:
            raise ValidationError(
                {"on": f"P6: the appeal had to be filed within {rules_for(on)['ruleset'].appeal_days} days of notice "
                 f"of the decision, by {fmt_date(complaint.appeal_by)}: the decision is final."}
            )  # fmt: skip
        complaint.appealed_on = on
    elif appeal_status in (A.UPHELD, A.MODIFIED, A.OVERTURNED):
        if complaint.appeal_status != A.FILED:
            raise StateConflict("P6: record the appeal's filing first.")
        if not (outcome or "").strip():
            raise ValidationError({"outcome": "Give the Town Council's decision."})
        complaint.council_decided_on, complaint.council_outcome = on, outcome.strip()
    else:
        raise ValidationError({"appeal_status": "Choose filed, upheld, modified or overturned."})
    complaint.appeal_status = appeal_status
    complaint.save()
    audit_record(acting_user=acting_user, action="complaint.appeal", instance=complaint, before=before,
                 after=snapshot(complaint))  # fmt: skip
    return complaint
