"""The sums every list and report needs, as SQL annotations (no query per row).

What a debtor owes is derived from its ledger entries on the receivable account; what an invoice
still owes is its total less its allocations; a debtor's credit is what its payments brought in
and no allocation or refund used. Nothing of this is stored apart from the entries.
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Case, DecimalField, F, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce, Round

from fogcontrol.billing.models import Account, Allocation, Charge, LedgerEntry, Payment, Refund

AMOUNT = DecimalField(max_digits=14, decimal_places=2)
NOTHING = Value(Decimal("0.00"), output_field=AMOUNT)


def _cents(expression):
    """Round a computed amount to the cent in SQL. SQLite adds decimals as binary floating point and
    Django does not quantize a computed column, so 0.1 + 0.2 would come back as 0.30000000000000004;
    rounding makes every annotation an exact amount in dollars and cents on both databases."""
    return Round(expression, 2, output_field=AMOUNT)


def _sum(queryset: QuerySet, link: str, expression=None):
    """The sum of ``expression`` (``amount``) over ``queryset``'s rows pointing at the outer row."""
    rows = (
        queryset.filter(**{link: OuterRef("pk")})
        .order_by()
        .values(link)
        .annotate(total=Sum(expression or "amount"))
        .values("total")
    )
    return _cents(Coalesce(Subquery(rows, output_field=AMOUNT), NOTHING, output_field=AMOUNT))


RECEIVABLE_CHANGE = Case(
    When(debit=Account.RECEIVABLE, then=F("amount")),
    When(credit=Account.RECEIVABLE, then=-F("amount")),
    default=NOTHING,
    output_field=AMOUNT,
)


def with_invoice_amounts(invoices: QuerySet) -> QuerySet:
    """Each invoice with ``allocated`` (paid, written off, cancelled) and ``outstanding``."""
    return invoices.annotate(allocated=_sum(Allocation._base_manager.all(), "invoice")).annotate(
        outstanding=_cents(F("total") - F("allocated")),
        paid=_sum(Allocation._base_manager.filter(kind=Allocation.Kind.PAYMENT), "invoice"),
    )


def with_debtor_amounts(debtors: QuerySet) -> QuerySet:
    """Each debtor with ``balance`` (what it owes, from its entries: negative is credit),
    ``credit`` (payments not allocated nor refunded) and ``uninvoiced`` (charges not yet billed)."""
    entries = LedgerEntry._base_manager.filter(Q(debit=Account.RECEIVABLE) | Q(credit=Account.RECEIVABLE))
    return debtors.annotate(
        balance=_sum(entries, "debtor", RECEIVABLE_CHANGE),
        paid_in=_sum(Payment._base_manager.all(), "debtor"),
        allocated_out=_sum(Allocation._base_manager.filter(kind=Allocation.Kind.PAYMENT), "payment__debtor"),
        refunded=_sum(Refund._base_manager.all(), "debtor"),
        uninvoiced=_sum(Charge._base_manager.filter(invoice__isnull=True), "debtor"),
    ).annotate(credit=_cents(F("paid_in") - F("allocated_out") - F("refunded")))


def with_payment_amounts(payments: QuerySet) -> QuerySet:
    """Each payment with ``unallocated``: what is left of it as credit (refunds aside)."""
    return payments.annotate(
        allocated=_sum(Allocation._base_manager.filter(kind=Allocation.Kind.PAYMENT), "payment")
    ).annotate(unallocated=_cents(F("amount") - F("allocated")))
