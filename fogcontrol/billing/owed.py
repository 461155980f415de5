"""Billing's answer to "is anything owed?" (fogcontrol.core.owed), registered in AppConfig.ready():
every open invoice of the establishment with what it still owes, delinquent from its delinquency
date (Q1, P8, N1; Q2), and the charges not yet invoiced. Enforcement asks it before a CSA (H3);
permits before a renewal (B6 on a licence held under Q2)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Sum

from fogcontrol.billing.amounts import with_invoice_amounts
from fogcontrol.billing.models import Charge, Invoice
from fogcontrol.core.owed import OwedAmount


def owed_by_establishment(establishment_id: int, on: dt.date) -> list[OwedAmount]:
    """Two queries: the open invoices concerning the establishment, and its uninvoiced charges."""
    owed = []
    invoices = with_invoice_amounts(
        Invoice.objects.filter(establishment_id=establishment_id, status=Invoice.Status.OPEN)
    ).order_by("notice_date", "pk")
    for invoice in invoices:
        if invoice.outstanding <= 0:
            continue
        delinquent = on >= invoice.delinquent_from
        owed.append(
            OwedAmount(
                label=f"Invoice {invoice.number}",
                amount=invoice.outstanding,
                provision=invoice.kind,
                delinquent=delinquent,
                delinquent_since=invoice.delinquent_from if delinquent else None,
            )
        )
    waiting = Charge.objects.filter(establishment_id=establishment_id, invoice__isnull=True).aggregate(
        total=Sum("amount")
    )["total"]
    if waiting:
        owed.append(OwedAmount(label="Charges not yet invoiced", amount=waiting, provision="Q1"))
    return owed
