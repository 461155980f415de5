"""Billing's lists as spreadsheets (core/exports.py): amounts as numbers, states in words."""

from __future__ import annotations

import datetime as dt

from fogcontrol.billing.models import Invoice
from fogcontrol.core.exports import Column

ACCOUNT_COLUMNS = (
    Column("Account", lambda d: d.name),
    Column("Kind", lambda d: d.kind_label),
    Column("Balance", lambda d: d.balance),
    Column("Credit", lambda d: d.credit),
    Column("Not yet invoiced", lambda d: d.uninvoiced),
)


def invoice_status(invoice, today: dt.date) -> str:
    """The state the invoice list shows: an open invoice past its last day is "Delinquent"."""
    if invoice.status == Invoice.Status.OPEN:
        return "Delinquent" if invoice.delinquent_from <= today else "Open"
    return invoice.get_status_display()


def invoice_columns(today: dt.date):
    return (
        Column("Invoice", lambda i: i.number),
        Column("Account", lambda i: i.debtor.name),
        Column("Kind", lambda i: i.get_kind_display()),
        Column("Penalty (P12)", lambda i: i.penalty),
        Column("Notice date", lambda i: i.notice_date),
        Column("Last day to pay", lambda i: i.last_day_to_pay),
        Column("Total", lambda i: i.total),
        Column("Still owed", lambda i: i.outstanding),
        Column("Status", lambda i: invoice_status(i, today)),
    )


PAYMENT_COLUMNS = (
    Column("Receipt", lambda p: p.receipt_number),
    Column("Account", lambda p: p.debtor.name),
    Column("Received", lambda p: p.received_on),
    Column("Method", lambda p: p.get_method_display()),
    Column("Reference", lambda p: p.reference),
    Column("Amount", lambda p: p.amount),
    Column("Held as credit", lambda p: p.unallocated),
)

LIEN_COLUMNS = (
    Column("Parcel (APN)", lambda lien: lien.apn or "no parcel on record"),
    Column("Owner of record", lambda lien: lien.owner_of_record),
    Column("Invoice", lambda lien: lien.invoice.number),
    Column("Invoice status", lambda lien: lien.invoice.get_status_display()),
    Column("Amount", lambda lien: lien.amount),
    Column("Eligible", lambda lien: lien.eligible_on),
    Column("Status", lambda lien: lien.get_status_display()),
    Column("Recorded on", lambda lien: lien.recorded_on),
    Column("Recording number", lambda lien: lien.recording_number),
    Column("Released on", lambda lien: lien.released_on),
    Column("Release number", lambda lien: lien.release_number),
)

# Q2: the licence office's list (billing.selectors.licence_holds, one row per establishment held).
HOLD_COLUMNS = (
    Column("Business licence", lambda h: h.licence_number),
    Column("Business name", lambda h: h.business_name),
    Column("Amount delinquent", lambda h: h.amount),
    Column("Held since", lambda h: h.since),
    Column("Invoices", lambda h: " ".join(h.invoices)),
)
