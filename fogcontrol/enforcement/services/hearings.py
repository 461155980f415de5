"""Hearings of a case: continuances (L3; P5 and M3 keep their own limits) and the hearing officer's
decision. A complaint hearing's decision opens the P6 appeal window; a suspension or revocation
hearing's decision is permits' ``permit_order_decide`` (L3, L4, L6), an emergency one's M3.
Keyword-only arguments, an acting user, one transaction, an audit entry."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement import documents_orders as documents
from fogcontrol.enforcement.documents import Joined, Words, words
from fogcontrol.enforcement.models import Hearing, HearingContinuance
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.permits.models import PermitOrder
from fogcontrol.permits.services.orders import permit_order_decide
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import (
    appeal_due,
    continuance_limit,
    emergency_decision_due,
    revocation_decision_due,
)
from fogcontrol.rules.explain import fmt_date

HEARING_OFFICERS_ONLY = "Only the Hearing Officer or the FOG Manager records hearings and decisions."


def rules_for(day: dt.date) -> dict:
    return {"ruleset": ruleset_on(day), "calendar": town_calendar()}


def locked_hearing(hearing: Hearing) -> Hearing:
    return (
        Hearing.objects.select_for_update(of=("self",))
        .select_related("case__establishment", "permit_order")
        .get(pk=hearing.pk)
    )


def stamp(record, acting_user) -> None:
    record.recorded_by = person(acting_user)
    record.recorded_by_label = actor_label_for(acting_user)


def continuance_bound(hearing: Hearing) -> tuple[dt.date, str, dict]:
    """The latest date a continuance may move ``hearing`` to, the provision, and its working."""
    if hearing.kind == Hearing.Kind.SUSPENSION:
        limit = continuance_limit(hearing.first_scheduled_on, **rules_for(hearing.first_scheduled_on))
        return limit.due, "L3", limit.explanation.as_record()
    provision = "P5" if hearing.kind == Hearing.Kind.COMPLAINT else "M3"
    return hearing.latest_on, provision, (hearing.explanation or {}).get(provision, {})


def projected_decision_due(hearing: Hearing) -> tuple[dt.date | None, dict]:
    """L4: the written decision's limit, counted from the day the hearing ends (or, until it is held,
    from the date set); M3 counts from the emergency hearing. Complaint hearings have none (P6)."""
    if hearing.kind == Hearing.Kind.COMPLAINT:
        return None, {}
    ends = hearing.concluded_on or hearing.scheduled_on
    if hearing.kind == Hearing.Kind.EMERGENCY:
        due = emergency_decision_due(ends, **rules_for(ends))
    else:
        due = revocation_decision_due(ends, **rules_for(ends))
    return due.due, due.explanation.as_record()


@transaction.atomic
def hearing_continue(
    *,
    acting_user,
    hearing: Hearing,
    new_date: dt.date,
    requested_by: str,
    reason: str,
    service_method: str = "first_class_mail",
    article_number: str = "",
) -> HearingContinuance:
    """L3: move the hearing to ``new_date``. Continuances may not total more than the ruleset's limit
    counted from the date first set; a complaint hearing keeps the P5 limit, an emergency one M3."""
    require_role(acting_user, HEARING_RECORDERS, HEARING_OFFICERS_ONLY)
    hearing = locked_hearing(hearing)
    if hearing.held_on or hearing.waived_on or hearing.decided_on:
        raise StateConflict("This hearing was held, waived or decided: it cannot be continued.")
    errors: dict[str, str] = {}
    if requested_by not in HearingContinuance.RequestedBy.values:
        errors["requested_by"] = f"Say who asked: {', '.join(HearingContinuance.RequestedBy.values)}."
    if not (reason or "").strip():
        errors["reason"] = "Give the reason for the continuance."
    if new_date is None or new_date <= hearing.scheduled_on:
        errors["new_date"] = f"A continuance moves the hearing later than {fmt_date(hearing.scheduled_on)}."
    latest, provision, working = continuance_bound(hearing)
    if "new_date" not in errors:
        if latest is not None and new_date > latest:
            total = (new_date - hearing.first_scheduled_on).days
            rules = ruleset_on(hearing.first_scheduled_on)
            errors["new_date"] = (
                f"L3: continuances may total no more than {rules.hearing_continuance_max_days} days from the "
                f"date first set ({fmt_date(hearing.first_scheduled_on)}): {fmt_date(new_date)} makes {total} "
                f"days. The latest date is {fmt_date(latest)}."
                if provision == "L3"
                else f"{provision}: the hearing must be held no later than {fmt_date(latest)}; "
                f"{fmt_date(new_date)} is after it."
            )
    if errors:
        raise ValidationError(errors)
    before = snapshot(hearing)
    continuance = HearingContinuance(
        hearing=hearing,
        from_date=hearing.scheduled_on,
        new_date=new_date,
        requested_by=requested_by,
        reason=reason.strip(),
        total_days=(new_date - hearing.first_scheduled_on).days,
    )
    stamp(continuance, acting_user)
    continuance.save()
    hearing.scheduled_on = new_date
    if hearing.kind != Hearing.Kind.COMPLAINT:
        hearing.decision_due_on, working = projected_decision_due(hearing)
        hearing.explanation = {**hearing.explanation, "L4" if hearing.kind == "suspension" else "M3": working}
    limits = [words(gettext_noop("The hearing was continued from %(day)s at the request of %(who)s: %(reason)s"),
                    day=continuance.from_date, who=documents.REQUESTED_BY[continuance.requested_by],
                    reason=continuance.reason)]  # fmt: skip
    if latest is not None:
        limits.append(words(gettext_noop("%(provision)s: it may not be continued beyond %(day)s."),
                            provision=provision, day=latest))  # fmt: skip
    if hearing.decision_due_on:
        limits.append(words(gettext_noop("The written decision is due by %(day)s if the hearing ends that day."),
                            day=hearing.decision_due_on))  # fmt: skip
    place = hearing.place or words(gettext_noop("the place stated in the notice"))
    document = documents.issue(
        acting_user=acting_user, key="enforcement_hearing_notice", case=hearing.case,
        context={"hearing_kind": documents.HEARING_KINDS[hearing.kind], "hearing_on": new_date,
                 "hearing_place": place, "limits": Joined(tuple(limits))},
        subject=hearing, service_method=service_method, served_on=None, article_number=article_number,
    )  # fmt: skip
    hearing.explanation = {**hearing.explanation, "continuance_notice": document.pk}
    hearing.save()
    audit_record(acting_user=acting_user, action="hearing.continue", instance=hearing, before=before,
                 after=snapshot(hearing))  # fmt: skip
    return continuance


_OUR_NAMES = {
    "decision_mail_number": "article_number",
    "hearing_concluded_on": "concluded_on",
    "decision_on": "decided_on",
    "decision": "outcome_text",
}


def _appeal_text(hearing: Hearing, decided_on: dt.date) -> tuple[Words, dt.date | None, dict]:
    if hearing.kind == Hearing.Kind.COMPLAINT:
        due = appeal_due(decided_on, **rules_for(decided_on))
        return (
            words(gettext_noop("You may appeal this decision to the Town Council, in writing filed with the Town "
                               "Clerk, no later than %(day)s (P6)."), day=due.due),
            due.due,
            due.explanation.as_record(),
        )  # fmt: skip
    if hearing.kind == Hearing.Kind.EMERGENCY:
        return words(gettext_noop("This decision is final and not appealable (M3).")), None, {}
    return (
        words(
            gettext_noop(
                "This decision is final unless appealed to the Town Council under Chapter 2.04 (L6)."
            )
        ),
        None,
        {},
    )


@transaction.atomic
def hearing_decide(
    *,
    acting_user,
    hearing: Hearing,
    held_on: dt.date | None,
    concluded_on: dt.date | None = None,
    decided_on: dt.date,
    hearing_officer_name: str,
    outcome_text: str,
    outcome: str = PermitOrder.Outcome.ORDERED,
    service_method: str = "certified_mail",
    served_on: dt.date | None = None,
    article_number: str = "",
) -> Hearing:
    """The hearing officer's written decision, issued as a document. Complaint (P6): the appeal window
    runs from notice of it. Suspension or revocation (L3, L4): permits' decision on the order, in time.
    Emergency (M3): within 2 business days, final."""
    require_role(acting_user, HEARING_RECORDERS, HEARING_OFFICERS_ONLY)
    hearing = locked_hearing(hearing)
    if hearing.decided_on:
        raise StateConflict(f"This hearing was decided on {fmt_date(hearing.decided_on)}.")
    errors: dict[str, str] = {}
    if hearing.waived_on is None and held_on is None:
        errors["held_on"] = "Give the date the hearing was held (or record the waiver, P6)."
    if not (outcome_text or "").strip():
        errors["outcome_text"] = "Give the decision, as written."
    if not (hearing_officer_name or "").strip():
        errors["hearing_officer_name"] = "Name the hearing officer who decided."
    if decided_on is None or decided_on > town_today():
        errors["decided_on"] = "Give the date of the written decision, today or earlier."
    elif held_on and decided_on < (concluded_on or held_on):
        errors["decided_on"] = "A decision is written after the hearing ends."
    if errors:
        raise ValidationError(errors)
    before = snapshot(hearing)
    concluded = concluded_on or held_on
    if hearing.permit_order_id:
        try:
            permit_order_decide(
                order=hearing.permit_order,
                acting_user=acting_user,
                decision_on=decided_on,
                hearing_officer_name=hearing_officer_name,
                outcome=outcome,
                decision=outcome_text,
                decision_mail_number=article_number,
                hearing_concluded_on=concluded,
            )
        except ValidationError as error:  # permits' field names, as this step names them
            raise ValidationError(
                {_OUR_NAMES.get(field, field): messages for field, messages in error.message_dict.items()}
            ) from None
        hearing.permit_order.refresh_from_db()
        hearing.decision_due_on = hearing.permit_order.decision_due_on
    hearing.held_on, hearing.concluded_on, hearing.decided_on = held_on, concluded, decided_on
    hearing.hearing_officer_name = hearing_officer_name.strip()
    hearing.outcome = outcome_text.strip()
    appeal, appeal_by, working = _appeal_text(hearing, served_on or decided_on)
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_decision",
        case=hearing.case,
        context={
            "hearing_kind": documents.HEARING_KINDS[hearing.kind],
            "decided_on": decided_on,
            "outcome": hearing.outcome,
            "appeal": appeal,
        },
        subject=hearing,
        service_method=service_method,
        served_on=served_on or decided_on,
        article_number=article_number,
        issued_on=decided_on,
    )
    hearing.explanation = {**hearing.explanation, "decision_document": document.pk}
    if appeal_by:
        hearing.explanation["P6"] = working
    hearing.save()
    complaint = getattr(hearing, "complaint", None) if hearing.kind == Hearing.Kind.COMPLAINT else None
    if complaint is not None:
        complaint.decision_noticed_on = served_on or decided_on
        complaint.appeal_by = appeal_due(complaint.decision_noticed_on, **rules_for(decided_on)).due
        complaint.save(update_fields=["decision_noticed_on", "appeal_by"])
    audit_record(acting_user=acting_user, action="hearing.decide", instance=hearing, before=before,
                 after=snapshot(hearing))  # fmt: skip
    return hearing
