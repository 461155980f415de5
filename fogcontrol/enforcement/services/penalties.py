"""Administrative civil penalty orders (P3, P7-P10, P12): the hearing officer sees the P7 cap for the
violation kind and its days or occurrences, records the P7 factors and an amount within the cap.
Refused: an amount over the cap (400, with the cap and its working), and under P10 a penalty for a
violation the Town already recovered judicially (409). Final on issuance unless appealed; payment due
within the P8 limit; served by personal service or registered mail; paid into the P12 account."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement import documents_orders as documents
from fogcontrol.enforcement.models import Case, PenaltyOrder, Referral, ServiceMethod, Violation
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.enforcement.services.hearings import rules_for, stamp
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.deadlines import appeal_due, penalty_payment_due
from fogcontrol.rules.explain import fmt_date, fmt_money
from fogcontrol.rules.penalties import P7_FACTORS, PenaltyCap, penalty_cap

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
        .exclude(status=PenaltyOrder.Status.OVERTURNED)
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


@transaction.atomic
def penalty_order_issue(
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
    issued_on: dt.date,
    service_method: str,
    served_on: dt.date,
    article_number: str = "",
    complaint=None,
) -> PenaltyOrder:
    """P7, P8: issue a penalty order within the cap, with the P7 factors, served and payable."""
    require_role(acting_user, HEARING_RECORDERS, ISSUERS_ONLY)
    case = Case.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=case.pk)
    if case.closed_on:
        raise StateConflict(f"The case was closed on {fmt_date(case.closed_on)}.")
    cap = cap_for(violation_kind=violation_kind, days=days, occurrences=occurrences, under_order=under_order,
                  on=issued_on or town_today())  # fmt: skip
    in_case = list(case.violations.all())
    chosen = list(violations) or [v for v in in_case if v.kind == violation_kind]
    if not chosen or any(v.pk not in {c.pk for c in in_case} for v in chosen):
        raise ValidationError(
            {
                "violations": f"Choose the violations of this case the penalty is for (none of kind {violation_kind})."
            }
        )
    recovered = judicially_recovered(chosen)
    if recovered:
        raise JudiciallyRecovered(
            "P10: no administrative penalty for a violation the Town already recovered judicially: "
            + "; ".join(f"the {r.get_kind_display().lower()} referral of {fmt_date(r.referred_on)} recovered "
                        f"{fmt_money(r.amount_recovered)}" for r in recovered) + "."
        )  # fmt: skip
    errors: dict[str, str] = {}
    amount = Decimal(str(amount)) if amount is not None else None
    if amount is None or amount <= 0:
        errors["amount"] = "Give the penalty, more than $0."
    elif amount > cap.max_amount:
        errors["amount"] = (
            f"P7: {fmt_money(amount)} is over the cap of {fmt_money(cap.max_amount)} "
            f"({fmt_money(cap.per_unit)} x {cap.units} {cap.unit_label}s). {cap.explanation.text()}"
        )
    missing = [name for name in FACTOR_FIELDS if not str((factors or {}).get(name) or "").strip()]
    if missing:
        errors["factors"] = "P7: record each factor weighed: " + ", ".join(missing) + "."
    if not (hearing_officer_name or "").strip():
        errors["hearing_officer_name"] = "Name the hearing officer."
    if service_method not in PENALTY_METHODS:
        errors["service_method"] = (
            "P8: a penalty order is served by personal service (personal_delivery) or registered mail (registered_mail)."
        )
    elif service_method == ServiceMethod.REGISTERED_MAIL and not (article_number or "").strip():
        errors["article_number"] = "P8: give the registered mail article number."
    today = town_today()
    if issued_on is None or issued_on > today:
        errors["issued_on"] = "Give the date of issue, today or earlier."
    elif served_on is None or served_on < issued_on or served_on > today:
        errors["served_on"] = "Give the date it was served: on or after issue, today or earlier."
    if errors:
        raise ValidationError(errors)
    payment = penalty_payment_due(issued_on, **rules_for(issued_on))
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
        payment_due_on=payment.due,
        issued_on=issued_on,
        service_method=service_method,
        served_on=served_on,
        article_number=(article_number or "").strip(),
        explanation={"P7": cap.explanation.as_dict(), "P8": payment.explanation.as_dict()},
        **{name: factors[name].strip() for name in FACTOR_FIELDS},
    )
    stamp(order, acting_user)
    order.save()
    order.reference = f"PEN-{issued_on:%Y}-{order.pk:05d}"
    order.violations.set(chosen)
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_penalty_order",
        case=case,
        context={
            "order_reference": order.reference,
            "amount": fmt_money(amount),
            "cap_working": " ".join(cap.explanation.steps[:-1]),
            "factors": "; ".join(
                f"{label}: {factors[name].strip()}"
                for name, label in zip(FACTOR_FIELDS, P7_FACTORS, strict=True)
            ),
            "issued_on": fmt_date(issued_on),
            "payment_due_on": fmt_date(payment.due),
            "account": order.account,
        },
        subject=order,
        service_method=service_method,
        served_on=served_on,
        article_number=order.article_number,
        issued_on=issued_on,
    )
    order.document_id = document.pk
    order.save(update_fields=["reference", "document_id"])
    audit_record(acting_user=acting_user, action="penalty_order.issue", instance=order, after=snapshot(order))
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
        last = appeal_due(order.served_on, **rules_for(order.served_on)).due
        if on > last:
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
