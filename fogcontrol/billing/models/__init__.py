"""Billing's records (Q1, Q2, P8, P9, P12, N1, N2, O2, D6, I2)."""

from fogcontrol.billing.models.accounts import (
    MONEY,
    ZERO,
    Account,
    Charge,
    Debtor,
    InvoiceKind,
    LedgerEntry,
    invoice_kind_choices,
)
from fogcontrol.billing.models.invoices import Invoice, InvoiceDelivery, Lien
from fogcontrol.billing.models.payments import Allocation, Payment, Refund, WriteOff

__all__ = [
    "MONEY",
    "ZERO",
    "Account",
    "Allocation",
    "Charge",
    "Debtor",
    "Invoice",
    "InvoiceDelivery",
    "InvoiceKind",
    "invoice_kind_choices",
    "LedgerEntry",
    "Lien",
    "Payment",
    "Refund",
    "WriteOff",
]
