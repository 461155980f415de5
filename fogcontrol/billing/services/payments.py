"""Payments and their allocation; credit, refunds and write-offs (Q1, P8, N1, P12).

A payment is posted to the debtor's account when received (cash, cheque, card, bank transfer),
then allocated to its open invoices, oldest first unless the clerk chooses; what is left is
credit, applied later or refunded. Penalty monies go to the penalty account (P12) as they are
allocated to a penalty invoice. A write-off is requested by one authorised person and takes
effect only when a second, different one approves it.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.billing.amounts import with_debtor_amounts, with_invoice_amounts, with_payment_amounts
from fogcontrol.billing.models import (
    Account,
    Allocation,
    Charge,
    Debtor,
    Invoice,
    LedgerEntry,
    Payment,
    Refund,
    WriteOff,
)
from fogcontrol.billing.services.common import entry, money, require_biller
from fogcontrol.billing.sources import release_sources, settle_sources
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.two_person import decision_note, require_person, require_second_person, stamp_decision
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.billing import allocate_oldest_first


def _method_in_english(record) -> str:
    """A payment's or refund's method as the ledger's English of record keeps it, whatever
    language is active (issue 18: pages show it in the reader's, billing/entry_text.py)."""
    with translation.override("en"):
        return record.get_method_display()


ZERO = Decimal("0.00")


def _open_invoices(debtor_id: int) -> list[Invoice]:
    """The debtor's open invoices, oldest first, locked, with what each still owes."""
    return list(
        with_invoice_amounts(
            Invoice.objects.select_for_update(of=("self",)).filter(
                debtor_id=debtor_id, status=Invoice.Status.OPEN
            )
        ).order_by("notice_date", "pk")
    )


def _plan(amount: Decimal, invoices: list[Invoice], chosen: dict | None) -> list[tuple[Invoice, Decimal]]:
    """Oldest first, or the clerk's choice ({invoice id: amount}), never more than an invoice owes."""
    by_id = {invoice.pk: invoice for invoice in invoices}
    if not chosen:
        pieces, _left = allocate_oldest_first(amount, [(i.pk, i.outstanding) for i in invoices])
        return [(by_id[piece.invoice], piece.amount) for piece in pieces]
    plan, errors = [], []
    for raw_id, raw_amount in chosen.items():
        invoice = by_id.get(int(raw_id))
        value = money(raw_amount, "allocations")
        if invoice is None:
            errors.append(f"Invoice {raw_id} is not an open invoice of this account.")
        elif value > invoice.outstanding:
            errors.append(f"{invoice.number} owes ${invoice.outstanding}: allocate no more than that.")
        else:
            plan.append((invoice, value))
    if sum((value for _invoice, value in plan), ZERO) > amount:
        errors.append(f"The allocations add up to more than the ${amount} available.")
    if errors:
        raise ValidationError({"allocations": errors})
    return plan


def _apply(pieces, *, on: dt.date, acting_user, reference: str) -> list[Allocation]:
    """Write the allocations (payment, invoice, amount), move penalty monies to the penalty account
    (P12), and settle the invoices now paid in full (telling their producers)."""
    allocations, postings, paid = [], [], []
    for payment, invoice, amount in pieces:
        allocations.append(
            Allocation(
                invoice=invoice, kind=Allocation.Kind.PAYMENT, payment=payment, amount=amount, allocated_on=on
            )
        )
        if invoice.penalty:
            postings.append(
                entry(
                    debtor_id=invoice.debtor_id,
                    posted_on=on,
                    kind=LedgerEntry.Kind.FUND,
                    debit=Account.PENALTY_CASH,
                    credit=Account.CASH,
                    amount=amount,
                    description=f"Penalty paid on {invoice.number} to the penalty account (P12)",
                    acting_user=acting_user,
                    invoice=invoice,
                    payment=payment,
                )  # fmt: skip
            )
        invoice.outstanding -= amount
        if invoice.outstanding == 0 and invoice not in paid:
            paid.append(invoice)
    Allocation.objects.bulk_create(allocations)
    LedgerEntry.objects.bulk_create(postings)
    _settle(paid, status=Invoice.Status.PAID, on=on, acting_user=acting_user, reference=reference)
    return allocations


def _settle(invoices: list[Invoice], *, status: str, on: dt.date, acting_user, reference: str) -> None:
    if not invoices:
        return
    Invoice.objects.filter(pk__in=[i.pk for i in invoices]).update(status=status, settled_on=on)
    for invoice in invoices:
        audit_record(
            acting_user=acting_user, action="billing.invoice_settle", instance=invoice,
            before={"status": Invoice.Status.OPEN}, after={"status": status, "settled_on": on.isoformat()},
        )  # fmt: skip
    lines = Charge.objects.filter(invoice__in=[i.pk for i in invoices]).values_list("source", "source_id")
    if status == Invoice.Status.PAID:
        settle_sources(lines, acting_user=acting_user, paid_on=on, reference=reference)
    else:  # written off: not paid; the producer decides what becomes of its records
        release_sources(lines, acting_user=acting_user, reason=reference)


@transaction.atomic
def payment_record(
    *,
    acting_user,
    debtor: Debtor,
    amount,
    method: str,
    received_on: dt.date | None = None,
    reference: str = "",
    notes: str = "",
    allocations: dict | None = None,
) -> Payment:
    """Record money received and allocate it: oldest invoice first, or as chosen
    (``{invoice id: amount}``); whatever is left is held as credit."""
    require_biller(acting_user, "record payments")
    received_on = received_on or town_today()
    errors = {}
    if method not in Payment.Method.values:
        errors["method"] = [f"Choose the method: {', '.join(Payment.Method.values)}."]
    if (
        method in (Payment.Method.CHEQUE, Payment.Method.CARD, Payment.Method.TRANSFER)
        and not reference.strip()
    ):
        errors["reference"] = ["Give the cheque number, card reference or transfer reference."]
    if received_on > town_today():
        errors["received_on"] = ["A payment cannot be recorded before it is received: give today or earlier."]
    if errors:
        raise ValidationError(errors)
    amount = money(amount, "amount")
    Debtor.objects.select_for_update(of=("self",)).filter(
        pk=debtor.pk
    ).first()  # one payment at a time per account
    plan = _plan(amount, _open_invoices(debtor.pk), allocations)
    payment = Payment(
        debtor=debtor, received_on=received_on, amount=amount, method=method, reference=reference.strip(),
        notes=notes.strip(), created_by=person(acting_user), created_by_label=actor_label_for(acting_user),
    )  # fmt: skip
    payment.full_clean()
    payment.save()
    entry(
        debtor_id=debtor.pk, posted_on=received_on, kind=LedgerEntry.Kind.PAYMENT, debit=Account.CASH,
        credit=Account.RECEIVABLE, amount=amount, description=f"Payment {payment.receipt_number} "
        f"({_method_in_english(payment)}{', ' + payment.reference if payment.reference else ''})",
        acting_user=acting_user, payment=payment,
    ).save()  # fmt: skip
    audit_record(acting_user=acting_user, action="billing.payment", instance=payment, after=snapshot(payment))
    _apply([(payment, invoice, value) for invoice, value in plan], on=received_on, acting_user=acting_user,
           reference=payment.receipt_number)  # fmt: skip
    return payment


@transaction.atomic
def credit_apply(
    *, acting_user, debtor: Debtor, allocations: dict | None = None, on: dt.date | None = None
) -> list[Allocation]:
    """Apply the debtor's credit (payments not yet allocated) to its open invoices."""
    require_biller(acting_user, "apply credit")
    on = on or town_today()
    Debtor.objects.select_for_update(of=("self",)).filter(pk=debtor.pk).first()
    credit = with_debtor_amounts(Debtor.objects.filter(pk=debtor.pk)).get().credit
    if credit <= 0:
        raise StateConflict(f"{debtor.name} has no credit to apply.")
    plan = _plan(credit, _open_invoices(debtor.pk), allocations)
    if not plan:
        raise StateConflict(f"{debtor.name} has no open invoice to apply its credit to.")
    sources = [
        [payment, payment.unallocated]
        for payment in with_payment_amounts(Payment.objects.filter(debtor=debtor)).order_by(
            "received_on", "pk"
        )
        if payment.unallocated > 0
    ]
    pieces = []
    for invoice, value in plan:
        while value > 0:
            source = next(item for item in sources if item[1] > 0)
            used = min(value, source[1])
            pieces.append((source[0], invoice, used))
            source[1] -= used
            value -= used
    return _apply(pieces, on=on, acting_user=acting_user, reference="credit applied")


@transaction.atomic
def refund_record(
    *, acting_user, debtor: Debtor, amount, reason: str, method: str, reference: str = "",
    refunded_on: dt.date | None = None,
) -> Refund:  # fmt: skip
    """Pay back credit, by an authorised person with the reason (never more than the credit)."""
    require_biller(acting_user, "refund")
    refunded_on = refunded_on or town_today()
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for the refund: it is kept with it."]})
    if method not in Payment.Method.values:
        raise ValidationError({"method": [f"Choose the method: {', '.join(Payment.Method.values)}."]})
    amount = money(amount, "amount")
    Debtor.objects.select_for_update(of=("self",)).filter(pk=debtor.pk).first()
    credit = with_debtor_amounts(Debtor.objects.filter(pk=debtor.pk)).get().credit
    if amount > credit:
        raise ValidationError(
            {"amount": [f"{debtor.name} has ${credit} of credit: refund no more than that."]}
        )
    refund = Refund(
        debtor=debtor, amount=amount, refunded_on=refunded_on, method=method, reference=reference.strip(),
        reason=reason.strip(), created_by=person(acting_user), created_by_label=actor_label_for(acting_user),
    )  # fmt: skip
    refund.full_clean()
    refund.save()
    entry(
        debtor_id=debtor.pk, posted_on=refunded_on, kind=LedgerEntry.Kind.REFUND, debit=Account.RECEIVABLE,
        credit=Account.CASH, amount=amount, description=f"Refund of credit ({_method_in_english(refund)})",
        reason=reason.strip(), acting_user=acting_user,
    ).save()  # fmt: skip
    audit_record(
        acting_user=acting_user, action="billing.refund", instance=refund, after=snapshot(refund), note=reason
    )
    return refund


@transaction.atomic
def write_off_request(*, acting_user, invoice: Invoice, amount, reason: str) -> WriteOff:
    """Ask to write off part or all of what an invoice owes, with the reason. Nothing changes on the
    account until a second authorised person approves it."""
    require_biller(acting_user, "request write-offs")
    require_person(acting_user, "A write-off")
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for the write-off: it is kept with it."]})
    amount = money(amount, "amount")
    invoice = with_invoice_amounts(Invoice.objects.filter(pk=invoice.pk)).get()
    if invoice.status != Invoice.Status.OPEN:
        raise StateConflict(
            f"Invoice {invoice.number} is {invoice.get_status_display().lower()}: nothing to write off."
        )
    if amount > invoice.outstanding:
        raise ValidationError(
            {"amount": [f"{invoice.number} owes ${invoice.outstanding}: write off no more."]}
        )
    write_off = WriteOff(
        invoice=invoice, amount=amount, reason=reason.strip(), requested_by=person(acting_user),
        requested_by_label=actor_label_for(acting_user),
    )  # fmt: skip
    write_off.full_clean()
    write_off.save()
    audit_record(acting_user=acting_user, action="billing.write_off_request", instance=write_off,
                 after=snapshot(write_off), note=reason)  # fmt: skip
    return write_off


@transaction.atomic
def write_off_decide(*, acting_user, write_off: WriteOff, approve: bool, note: str = "") -> WriteOff:
    """The second person's decision (two-person rule): the requester may not approve their own
    write-off. Approved, it is posted to the ledger and allocated to the invoice."""
    require_biller(acting_user, "approve write-offs")
    write_off = WriteOff.objects.select_for_update(of=("self",)).get(pk=write_off.pk)
    if write_off.status != WriteOff.Status.PENDING:
        raise StateConflict(f"This write-off was already {write_off.get_status_display().lower()}.")
    require_second_person(acting_user, write_off.requested_by_id, "A write-off")
    note = decision_note(approve=approve, note=note, what="the write-off")
    before = snapshot(write_off)
    on = town_today()
    if approve:
        invoice = with_invoice_amounts(
            Invoice.objects.select_for_update(of=("self",)).filter(pk=write_off.invoice_id)
        ).get()
        if invoice.status != Invoice.Status.OPEN or write_off.amount > invoice.outstanding:
            raise StateConflict(
                f"{invoice.number} now owes ${invoice.outstanding}: the write-off of ${write_off.amount} no longer fits."
            )
        Allocation.objects.create(
            invoice=invoice,
            kind=Allocation.Kind.WRITE_OFF,
            write_off=write_off,
            amount=write_off.amount,
            allocated_on=on,
        )
        entry(
            debtor_id=invoice.debtor_id, posted_on=on, kind=LedgerEntry.Kind.WRITE_OFF, debit=Account.WRITTEN_OFF,
            credit=Account.RECEIVABLE, amount=write_off.amount, description=f"Write-off on {invoice.number}",
            reason=write_off.reason, acting_user=acting_user, invoice=invoice,
        ).save()  # fmt: skip
        if write_off.amount == invoice.outstanding:
            _settle(
                [invoice],
                status=Invoice.Status.WRITTEN_OFF,
                on=on,
                acting_user=acting_user,
                reference="written off",
            )
    write_off.status = WriteOff.Status.APPROVED if approve else WriteOff.Status.REFUSED
    stamp_decision(write_off, acting_user, note)
    write_off.save()
    audit_record(acting_user=acting_user, action="billing.write_off_decide", instance=write_off, before=before,
                 after=snapshot(write_off), note=note)  # fmt: skip
    return write_off
