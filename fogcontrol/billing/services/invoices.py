"""Invoices: issuing notices of amounts due with their dates (Q1, P8, N1), recording their delivery,
and cancelling one (an entry with its reason, never a delete)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.billing.amounts import with_invoice_amounts
from fogcontrol.billing.models import (
    Account,
    Allocation,
    Charge,
    Debtor,
    Invoice,
    InvoiceDelivery,
    InvoiceKind,
    LedgerEntry,
)
from fogcontrol.billing.services.common import entry, require_biller, revenue_account
from fogcontrol.billing.sources import release_sources
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.billing import invoice_dates, total


@transaction.atomic
def invoices_issue(
    *, acting_user, debtor: Debtor, notice_date: dt.date | None = None, charges=None
) -> list[Invoice]:
    """Bill the debtor's charges not yet invoiced (or those named): one invoice per kind (Q1, P8,
    N1), kept apart for penalty monies (P12) and per establishment, each with its dates from the
    rules (Counting days: a last day on a closed day moves to the next business day)."""
    require_biller(acting_user, "issue invoices")
    notice_date = notice_date or town_today()
    if notice_date > town_today():
        raise ValidationError(
            {"notice_date": ["An invoice cannot be dated in the future: give today or earlier."]}
        )
    pending = (
        Charge.objects.select_for_update(of=("self",))
        .filter(debtor=debtor, invoice__isnull=True)
        .order_by("pk")
    )
    if charges is not None:
        wanted = [getattr(charge, "pk", charge) for charge in charges]
        pending = pending.filter(pk__in=wanted)
        if pending.count() != len(set(wanted)):
            raise ValidationError({"charges": ["Every charge must be this debtor's and not yet invoiced."]})
    groups: dict[tuple, list[Charge]] = defaultdict(list)
    for charge in pending:
        groups[(charge.invoice_kind, charge.penalty, charge.establishment_id)].append(charge)
    if not groups:
        raise ValidationError({"charges": [f"{debtor.name} has no charge waiting to be invoiced."]})
    ruleset, calendar = ruleset_on(notice_date), town_calendar()
    invoices = []
    for (kind, penalty, establishment_id), lines in groups.items():
        # P8: a penalty is due 30 days from the day its order became final (its charge's date), not
        # from the day billing prints the invoice: the invoice never gives the debtor more time.
        dated = (
            min(notice_date, max(line.assessed_on for line in lines))
            if kind == InvoiceKind.P8
            else notice_date
        )
        dates = invoice_dates(kind=kind, notice_date=dated, ruleset=ruleset, calendar=calendar)
        invoice = Invoice(
            debtor=debtor,
            establishment_id=establishment_id,
            kind=kind,
            penalty=penalty,
            total=total(line.amount for line in lines),
            notice_date=dated,
            due_on=dates.due_on,
            last_day_to_pay=dates.last_day_to_pay,
            delinquent_from=dates.delinquent_from,
            lien_eligible_from=dates.lien_eligible_from,
            explanation=dates.explanation.as_record(),
            created_by=person(acting_user),
            created_by_label=actor_label_for(acting_user),
        )
        invoice.full_clean()
        invoice.save()
        Charge.objects.filter(pk__in=[line.pk for line in lines]).update(invoice=invoice)
        audit_record(
            acting_user=acting_user,
            action="billing.invoice",
            instance=invoice,
            after=snapshot(invoice),
            note=f"Lines: {', '.join(str(line.pk) for line in lines)}.",
        )
        invoices.append(invoice)
    return invoices


def _locked_open(invoice: Invoice, what: str) -> Invoice:
    invoice = with_invoice_amounts(Invoice.objects.select_for_update(of=("self",))).get(pk=invoice.pk)
    if invoice.status != Invoice.Status.OPEN:
        raise StateConflict(
            f"Invoice {invoice.number} is {invoice.get_status_display().lower()}: nothing to {what}."
        )
    return invoice


@transaction.atomic
def invoice_cancel(*, invoice: Invoice, acting_user, reason: str, on: dt.date | None = None) -> Invoice:
    """Cancel what an invoice still owes: a reversing ledger entry with the reason (never a delete).
    What was paid on it stays paid."""
    require_biller(acting_user, "cancel invoices")
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Give the reason for cancelling: it is kept with the invoice."]})
    invoice = _locked_open(invoice, "cancel")
    on = on or town_today()
    before = snapshot(invoice)
    if invoice.outstanding > 0:
        Allocation.objects.create(
            invoice=invoice, kind=Allocation.Kind.CANCELLATION, amount=invoice.outstanding, allocated_on=on
        )
        entry(
            debtor_id=invoice.debtor_id,
            posted_on=on,
            kind=LedgerEntry.Kind.CANCELLATION,
            debit=revenue_account(invoice.penalty),
            credit=Account.RECEIVABLE,
            amount=invoice.outstanding,
            description=f"Invoice {invoice.number} cancelled",
            reason=reason.strip(),
            acting_user=acting_user,
            invoice=invoice,
        ).save()
    invoice.status = Invoice.Status.CANCELLED
    invoice.cancel_reason = reason.strip()
    invoice.settled_on = on
    invoice.save(update_fields=["status", "cancel_reason", "settled_on"])
    lines = Charge.objects.filter(invoice=invoice).values_list("source", "source_id")
    release_sources(
        lines, acting_user=acting_user, reason=f"invoice {invoice.number} cancelled: {reason.strip()}"
    )
    audit_record(
        acting_user=acting_user, action="billing.invoice_cancel", instance=invoice, before=before,
        after=snapshot(invoice), note=reason.strip(),
    )  # fmt: skip
    return invoice


@transaction.atomic
def invoice_deliver(
    *, invoice: Invoice, acting_user, method: str, sent_to: str, sent_on: dt.date | None = None
) -> InvoiceDelivery:
    """Record that the invoice was sent, by email or post, and to whom."""
    require_biller(acting_user, "record deliveries")
    invoice = Invoice.objects.get(pk=invoice.pk)  # its state now, not as the caller read it
    if invoice.status == Invoice.Status.CANCELLED:
        raise StateConflict(f"Invoice {invoice.number} is cancelled: it is not sent.")
    sent_on = sent_on or town_today()
    errors = {}
    if method not in InvoiceDelivery.Method.values:
        errors["method"] = [f"Choose how it was sent: {', '.join(InvoiceDelivery.Method.values)}."]
    if not (sent_to or "").strip():
        errors["sent_to"] = ["Give the email address or postal address it was sent to."]
    if sent_on > town_today():
        errors["sent_on"] = ["A delivery cannot be recorded before it happens: give today or earlier."]
    if errors:
        raise ValidationError(errors)
    delivery = InvoiceDelivery(
        invoice=invoice, method=method, sent_on=sent_on, sent_to=sent_to.strip(),
        created_by=person(acting_user), created_by_label=actor_label_for(acting_user),
    )  # fmt: skip
    delivery.full_clean()
    delivery.save()
    audit_record(
        acting_user=acting_user, action="billing.invoice_deliver", instance=delivery, after=snapshot(delivery)
    )
    return delivery
