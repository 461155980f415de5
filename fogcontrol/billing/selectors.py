"""Every read of billing, scoped to the user (outside the scope: 404), with its sums in SQL."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from fogcontrol.billing.amounts import (
    RECEIVABLE_CHANGE,
    with_debtor_amounts,
    with_invoice_amounts,
    with_payment_amounts,
)
from fogcontrol.billing.models import (
    Account,
    Allocation,
    Charge,
    Debtor,
    Invoice,
    InvoiceDelivery,
    LedgerEntry,
    Lien,
    Payment,
    WriteOff,
)
from fogcontrol.core.scoping import VIEW
from fogcontrol.rules.billing import cents

ZERO = Decimal("0.00")


def debtors_visible_to(user, action: str = VIEW) -> QuerySet[Debtor]:
    return Debtor.objects.visible_to(user, action)


def account_list(user) -> QuerySet[Debtor]:
    """Accounts with what each owes, its credit and what waits to be invoiced, in one query."""
    return with_debtor_amounts(debtors_visible_to(user).select_related("establishment", "party")).order_by(
        "pk"
    )


def account_detail(user, pk) -> Debtor:
    return account_list(user).get(pk=pk)


def invoice_list(user) -> QuerySet[Invoice]:
    return with_invoice_amounts(
        Invoice.objects.visible_to(user).select_related(
            "debtor__establishment", "debtor__party", "establishment"
        )
    )


def invoice_detail(user, pk) -> Invoice:
    return (
        invoice_list(user)
        .prefetch_related(
            Prefetch("lines", queryset=Charge.objects.order_by("pk")),
            Prefetch("deliveries", queryset=InvoiceDelivery.objects.order_by("sent_on", "pk")),
            Prefetch("allocations", queryset=Allocation.objects.select_related("payment").order_by("pk")),
        )
        .get(pk=pk)
    )


def payment_list(user) -> QuerySet[Payment]:
    return with_payment_amounts(
        Payment.objects.visible_to(user).select_related("debtor__establishment", "debtor__party")
    )


def payment_detail(user, pk) -> Payment:
    return (
        payment_list(user)
        .prefetch_related(
            Prefetch("allocations", queryset=Allocation.objects.select_related("invoice").order_by("pk"))
        )
        .get(pk=pk)
    )


def charges_waiting(user) -> QuerySet[Charge]:
    """Charges not yet on an invoice."""
    return (
        Charge.objects.visible_to(user)
        .filter(invoice__isnull=True)
        .select_related("debtor__establishment", "debtor__party")
        .order_by("assessed_on", "pk")
    )


def write_offs_pending(user) -> QuerySet[WriteOff]:
    return (
        WriteOff.objects.visible_to(user)
        .filter(status=WriteOff.Status.PENDING)
        .select_related("invoice__debtor__establishment", "invoice__debtor__party", "requested_by")
    )


def lien_list(user) -> QuerySet[Lien]:
    return Lien.objects.visible_to(user).select_related("invoice", "debtor__establishment", "debtor__party")


def liens_waiting(user) -> QuerySet[Lien]:
    """Liens asked for and waiting for a second approval (two-person rule), oldest request first."""
    return lien_list(user).filter(status=Lien.Status.REQUESTED).order_by("requested_at", "pk")


def lien_detail(user, pk) -> Lien:
    return lien_list(user).get(pk=pk)


# --- the statement ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StatementLine:
    entry: LedgerEntry
    change: Decimal
    balance: Decimal


@dataclasses.dataclass(frozen=True)
class Statement:
    debtor: Debtor
    start: dt.date | None
    end: dt.date | None
    opening: Decimal
    lines: list[StatementLine]
    closing: Decimal


def statement(debtor: Debtor, *, start: dt.date | None = None, end: dt.date | None = None) -> Statement:
    """The account's entries on the receivable account between two days, with the opening and
    running balances: two queries."""
    entries = LedgerEntry.objects.filter(debtor=debtor).filter(
        Q(debit=Account.RECEIVABLE) | Q(credit=Account.RECEIVABLE)
    )
    opening = ZERO
    if start is not None:
        opening = cents(
            entries.filter(posted_on__lt=start).aggregate(total=Sum(RECEIVABLE_CHANGE))["total"] or ZERO
        )
        entries = entries.filter(posted_on__gte=start)
    if end is not None:
        entries = entries.filter(posted_on__lte=end)
    balance, lines = opening, []
    # The records a line is written from in the reader's language (billing/entry_text.py): joined.
    for item in entries.select_related("charge", "payment", "invoice").order_by("posted_on", "pk"):
        balance += item.receivable_change
        lines.append(StatementLine(entry=item, change=item.receivable_change, balance=balance))
    return Statement(debtor=debtor, start=start, end=end, opening=opening, lines=lines, closing=balance)


# --- Q2: the business licence hold list ------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class LicenceHold:
    establishment_id: int
    business_name: str
    licence_number: str
    amount: Decimal
    since: dt.date
    invoices: list[str]


def licence_holds(on: dt.date, *, licence: str | None = None) -> list[LicenceHold]:
    """Q2: every business licence held on ``on`` because an invoice concerning the establishment is
    delinquent and unpaid; the amount delinquent and the day the hold began. One query."""
    invoices = with_invoice_amounts(
        Invoice.objects.filter(
            status=Invoice.Status.OPEN, delinquent_from__lte=on, establishment__isnull=False
        )
    ).select_related("establishment")
    if licence is not None:
        invoices = invoices.filter(establishment__licence_number__iexact=licence.strip())
    holds: dict[int, dict] = {}
    for invoice in invoices.order_by("establishment__business_name", "delinquent_from", "pk"):
        if invoice.outstanding <= 0:
            continue
        hold = holds.setdefault(
            invoice.establishment_id,
            {
                "establishment": invoice.establishment,
                "amount": ZERO,
                "since": invoice.delinquent_from,
                "invoices": [],
            },
        )
        hold["amount"] += invoice.outstanding
        hold["since"] = min(hold["since"], invoice.delinquent_from)
        hold["invoices"].append(invoice.number)
    return [
        LicenceHold(
            establishment_id=pk,
            business_name=hold["establishment"].business_name,
            licence_number=hold["establishment"].licence_number,
            amount=hold["amount"],
            since=hold["since"],
            invoices=hold["invoices"],
        )
        for pk, hold in holds.items()
    ]


def portal_accounts(user, on: dt.date) -> list[Debtor]:
    """The user's own accounts that owe something, each with ``delinquent_since`` (the earliest
    delinquency date of its open invoices on ``on``, Q1/P8/N1), for the portal's home. One query."""
    earliest = (
        Invoice.objects.filter(debtor=OuterRef("pk"), status=Invoice.Status.OPEN, delinquent_from__lte=on)
        .order_by("delinquent_from")
        .values("delinquent_from")[:1]
    )
    return list(account_list(user).annotate(delinquent_since=Subquery(earliest)).filter(balance__gt=0))
