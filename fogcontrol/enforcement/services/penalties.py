"""Administrative civil penalty orders (P3, P7-P10, P12): the hearing officer sees the P7 cap for the
violation kind and its days or occurrences, records the P7 factors and an amount within the cap.
Refused: an amount over the cap (400, with the cap and its working), and under P10 a penalty for a
violation the Town already recovered judicially (409). Two-person rule (issue #15): one authorised
person proposes the order, a second, different one approves it, and only then is it issued (its
document, its service) and final unless appealed; payment due within the P8 limit; served by personal
service or registered mail; paid into the P12 account. A refusal keeps its reason and issues nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import pgettext_lazy

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.two_person import decision_note, require_person, require_second_person, stamp_decision
from fogcontrol.enforcement import documents_orders as documents
from fogcontrol.enforcement.documents import Joined, words
from fogcontrol.enforcement.models import Case, PenaltyOrder, Referral, ServiceMethod, Violation
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.enforcement.services.hearings import rules_for, stamp
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.deadlines import appeal_due, penalty_payment_due
from fogcontrol.rules.explain import fmt_date, fmt_money
from fogcontrol.rules.penalties import PenaltyCap, penalty_cap

PENALTY_METHODS = (ServiceMethod.PERSONAL_DELIVERY, ServiceMethod.REGISTERED_MAIL)
FACTOR_FIELDS = ("harm", "economic_benefit", "nature_and_persistence", "duration", "corrective_action")
ISSUERS_ONLY = "Only the Hearing Officer (or the FOG Manager entering the order) issues penalty orders."


class JudiciallyRecovered(StateConflict):
    """P10: the same violation penalised both judicially and administratively."""


def cap_for(
    *, violation_kind: str, days=None, occurrences=None, under_order=False, on: dt.date
) -> PenaltyCap:
    """P7: the cap, with its working; ValidationError naming the field for bad input."""
    try:
        return penalty_cap(violation_kind, days=days, occurrences=occurrences, under_order=bool(under_order),
                           ruleset=rules_for(on)["ruleset"])  # fmt: skip
    except ValueError as error:
        field, _, message = str(error).partition(": ")
        if field not in ("kind", "days", "occurrences", "under_order"):
            field, message = "non_field_errors", str(error)
        raise ValidationError({"violation_kind" if field == "kind" else field: message}) from None


def judicially_recovered(violations: Sequence[Violation]) -> list[Referral]:
    """P10: the judicial referrals that recovered penalties for any of ``violations``."""
    return list(
        Referral.objects.filter(
            kind=Referral.Kind.JUDICIAL,
            amount_recovered__isnull=False,
            violations__in=[v.pk for v in violations],
        ).distinct()
    )


def administratively_penalised(violations: Sequence[Violation]) -> list[PenaltyOrder]:
    """P10, the reverse: the penalty orders in force for any of ``violations`` (no judicial referral
    for them)."""
    return list(
        PenaltyOrder.objects.filter(violations__in=[v.pk for v in violations])
        .exclude(status__in=(PenaltyOrder.Status.OVERTURNED, *PenaltyOrder.NOT_ISSUED))
        .distinct()
    )


def refuse_judicial_after_administrative(violations: Sequence[Violation]) -> None:
    """P10: no judicial civil penalty referral for violations already penalised administratively (409)."""
    orders = administratively_penalised(violations)
    if orders:
        raise JudiciallyRecovered(
            "P10: no judicial civil penalties for a violation already penalised administratively: "
            + ", ".join(
                f"penalty order {o.reference} of {fmt_date(o.issued_on)} ({fmt_money(o.amount)})"
                for o in orders
            )
            + "."
        )


def _refuse_if_recovered(chosen: Sequence[Violation]) -> None:
    recovered = judicially_recovered(chosen)
    if recovered:
        raise JudiciallyRecovered(
            "P10: no administrative penalty for a violation the Town already recovered judicially: "
            + "; ".join(f"the {r.get_kind_display().lower()} referral of {fmt_date(r.referred_on)} recovered "
                        f"{fmt_money(r.amount_recovered)}" for r in recovered) + "."
        )  # fmt: skip


def _over_cap(amount: Decimal, cap: PenaltyCap) -> str:
    return (
        f"P7: {fmt_money(amount)} is over the cap of {fmt_money(cap.max_amount)} "
        f"({fmt_money(cap.per_unit)} x {cap.units} {cap.unit_label}s). {cap.explanation.text()}"
    )


@transaction.atomic
def penalty_order_propose(
    *,
    acting_user,
    case: Case,
    violation_kind: str,
    amount: Decimal,
    days: int | None = None,
    occurrences: int | None = None,
    under_order: bool = False,
    violations: Sequence[Violation] = (),
    hearing_officer_name: str,
    factors: dict[str, str],
    complaint=None,
    proposed_on: dt.date | None = None,
) -> PenaltyOrder:
    """P7 and the two-person rule: propose a penalty order within the cap, with the P7 factors. It is
    not issued, served, billed or owed until a second authorised person approves it
    (``penalty_order_decide``). ``proposed_on`` (today unless given: a proposal made on paper earlier)
    is the earliest day it may be issued."""
    require_role(acting_user, HEARING_RECORDERS, ISSUERS_ONLY)
    require_person(acting_user, "A penalty order")
    case = Case.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=case.pk)
    if case.closed_on:
        raise StateConflict(f"The case was closed on {fmt_date(case.closed_on)}.")
    today = town_today()
    if proposed_on is not None and proposed_on > today:
        raise ValidationError({"proposed_on": "Give the day it was proposed: today or earlier."})
    proposed_on = proposed_on or today
    cap = cap_for(violation_kind=violation_kind, days=days, occurrences=occurrences, under_order=under_order,
                  on=proposed_on)  # fmt: skip
    in_case = list(case.violations.all())
    chosen = list(violations) or [v for v in in_case if v.kind == violation_kind]
    if not chosen or any(v.pk not in {c.pk for c in in_case} for v in chosen):
        raise ValidationError(
            {
                "violations": f"Choose the violations of this case the penalty is for (none of kind {violation_kind})."
            }
        )
    _refuse_if_recovered(chosen)
    errors: dict[str, str] = {}
    amount = Decimal(str(amount)) if amount is not None else None
    if amount is None or amount <= 0:
        errors["amount"] = "Give the penalty, more than $0."
    elif amount > cap.max_amount:
        errors["amount"] = _over_cap(amount, cap)
    missing = [name for name in FACTOR_FIELDS if not str((factors or {}).get(name) or "").strip()]
    if missing:
        errors["factors"] = "P7: record each factor weighed: " + ", ".join(missing) + "."
    if not (hearing_officer_name or "").strip():
        errors["hearing_officer_name"] = "Name the hearing officer."
    if errors:
        raise ValidationError(errors)
    order = PenaltyOrder(
        case=case,
        complaint=complaint,
        violation_kind=violation_kind,
        days=days,
        occurrences=occurrences,
        under_order=bool(under_order),
        amount=amount,
        cap=cap.max_amount,
        hearing_officer_name=hearing_officer_name.strip(),
        status=PenaltyOrder.Status.PROPOSED,
        proposed_on=proposed_on,
        explanation={"P7": cap.explanation.as_record()},
        **{name: factors[name].strip() for name in FACTOR_FIELDS},
    )
    stamp(order, acting_user)
    order.save()
    order.reference = f"PEN-{proposed_on:%Y}-{order.pk:05d}"
    order.save(update_fields=["reference"])
    order.violations.set(chosen)
    audit_record(acting_user=acting_user, action="penalty_order.propose", instance=order, after=snapshot(order),
                 note="Proposed: waiting for a second approval (two-person rule).")  # fmt: skip
    return order


def _issue_errors(order: PenaltyOrder, *, issued_on, service_method, served_on, article_number) -> dict:
    errors: dict[str, str] = {}
    if service_method not in PENALTY_METHODS:
        errors["service_method"] = (
            "P8: a penalty order is served by personal service (personal_delivery) or registered mail (registered_mail)."
        )
    elif service_method == ServiceMethod.REGISTERED_MAIL and not (article_number or "").strip():
        errors["article_number"] = "P8: give the registered mail article number."
    today, proposed_on = town_today(), order.proposed_on or town_today()
    if issued_on is None or issued_on > today or issued_on < proposed_on:
        errors["issued_on"] = (
            f"Give the date of issue: from the proposal ({fmt_date(proposed_on)}) to today; "
            "an order is issued only once approved."
        )
    elif served_on is None and service_method != ServiceMethod.REGISTERED_MAIL:
        errors["served_on"] = "P8: give the date it was served in person (by registered mail: leave it empty "
        "until the mail log records the mailing)."
    elif served_on is not None and (served_on < issued_on or served_on > today):
        errors["served_on"] = "Give the date it was served: on or after issue, today or earlier."
    return errors


@transaction.atomic
def penalty_order_decide(
    *,
    acting_user,
    order: PenaltyOrder,
    approve: bool,
    note: str = "",
    issued_on: dt.date | None = None,
    service_method: str = "",
    served_on: dt.date | None = None,
    article_number: str = "",
) -> PenaltyOrder:
    """The two-person rule's second person (P7, P8): another Hearing Officer or FOG Manager than the
    one who proposed the order approves it, and it is issued on ``issued_on`` (its document issued,
    served, final unless appealed, payable within the P8 limit, picked up by billing) or refuses it
    with the reason (nothing issued, served or billed)."""
    require_role(acting_user, HEARING_RECORDERS, ISSUERS_ONLY)
    order = PenaltyOrder.objects.select_for_update(of=("self",)).select_related("case").get(pk=order.pk)
    if order.status != PenaltyOrder.Status.PROPOSED:
        raise StateConflict(
            f"Penalty order {order.reference} is already {order.get_status_display().lower()}."
        )
    require_second_person(acting_user, order.recorded_by_id, f"Penalty order {order.reference}")
    note = decision_note(approve=approve, note=note, what="the penalty order")
    before = snapshot(order)
    if approve:
        _approve(order, acting_user=acting_user, issued_on=issued_on, service_method=service_method,
                 served_on=served_on, article_number=article_number)  # fmt: skip
    order.status = PenaltyOrder.Status.FINAL if approve else PenaltyOrder.Status.REFUSED
    stamp_decision(order, acting_user, note)
    order.save()
    audit_record(acting_user=acting_user, action="penalty_order.approve" if approve else "penalty_order.refuse",
                 instance=order, before=before, after=snapshot(order), note=note)  # fmt: skip
    return order


def _approve(
    order: PenaltyOrder, *, acting_user, issued_on, service_method, served_on, article_number
) -> None:
    """Issue an approved order: the cap judged again on the day of issue, P10 again, the P8 due date,
    the document."""
    case = Case.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=order.case_id)
    if case.closed_on:
        raise StateConflict(f"The case was closed on {fmt_date(case.closed_on)}: refuse the order.")
    errors = _issue_errors(order, issued_on=issued_on, service_method=service_method, served_on=served_on,
                           article_number=article_number)  # fmt: skip
    if errors:
        raise ValidationError(errors)
    _refuse_if_recovered(list(order.violations.all()))
    cap = cap_for(violation_kind=order.violation_kind, days=order.days, occurrences=order.occurrences,
                  under_order=order.under_order, on=issued_on)  # fmt: skip
    if order.amount > cap.max_amount:
        raise ValidationError(
            {"amount": _over_cap(order.amount, cap) + " Refuse the order; propose it again."}
        )
    payment = penalty_payment_due(issued_on, **rules_for(issued_on))
    order.cap, order.issued_on, order.payment_due_on = cap.max_amount, issued_on, payment.due
    order.service_method = service_method
    order.article_number = (article_number or "").strip()
    order.explanation = {"P7": cap.explanation.as_record(), "P8": payment.explanation.as_record()}
    _set_service(order, served_on)
    factors = {name: getattr(order, name) for name in FACTOR_FIELDS}
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_penalty_order",
        case=case,
        context={
            "order_reference": order.reference,
            "amount": fmt_money(order.amount),
            # The rules' working of the cap, said in the letter's language.
            "cap_working": words(
                pgettext_lazy("penalty cap working", "%(working)s"),
                working=Joined(tuple(cap.explanation.steps[:-1])),
            ),
            "factors": Joined(
                tuple(
                    Joined((label, factors[name]), separator=": ")
                    for name, label in zip(FACTOR_FIELDS, documents.P7_FACTOR_WORDS, strict=True)
                ),
                separator="; ",
            ),
            "issued_on": issued_on,
            "payment_due_on": payment.due,
            "account": order.account,
        },
        subject=order,
        service_method=service_method,
        served_on=served_on,
        article_number=order.article_number,
        issued_on=issued_on,
    )
    order.document_id = document.pk


def _set_service(order: PenaltyOrder, served_on: dt.date | None) -> None:
    """P8, P6: served on ``served_on`` (None: waiting for mailing by registered mail); the appeal window
    runs from service (``rules.deadlines.appeal_due``)."""
    order.served_on = served_on
    if served_on is None:
        order.appeal_by = None
        order.explanation = {k: v for k, v in order.explanation.items() if k != "P6"}
        return
    appeal = appeal_due(served_on, **rules_for(served_on))
    order.appeal_by = appeal.due
    order.explanation = {**order.explanation, "P6": appeal.explanation.as_record()}


@transaction.atomic
def penalty_order_served(
    *, acting_user, order: PenaltyOrder, served_on: dt.date, article_number: str = ""
) -> PenaltyOrder:
    """P8: the mail log recorded the day the order was mailed by registered mail (notices'
    ``document_served``): it is served that day and its appeal window (P6) counts from it."""
    order = PenaltyOrder.objects.select_for_update(of=("self",)).get(pk=order.pk)
    if order.served_on == served_on:
        return order
    if order.status not in (PenaltyOrder.Status.FINAL,):
        raise ValidationError(
            {"served_on": f"P8: penalty order {order.reference} is {order.get_status_display().lower()}: "
             "its service can no longer change."}
        )  # fmt: skip
    before = snapshot(order)
    _set_service(order, served_on)
    order.article_number = (article_number or order.article_number).strip()
    order.save(update_fields=["served_on", "appeal_by", "article_number", "explanation"])
    audit_record(acting_user=acting_user, action="penalty_order.served", instance=order, before=before,
                 after=snapshot(order), note="Mailing date from the mail log (registered mail).")  # fmt: skip
    return order


@transaction.atomic
def penalty_order_appeal(*, acting_user, order: PenaltyOrder, status: str, on: dt.date) -> PenaltyOrder:
    """P8, P6: a penalty order is final on issuance unless appealed to the Town Council within the P6
    window from its service (``appealed``); then the Council upholds or overturns it."""
    require_role(acting_user, HEARING_RECORDERS, ISSUERS_ONLY)
    order = PenaltyOrder.objects.select_for_update(of=("self",)).get(pk=order.pk)
    S = PenaltyOrder.Status
    if on is None or on > town_today():
        raise ValidationError({"on": "Give the date, today or earlier."})
    if status == S.APPEALED:
        if order.status != S.FINAL:
            raise StateConflict(f"Penalty order {order.reference} is {order.get_status_display().lower()}.")
        # Not served yet (waiting for mailing): the P6 window has not begun, so no appeal is late.
        last = order.appeal_by or (
            order.served_on and appeal_due(order.served_on, **rules_for(order.served_on)).due
        )
        if last and on > last:
            raise ValidationError(
                {"on": f"P6: the appeal had to be filed by {fmt_date(last)}: the order is final (P8)."}
            )
    elif status in (S.UPHELD, S.OVERTURNED):
        if order.status != S.APPEALED:
            raise StateConflict("P6: record the appeal first.")
    else:
        raise ValidationError({"status": "Choose appealed, upheld or overturned."})
    before = snapshot(order)
    order.status = status
    order.explanation = {**order.explanation, f"appeal_{status}": on.isoformat()}
    order.save(update_fields=["status", "explanation"])
    audit_record(acting_user=acting_user, action="penalty_order.appeal", instance=order, before=before,
                 after=snapshot(order))  # fmt: skip
    return order
