"""The fee schedule, the fees owed, and their payment or waiver (B3 "with the applicable fee", B8, G2)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from fogcontrol.audit.services import audited_bulk_update, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.permissions import require_role
from fogcontrol.permits.models import (
    PERMIT_FEE_KINDS,
    FeeCharge,
    FeeKind,
    FeeSchedule,
    FeeScheduleLine,
)
from fogcontrol.permits.roles import FEE_COLLECTORS, FEE_EDITORS
from fogcontrol.permits.services.common import audited_save, require_fog_manager
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import town_today


def fee_schedule_on(day: dt.date) -> FeeSchedule | None:
    """The version of the fee schedule in force on `day`, with its lines."""
    return (
        FeeSchedule.objects.filter(effective_from__lte=day)
        .prefetch_related("lines")
        .order_by("-effective_from")
        .first()
    )


@transaction.atomic
def fee_schedule_create(
    *,
    acting_user,
    effective_from: dt.date,
    label: str,
    amounts: dict[str, Decimal | str | int],
    resolution: str = "",
    notes: str = "",
) -> FeeSchedule:
    """Record a new version of the Town's permit fees, in force from `effective_from`.

    Earlier versions are kept: a fee already owed stays at the amount of the version it was
    assessed under. Every permit fee must be priced (zero is allowed: the Town may charge none);
    the D6 compliance rates (hourly, per sample, per test) and the kinds billing bills
    (re-inspection, disconnection, reinstatement) are optional: a schedule without one prices
    no charge of that kind.
    """
    require_role(acting_user, FEE_EDITORS, "Only the FOG Manager may set fees.")
    errors = {}
    if effective_from and FeeSchedule.objects.filter(effective_from=effective_from).exists():
        errors["effective_from"] = [
            f"A fee schedule already takes effect on {effective_from:%Y-%m-%d}: choose another date."
        ]
    parsed: dict[str, Decimal] = {}
    for kind in FeeKind:
        raw = amounts.get(kind.value)
        if raw in (None, ""):
            if kind in PERMIT_FEE_KINDS:
                errors[kind.value] = [
                    f"Enter the amount of the {kind.label} fee (0 if the Town charges none)."
                ]
            continue
        try:
            amount = Decimal(str(raw))
        except InvalidOperation:
            errors[kind.value] = [f"{raw!r} is not an amount of money: write it like 350.00."]
            continue
        if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
            errors[kind.value] = ["Enter an amount of zero or more, in dollars and cents (e.g. 350.00)."]
            continue
        parsed[kind.value] = amount
    unknown = sorted(set(amounts) - {kind.value for kind in FeeKind})
    if unknown:
        errors["amounts"] = [f"Unknown fee kinds: {', '.join(unknown)}."]
    if errors:
        raise ValidationError(errors)
    schedule = FeeSchedule(
        effective_from=effective_from,
        label=label,
        resolution=resolution,
        notes=notes,
        created_by=person(acting_user),
    )
    audited_save(schedule, acting_user=acting_user, action="fee_schedule.create", creating=True)
    for kind, amount in parsed.items():
        line = FeeScheduleLine(schedule=schedule, kind=kind, amount=amount)
        line.full_clean()
        line.save()
    return schedule


def fee_assess(
    *,
    acting_user,
    kind: str,
    establishment,
    on: dt.date,
    description: str,
    application=None,
    remodel_notice=None,
) -> FeeCharge:
    """Record that a fee is owed, at the amount of the schedule in force on `on`.

    Called inside the caller's transaction. With no schedule in force the submission is refused:
    B3 asks for the applicable fee, and the Town must set it first.
    """
    schedule = fee_schedule_on(on)
    line = None
    if schedule is not None:
        line = next((item for item in schedule.lines.all() if item.kind == kind), None)
    if line is None:
        raise ValidationError(
            {
                "fee": [
                    f'No fee is set for "{FeeKind(kind).label}" on {on:%Y-%m-%d}, so the submission '
                    "cannot record the fee it owes. The FOG Manager must enter the Town's fee schedule "
                    "(Permits, Fee schedule) first; your draft is kept."
                ]
            }
        )
    charge = FeeCharge(
        kind=kind,
        amount=line.amount,
        fee_schedule=schedule,
        establishment=establishment,
        application=application,
        remodel_notice=remodel_notice,
        description=description,
        assessed_on=on,
    )
    return audited_save(charge, acting_user=acting_user, action="fee.assess", creating=True)


# --- Payment and waiver (B3) ---------------------------------------------------------------


def _lock_outstanding(charge: FeeCharge, what: str) -> FeeCharge:
    charge = FeeCharge.objects.select_for_update().get(pk=charge.pk)
    if charge.status == FeeCharge.Status.INVOICED:
        raise TransitionNotAllowed(
            f"This fee is invoiced by billing: record the payment there, so it is not taken twice "
            f"(there is nothing to {what} here)."
        )
    if not charge.is_outstanding:
        raise TransitionNotAllowed(
            f"This fee is {charge.get_status_display().lower()}: there is nothing to {what}."
        )
    return charge


@transaction.atomic
def fee_record_payment(
    *, charge: FeeCharge, acting_user, amount, paid_on: dt.date | None, reference: str
) -> FeeCharge:
    """Record that a fee owed was paid: the amount, the day and the receipt or transaction reference.

    Until the billing app exists this is how a fee stops being owed (B3). Partial payments are
    billing's business: the amount must be the fee's.
    """
    require_role(
        acting_user, FEE_COLLECTORS, "Only the FOG Manager and the billing clerk may record payments."
    )
    charge = _lock_outstanding(charge, "pay")
    errors = {}
    try:
        paid = Decimal(str(amount))
    except InvalidOperation:
        paid = None
    if paid is None or not paid.is_finite() or paid != charge.amount:
        errors["amount"] = [
            f"The fee is ${charge.amount}: record the full payment of ${charge.amount} "
            "(partial payments are handled by billing)."
        ]
    if paid_on is None:
        errors["paid_on"] = ["Give the date the payment was received."]
    elif paid_on > town_today():
        errors["paid_on"] = [
            "A payment cannot be recorded before it is received: give a date not in the future."
        ]
    if not (reference or "").strip():
        errors["reference"] = [
            "Give the receipt, cheque or transaction number, so the payment can be traced."
        ]
    if errors:
        raise ValidationError(errors)
    before = snapshot(charge)
    charge.status = FeeCharge.Status.PAID
    charge.paid_amount = paid
    charge.paid_on = paid_on
    charge.payment_reference = reference.strip()
    charge.settled_at = timezone.now()
    charge.settled_by = person(acting_user)
    charge.settled_by_label = actor_label_for(acting_user)
    return audited_save(charge, acting_user=acting_user, action="fee.pay", before=before)


@transaction.atomic
def fee_waive(*, charge: FeeCharge, acting_user, reason: str) -> FeeCharge:
    """B3: the FOG Manager waives a fee owed, giving the reason; audited with before and after."""
    require_fog_manager(acting_user, "waive a fee")
    charge = _lock_outstanding(charge, "waive")
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for the waiver: it is kept with the fee."]})
    before = snapshot(charge)
    charge.status = FeeCharge.Status.WAIVED
    charge.waiver_reason = reason.strip()
    charge.settled_at = timezone.now()
    charge.settled_by = person(acting_user)
    charge.settled_by_label = actor_label_for(acting_user)
    return audited_save(
        charge, acting_user=acting_user, action="fee.waive", before=before, note=reason.strip()
    )


# --- Billing takes over (issue #14) -----------------------------------------------------------


def _fees_move(ids, *, to: str, acting_user, action: str, note: str, **fields) -> int:
    """Move the fees `ids` (still outstanding: owed or invoiced) to `to` in one UPDATE, audited in bulk."""
    outstanding = FeeCharge.objects.filter(
        pk__in=list(ids), status__in=(FeeCharge.Status.OWED, FeeCharge.Status.INVOICED)
    )
    extra = {"paid_amount": F("amount")} if to == FeeCharge.Status.PAID else {}
    return audited_bulk_update(
        outstanding, acting_user=acting_user, action=action, note=note, status=to, **fields, **extra
    )


def fees_mark_invoiced(*, ids, acting_user) -> int:
    """Billing picked these fees up (Q1): they are invoiced and paid through billing from now on."""
    return _fees_move(
        ids, to=FeeCharge.Status.INVOICED, acting_user=acting_user, action="fee.invoice",
        note="Picked up by billing.",
    )  # fmt: skip


def fees_mark_paid(*, ids, acting_user, paid_on: dt.date, reference: str) -> int:
    """Billing received payment in full of the invoice billing these fees (B3: paid)."""
    return _fees_move(
        ids, to=FeeCharge.Status.PAID, acting_user=acting_user, action="fee.pay",
        note=f"Paid through billing ({reference}).", paid_on=paid_on, payment_reference=reference[:100],
        settled_at=timezone.now(), settled_by=person(acting_user),
        settled_by_label=actor_label_for(acting_user),
    )  # fmt: skip


def fees_mark_owed(*, ids, acting_user, reason: str) -> int:
    """Billing no longer bills these fees (its invoice was cancelled or written off): they are owed
    here again, for the FOG Manager to waive (B3) or staff to collect."""
    return _fees_move(
        ids, to=FeeCharge.Status.OWED, acting_user=acting_user, action="fee.release",
        note=f"No longer billed by billing: {reason}"[:500],
    )  # fmt: skip
