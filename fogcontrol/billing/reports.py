"""Billing's reports (Q1, P8, N1, P12): billed, collected, outstanding and delinquent by period and
kind, reconciling to the ledger to the cent; the aging of what is owed (0-30, 31-45, 46-60, over
60 days from the notice date). Every figure is a SQL aggregate over the entries, charges and
allocations (a fixed number of queries, whatever the size of the books)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from django.db.models import Q, Sum

from fogcontrol.billing.amounts import RECEIVABLE_CHANGE
from fogcontrol.billing.models import Account, Allocation, Charge, Invoice, InvoiceKind, LedgerEntry
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.rules.billing import aging_buckets, cents

ZERO = Decimal("0.00")


@dataclasses.dataclass(frozen=True)
class KindRow:
    kind: str
    label: str
    penalty: bool
    billed: Decimal
    collected: Decimal
    outstanding: Decimal
    delinquent: Decimal


@dataclasses.dataclass(frozen=True)
class Report:
    start: dt.date
    end: dt.date
    opening: Decimal  # owed to the Town at the start (the receivable account)
    billed: Decimal
    collected: Decimal
    cancelled: Decimal
    written_off: Decimal
    refunded: Decimal
    closing: Decimal
    penalty_account_in: Decimal  # P12: penalty monies moved to the penalty account in the period
    penalty_account_balance: Decimal
    rows: list[KindRow]

    @property
    def reconciles(self) -> bool:
        """Opening + billed - collected - cancelled - written off + refunded == closing, to the cent."""
        return (
            self.opening + self.billed - self.collected - self.cancelled - self.written_off + self.refunded
            == self.closing
        )


def _sum(queryset, expression="amount") -> Decimal:
    return _c(queryset.aggregate(total=Sum(expression))["total"])


def _c(value) -> Decimal:
    """An aggregate in dollars and cents (SQLite answers sums with more decimal places)."""
    return cents(value or ZERO)


def billing_report(start: dt.date, end: dt.date) -> Report:
    """The period's movements on the receivable account, by kind of entry and by kind of invoice."""
    entries = LedgerEntry.objects.all()
    receivable = entries.filter(Q(debit=Account.RECEIVABLE) | Q(credit=Account.RECEIVABLE))
    totals = entries.filter(posted_on__gte=start, posted_on__lte=end).aggregate(
        **{
            kind: Sum("amount", filter=Q(kind=kind))
            for kind in ("charge", "payment", "cancellation", "write_off", "refund", "fund")
        }
    )
    fund_total = _sum(entries.filter(debit=Account.PENALTY_CASH, posted_on__lte=end))
    by_kind = {
        (row["invoice_kind"], row["penalty"]): row["total"]
        for row in Charge.objects.filter(assessed_on__gte=start, assessed_on__lte=end)
        .values("invoice_kind", "penalty")
        .annotate(total=Sum("amount"))
    }
    collected = {
        (row["invoice__kind"], row["invoice__penalty"]): row["total"]
        for row in Allocation.objects.filter(
            kind=Allocation.Kind.PAYMENT, allocated_on__gte=start, allocated_on__lte=end
        )
        .values("invoice__kind", "invoice__penalty")
        .annotate(total=Sum("amount"))
    }
    open_invoices = Invoice.objects.filter(notice_date__lte=end).exclude(
        Q(settled_on__isnull=False) & Q(settled_on__lte=end)
    )
    totals_by_kind = {
        (row["kind"], row["penalty"]): (_c(row["invoiced"]), _c(row["late"]))
        for row in open_invoices.values("kind", "penalty").annotate(
            invoiced=Sum("total"), late=Sum("total", filter=Q(delinquent_from__lte=end))
        )
    }
    allocated_by_kind = {
        (row["invoice__kind"], row["invoice__penalty"]): (_c(row["total"]), _c(row["late"]))
        for row in Allocation.objects.filter(invoice__in=open_invoices.values("pk"), allocated_on__lte=end)
        .values("invoice__kind", "invoice__penalty")
        .annotate(total=Sum("amount"), late=Sum("amount", filter=Q(invoice__delinquent_from__lte=end)))
    }
    rows = []
    for kind in InvoiceKind:
        for penalty in (False, True):
            key = (kind.value, penalty)
            total, late = totals_by_kind.get(key, (ZERO, ZERO))
            paid, paid_late = allocated_by_kind.get(key, (ZERO, ZERO))
            row = KindRow(
                kind=kind.value,
                label=kind.label + (" — penalty account (P12)" if penalty else ""),
                penalty=penalty,
                billed=_c(by_kind.get(key)),
                collected=_c(collected.get(key)),
                outstanding=total - paid,
                delinquent=late - paid_late,
            )
            if any((row.billed, row.collected, row.outstanding)):
                rows.append(row)
    return Report(
        start=start,
        end=end,
        opening=_sum(receivable.filter(posted_on__lt=start), RECEIVABLE_CHANGE),
        billed=_c(totals["charge"]),
        collected=_c(totals["payment"]),
        cancelled=_c(totals["cancellation"]),
        written_off=_c(totals["write_off"]),
        refunded=_c(totals["refund"]),
        closing=_sum(receivable.filter(posted_on__lte=end), RECEIVABLE_CHANGE),
        penalty_account_in=_c(totals["fund"]),
        penalty_account_balance=fund_total,
        rows=rows,
    )


def aging(on: dt.date) -> list[tuple[str, Decimal]]:
    """What open invoices still owe on ``on``, by days since their notice date (two aggregates), in
    the columns of the ruleset in force that day (P8, Q1, P9)."""
    columns = aging_buckets(ruleset_on(on))
    buckets = {}
    for index, (_label, low, high) in enumerate(columns):
        window = Q(notice_date__lte=on - dt.timedelta(days=low))
        if high is not None:
            window &= Q(notice_date__gte=on - dt.timedelta(days=high))
        buckets[f"b{index}"] = window
    open_invoices = Invoice.objects.filter(status=Invoice.Status.OPEN, notice_date__lte=on)
    billed = open_invoices.aggregate(**{name: Sum("total", filter=q) for name, q in buckets.items()})
    allocated = Allocation.objects.filter(invoice__in=open_invoices.values("pk")).aggregate(
        **{name: Sum("amount", filter=_on_invoice(q)) for name, q in buckets.items()}
    )
    return [
        (label, _c(billed[f"b{index}"]) - _c(allocated[f"b{index}"]))
        for index, (label, _low, _high) in enumerate(columns)
    ]


def _on_invoice(condition: Q) -> Q:
    """The same condition read through an allocation's invoice."""
    children = []
    for child in condition.children:
        if isinstance(child, Q):
            children.append(_on_invoice(child))
        else:
            name, value = child
            children.append((f"invoice__{name}", value))
    rebuilt = Q(*children, _connector=condition.connector, _negated=condition.negated)
    return rebuilt
