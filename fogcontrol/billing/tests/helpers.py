"""Shared helpers for billing's tests: direct charges, invoices and payments on the small town."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from fogcontrol.billing import services
from fogcontrol.billing.amounts import with_debtor_amounts, with_invoice_amounts
from fogcontrol.billing.models import Debtor, Invoice, LedgerEntry
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today


def clerk(town):
    return town.users[Role.BILLING_CLERK]


def days_ago(days: int) -> dt.date:
    return town_today() - dt.timedelta(days=days)


def charge(
    town,
    amount="100.00",
    *,
    establishment=None,
    kind="Q1",
    penalty=False,
    provision="Q1",
    on=None,
    party=None,
):
    """A charge staff enter directly, on the FSE's own establishment unless told otherwise."""
    if party is None and establishment is None:
        establishment = town.own_fse
    return services.charge_create(
        acting_user=clerk(town),
        amount=Decimal(amount),
        description=f"Test charge ({provision})",
        provision=provision,
        invoice_kind=kind,
        penalty=penalty,
        assessed_on=on or days_ago(0),
        establishment=establishment,
        party=party,
    )


def invoice(town, amount="100.00", *, notice_date=None, **kwargs) -> Invoice:
    """A charge, invoiced on ``notice_date`` (today by default)."""
    made = charge(town, amount, on=notice_date, **kwargs)
    (issued,) = services.invoices_issue(acting_user=clerk(town), debtor=made.debtor, notice_date=notice_date)
    return issued


def fresh(invoice: Invoice) -> Invoice:
    return with_invoice_amounts(Invoice.objects.filter(pk=invoice.pk)).get()


def account(debtor) -> Debtor:
    return with_debtor_amounts(Debtor.objects.filter(pk=debtor.pk)).get()


def sum_of_entries(debtor) -> Decimal:
    """What the debtor owes, straight from its ledger entries (no annotation)."""
    return sum((e.receivable_change for e in LedgerEntry.objects.filter(debtor=debtor)), Decimal("0.00"))


def manager(town):
    return town.users[Role.FOG_MANAGER]


def approved_lien(town, lien):
    """A lien asked for by the clerk and approved by the FOG Manager (two-person rule), ready to record."""
    lien = services.lien_request(acting_user=clerk(town), lien=lien, note="Delinquent 60 days (P9).")
    return services.lien_decide(acting_user=manager(town), lien=lien, approve=True)
