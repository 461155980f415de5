"""Billing's printable documents (WeasyPrint, as permits' PDFs): the invoice (Q1, P8, N1), the
receipt of a payment, and the letter releasing a lien (P9)."""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from fogcontrol.permits.services.common import town_contacts


def _pdf(template: str, context: dict) -> bytes:
    # WeasyPrint reports each step at INFO: quieten it, and import it only when printing.
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    return HTML(string=render_to_string(template, {"contacts": town_contacts(), **context})).write_pdf()


def invoice_pdf(invoice) -> bytes:
    """The notice of amounts due: each line with its provision, the notice, due and delinquency dates."""
    return _pdf("billing/pdf/invoice.html", {"invoice": invoice})


def receipt_pdf(payment) -> bytes:
    """The receipt of one payment and what it paid."""
    return _pdf("billing/pdf/receipt.html", {"payment": payment})


def lien_release_pdf(lien) -> bytes:
    """P9: the letter releasing a lien once the penalty is paid."""
    return _pdf("billing/pdf/lien_release.html", {"lien": lien})
