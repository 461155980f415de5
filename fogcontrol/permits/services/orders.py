"""Recording the orders that suspend, revoke or reinstate a permit, with their process (L1-L6, M1-M3).

`permit_order_record` (the FOG Manager) records the notice and hearing (L1, L2) or the emergency order
and its hearing date (M1, M3), or a reinstatement; `permit_order_decide` (the hearing officer, or the
FOG Manager entering the written decision) records the hearing's end, the decision and its mailing
(L3, L4, M3) and the appeal status (L6); `permit_order_record_appeal` records the Town Council's
outcome. Every limit is computed by fogcontrol.rules.deadlines with the ruleset in force and the
Town's calendar, and its working is kept on the order. Applying an order to the permit is
permit_status.py (`permit_suspend`, `permit_revoke`, `permit_reinstate`, `permit_order_apply`).
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.permissions import require_role
from fogcontrol.permits.models import Permit, PermitOrder, PermitStatus
from fogcontrol.permits.roles import DECISION_RECORDERS
from fogcontrol.permits.services.common import audited_save, person, record_event, require_fog_manager
from fogcontrol.permits.states import TransitionNotAllowed, check_permit_transition
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import (
    continuance_limit,
    emergency_decision_due,
    emergency_hearing_due,
    revocation_decision_due,
    revocation_hearing_window,
)
from fogcontrol.rules.explain import fmt_date

K = PermitOrder.Kind
# L4 / M3: the hearing officer issues the written decision; the FOG Manager may enter it from paper.
FINAL_APPEAL_STATUSES = (
    PermitOrder.Appeal.NOT_APPEALED,
    PermitOrder.Appeal.UPHELD,
    PermitOrder.Appeal.NOT_APPEALABLE,
)
_TARGET = {
    K.SUSPENSION: PermitStatus.SUSPENDED,
    K.REVOCATION: PermitStatus.REVOKED,
    K.EMERGENCY_SUSPENSION: PermitStatus.SUSPENDED,
}


def _rules(day: dt.date):
    return {"ruleset": ruleset_on(day), "calendar": town_calendar()}


def _not_future(day: dt.date | None, field: str, what: str, errors: dict) -> None:
    if day is not None and day > town_today():
        errors[field] = [f"{what} cannot be recorded before it happens: give a date not in the future."]


def _check_process_notice(
    values: dict, errors: dict, explanation: dict, *, to_be_mailed: bool = False
) -> None:
    """L1, L2: grounds, facts, the certified-mail notice and a hearing date within the L2 window.
    ``to_be_mailed``: the notice waits for the certified mail run; its window is counted from today
    (the earliest mailing) until the mail log records the day (``permit_order_notice_mailed``)."""
    grounds = list(dict.fromkeys(values["grounds"] or []))
    unknown = [ground for ground in grounds if ground not in PermitOrder.Ground.values]
    if not grounds or unknown:
        errors["grounds"] = [
            "L1: name at least one ground for suspension or revocation"
            + (f" ({', '.join(unknown)} is not one)" if unknown else "")
            + f": {', '.join(PermitOrder.Ground.values)}."
        ]
    values["grounds"] = grounds
    mailed = values["notice_mailed_on"]
    if mailed is None and to_be_mailed:
        mailed = town_today()
    elif mailed is None:
        errors["notice_mailed_on"] = [
            "L2: give the date the written notice of the facts, the grounds and the hearing was mailed by "
            "certified mail. A permit is suspended or revoked only after that notice and a hearing."
        ]
    _not_future(mailed, "notice_mailed_on", "The notice's mailing", errors)
    if not values["certified_mail_number"].strip():
        errors["certified_mail_number"] = ["L2: the notice goes by certified mail: give its tracking number."]
    if not values["hearing_place"].strip():
        errors["hearing_place"] = ["L2: the notice states the time and place of the hearing: give the place."]
    hearing = values["hearing_on"]
    if hearing is None:
        errors["hearing_on"] = ["L2: give the hearing date set in the notice."]
    if mailed is None or hearing is None:
        return
    window = revocation_hearing_window(mailed, **_rules(mailed))
    explanation["L2"] = window.explanation.as_record()
    values["hearing_earliest_on"], values["hearing_latest_on"] = window.earliest, window.latest
    if not (window.earliest <= hearing <= window.latest):
        rules = ruleset_on(mailed)
        errors["hearing_on"] = [
            f"L2: the hearing must be set between {fmt_date(window.earliest)} and {fmt_date(window.latest)} "
            f"({rules.revocation_hearing_min_days} to {rules.revocation_hearing_max_days} calendar days after "
            f"the notice was mailed on {fmt_date(mailed)}); {fmt_date(hearing)} is outside that window."
        ]


def _check_emergency(values: dict, errors: dict, explanation: dict) -> None:
    """M1, M3: the emergency order, who determined it necessary, and its hearing within the M3 limit."""
    ordered = values["emergency_order_on"]
    if ordered is None:
        errors["emergency_order_on"] = ["M1: give the date of the emergency suspension order."]
    _not_future(ordered, "emergency_order_on", "The emergency order", errors)
    if not values["determined_by"].strip():
        errors["determined_by"] = [
            "M1: say who determined the suspension necessary (the Building Official, Town Engineer, FOG "
            "Manager or Code Enforcement Manager)."
        ]
    hearing = values["hearing_on"]
    if hearing is None:
        errors["hearing_on"] = [
            "M3: set the hearing on the emergency order (it does not stay the order): give its date."
        ]
    if ordered is None or hearing is None:
        return
    limit = emergency_hearing_due(ordered, **_rules(ordered))
    explanation["M3-hearing"] = limit.explanation.as_record()
    values["hearing_earliest_on"], values["hearing_latest_on"] = ordered, limit.due
    if not (ordered <= hearing <= limit.due):
        errors["hearing_on"] = [
            f"M3: the hearing must be held no later than {fmt_date(limit.due)}, "
            f"{ruleset_on(ordered).emergency_hearing_business_days} business days after the order of "
            f"{fmt_date(ordered)}; {fmt_date(hearing)} is not."
        ]


@transaction.atomic
def permit_order_record(
    *,
    permit: Permit,
    acting_user,
    kind: str,
    facts: str,
    grounds: list[str] | tuple[str, ...] = (),
    notice_mailed_on: dt.date | None = None,
    certified_mail_number: str = "",
    hearing_on: dt.date | None = None,
    hearing_place: str = "",
    emergency_order_on: dt.date | None = None,
    determined_by: str = "",
    ends_order: PermitOrder | None = None,
    notice_to_be_mailed: bool = False,
) -> PermitOrder:
    """Record an order against a permit and the process behind it (FOG Manager).

    ``notice_to_be_mailed`` (L2): no mailing date yet: the notice waits for the certified mail run and
    ``permit_order_notice_mailed`` records the day the mail log gives.

    Suspension or revocation (L1, L2): the grounds, the facts, the notice mailed by certified mail and a
    hearing date 15 to 45 days after mailing. Emergency suspension (M1, M3): the order's date, who
    determined it necessary, and a hearing within the M3 limit. Reinstatement: the suspension it ends,
    and why. Nothing changes on the permit until the order is applied.
    """
    require_fog_manager(acting_user, "record suspension, revocation and reinstatement orders")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if kind not in K.values:
        raise ValidationError({"kind": [f"Choose the kind of order: {', '.join(K.values)}."]})
    values = {
        "grounds": list(grounds or []),
        "facts": (facts or "").strip(),
        "notice_mailed_on": notice_mailed_on,
        "certified_mail_number": (certified_mail_number or "").strip(),
        "hearing_on": hearing_on,
        "hearing_place": (hearing_place or "").strip(),
        "emergency_order_on": emergency_order_on,
        "determined_by": (determined_by or "").strip(),
        "hearing_earliest_on": None,
        "hearing_latest_on": None,
    }
    errors: dict[str, list[str]] = {}
    explanation: dict = {}
    if not values["facts"]:
        errors["facts"] = [
            "Give the statement of facts (L2), the emergency determination (M1) or the reason for reinstating."
        ]
    if kind == K.REINSTATEMENT:
        ends_order = PermitOrder.objects.filter(pk=ends_order.pk).first() if ends_order is not None else None
        if permit.status != PermitStatus.SUSPENDED:
            raise TransitionNotAllowed(
                "Only a suspended permit is reinstated; a revoked one needs a new permit (L5)."
            )
        if (
            ends_order is None
            or ends_order.permit_id != permit.pk
            or ends_order.applied_on is None
            or ends_order.action != "suspend"
        ):
            errors["ends_order"] = ["Name the suspension order of this permit that the reinstatement ends."]
    else:
        check_permit_transition(permit.status, _TARGET[kind])
        if kind == K.EMERGENCY_SUSPENSION:
            _check_emergency(values, errors, explanation)
        else:
            _check_process_notice(values, errors, explanation, to_be_mailed=notice_to_be_mailed)
    if errors:
        raise ValidationError(errors)
    order = PermitOrder(
        permit=permit,
        kind=kind,
        ends_order=ends_order if kind == K.REINSTATEMENT else None,
        explanation=explanation,
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
        **values,
    )
    if kind == K.EMERGENCY_SUSPENSION:
        order.appeal_status = PermitOrder.Appeal.NOT_APPEALABLE
    order.full_clean()
    order.save()
    order.reference = f"ORD-{order.recorded_at:%Y}-{order.pk:05d}"
    audited_save(order, acting_user=acting_user, action="permit.order.record", creating=True)
    record_event(acting_user=acting_user, action="permit.order.record", permit=permit,
                 note=f"{order.reference}: {order.get_kind_display()}")  # fmt: skip
    return order


@transaction.atomic
def permit_order_notice_mailed(*, acting_user, order: PermitOrder, mailed_on: dt.date, certified_mail_number: str = ""
                               ) -> PermitOrder:  # fmt: skip
    """L2: the notice of a suspension or revocation was mailed by certified mail on ``mailed_on`` (the
    mail log of notices' certified mail run): the hearing window is counted again from that day. Refused,
    naming L2 and the window, when the hearing set in the notice falls outside it. The caller (the mail
    log) checked who may record a mailing; this records its consequence for the order."""
    order = _lock_order(order)
    if order.kind not in (K.SUSPENSION, K.REVOCATION) or order.applied_on is not None:
        raise ValidationError(
            {"notice_mailed_on": [f"{order.reference}: no notice of hearing waits for mailing."]}
        )
    values = {"grounds": order.grounds, "notice_mailed_on": mailed_on,
              "certified_mail_number": (certified_mail_number or order.certified_mail_number).strip(),
              "hearing_place": order.hearing_place, "hearing_on": order.hearing_on}  # fmt: skip
    errors: dict[str, list[str]] = {}
    explanation: dict = {}
    _check_process_notice(values, errors, explanation)
    if errors:
        raise ValidationError(errors)
    before = snapshot(order)
    order.notice_mailed_on, order.certified_mail_number = mailed_on, values["certified_mail_number"]
    order.hearing_earliest_on, order.hearing_latest_on = (
        values["hearing_earliest_on"],
        values["hearing_latest_on"],
    )
    order.explanation = {**order.explanation, **explanation}
    audited_save(order, acting_user=acting_user, action="permit.order.notice_mailed", before=before,
                 note="Mailing date from the mail log (certified mail).")  # fmt: skip
    return order


def _lock_order(order: PermitOrder) -> PermitOrder:
    return PermitOrder.objects.select_for_update().select_related("permit").get(pk=order.pk)


def _check_appeal(order: PermitOrder, appeal_status: str, final_on: dt.date | None, errors: dict) -> None:
    """L6: final unless appealed to the Town Council; a final order says when it became final."""
    allowed = [s for s in PermitOrder.Appeal.values if s != PermitOrder.Appeal.NOT_APPEALABLE]
    if appeal_status not in allowed:
        errors["appeal_status"] = [f"L6: say where the appeal stands: {', '.join(allowed)}."]
        return
    if appeal_status in FINAL_APPEAL_STATUSES:
        if final_on is None:
            errors["final_on"] = ["L6: give the date the decision became final."]
        elif order.decision_on and final_on < order.decision_on:
            errors["final_on"] = ["L6: a decision becomes final on or after the day it is issued."]
        _not_future(final_on, "final_on", "Finality", errors)
    elif final_on is not None:
        errors["final_on"] = [
            "L6: an order that may still be appealed, or is under appeal, is not final yet."
        ]


@transaction.atomic
def permit_order_decide(
    *,
    order: PermitOrder,
    acting_user,
    decision_on: dt.date | None,
    hearing_officer_name: str,
    outcome: str,
    decision: str,
    decision_mail_number: str = "",
    hearing_concluded_on: dt.date | None = None,
    appeal_status: str = PermitOrder.Appeal.OPEN,
    final_on: dt.date | None = None,
) -> PermitOrder:
    """The hearing officer's written decision and order (L3, L4; M3), and where its appeal stands (L6).

    Suspension or revocation: the hearing ended no more than the L3 continuance limit after the date
    first set, the decision within the L4 limit after it ended, sent by certified mail. Emergency
    suspension: the decision within the M3 limit after the hearing; final, not appealable.
    """
    require_role(
        acting_user, DECISION_RECORDERS, "Only a hearing officer or the FOG Manager may record the decision."
    )
    order = _lock_order(order)
    if order.kind == K.REINSTATEMENT:
        raise TransitionNotAllowed("A reinstatement is not heard: apply it to the permit.")
    if order.decision_on is not None:
        raise TransitionNotAllowed(
            f"{order.reference} is already decided ({fmt_date(order.decision_on)}): record the appeal's outcome instead."
        )
    before = snapshot(order)
    errors: dict[str, list[str]] = {}
    explanation = dict(order.explanation)
    if outcome not in PermitOrder.Outcome.values:
        errors["outcome"] = [f"Say what the decision orders: {', '.join(PermitOrder.Outcome.values)}."]
    if not (decision or "").strip():
        errors["decision"] = ["Give the written decision and order, or its terms."]
    if not (hearing_officer_name or "").strip():
        errors["hearing_officer_name"] = ["Name the hearing officer who decided."]
    if not (decision_mail_number or "").strip():
        errors["decision_mail_number"] = [
            "L4, M3: the written decision is sent by certified mail: give its tracking number."
        ]
    hearing = order.hearing_on
    if order.kind == K.EMERGENCY_SUSPENSION:
        concluded = hearing
        if decision_on is not None:
            limit = emergency_decision_due(hearing, **_rules(hearing))
            explanation["M3-decision"] = limit.explanation.as_record()
            order.decision_due_on = limit.due
            if not (hearing <= decision_on <= limit.due):
                errors["decision_on"] = [
                    f"M3: the written decision is issued after the hearing of {fmt_date(hearing)} and no later "
                    f"than {fmt_date(limit.due)}."
                ]
        appeal_status, final_on = PermitOrder.Appeal.NOT_APPEALABLE, decision_on
    else:
        concluded = hearing_concluded_on or hearing
        limit = continuance_limit(hearing, **_rules(hearing))
        explanation["L3"] = limit.explanation.as_record()
        if not (hearing <= concluded <= limit.due):
            errors["hearing_concluded_on"] = [
                f"L3: the hearing set for {fmt_date(hearing)} may be continued, but by no more than the "
                f"ruleset's total: it must end by {fmt_date(limit.due)}."
            ]
        elif decision_on is not None:
            due = revocation_decision_due(concluded, **_rules(concluded))
            explanation["L4"] = due.explanation.as_record()
            order.decision_due_on = due.due
            if not (concluded <= decision_on <= due.due):
                errors["decision_on"] = [
                    f"L4: the written decision is issued after the hearing ended ({fmt_date(concluded)}) and "
                    f"within the ruleset's limit: by {fmt_date(due.due)}."
                ]
        order.decision_on = decision_on
        _check_appeal(order, appeal_status, final_on, errors)
    if decision_on is None:
        errors["decision_on"] = ["Give the date of the written decision and order."]
    _not_future(decision_on, "decision_on", "A decision", errors)
    if errors:
        raise ValidationError(errors)
    order.hearing_concluded_on = concluded
    order.decision_on = decision_on
    order.hearing_officer_name = hearing_officer_name.strip()
    order.outcome = outcome
    order.decision = decision.strip()
    order.decision_mail_number = decision_mail_number.strip()
    order.appeal_status = appeal_status
    order.final_on = final_on
    order.explanation = explanation
    order.decided_at = timezone.now()
    order.decided_by = person(acting_user)
    order.decided_by_label = actor_label_for(acting_user)
    audited_save(order, acting_user=acting_user, action="permit.order.decide", before=before)
    record_event(acting_user=acting_user, action="permit.order.decide", permit=order.permit,
                 note=f"{order.reference}: {order.get_outcome_display()} ({order.get_appeal_status_display()})")  # fmt: skip
    return order


@transaction.atomic
def permit_order_record_appeal(
    *, order: PermitOrder, acting_user, appeal_status: str, final_on: dt.date | None = None
) -> PermitOrder:
    """L6: the decision became final (not appealed, or upheld by the Town Council), or was appealed or
    overturned. The FOG Manager or a hearing officer records it."""
    require_role(
        acting_user, DECISION_RECORDERS, "Only a hearing officer or the FOG Manager may record the appeal."
    )
    order = _lock_order(order)
    if not order.is_process_order or order.decision_on is None:
        raise TransitionNotAllowed(
            "Only the decision on a suspension or revocation may be appealed to the Town Council (L6); "
            "record the decision first. An emergency order's decision is final (M3)."
        )
    if order.appeal_status in FINAL_APPEAL_STATUSES or order.appeal_status == PermitOrder.Appeal.OVERTURNED:
        raise TransitionNotAllowed(f"{order.reference} is settled: {order.get_appeal_status_display()}.")
    errors: dict[str, list[str]] = {}
    _check_appeal(order, appeal_status, final_on, errors)
    if errors:
        raise ValidationError(errors)
    before = snapshot(order)
    order.appeal_status = appeal_status
    order.final_on = final_on
    audited_save(order, acting_user=acting_user, action="permit.order.appeal", before=before)
    record_event(acting_user=acting_user, action="permit.order.appeal", permit=order.permit,
                 note=f"{order.reference}: {order.get_appeal_status_display()}")  # fmt: skip
    return order
