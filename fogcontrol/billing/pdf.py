"""Billing's printable documents (WeasyPrint, as permits' PDFs): the invoice (Q1, P8, N1), the
receipt of a payment, and the letter releasing a lien (P9).

Each prints in the account holder's language (issue 18, docs/i18n.md): an FSE or an owner
downloading their own reads their ``preferred_language``; staff who print one get the debtor's
(the establishment's contact or operator, or the party billed)."""

from __future__ import annotations

from fogcontrol.core.languages import document_language, establishment_recipient
from fogcontrol.core.pdf import render_pdf
from fogcontrol.permits.services.common import town_contacts


def debtor_language(user, debtor, asked: str | None = None) -> str:
    """The language a document for ``debtor`` prints in for ``user`` (see the module docstring);
    ``asked``: a language chosen on the download (``?language=en`` for the County Recorder's copy)."""
    recipient = debtor.party if debtor.party_id else establishment_recipient(debtor.establishment)
    return document_language(user, recipient, asked=asked)


def _pdf(template: str, context: dict, *, language: str) -> bytes:
    return render_pdf(template, {"contacts": town_contacts(), **context}, language=language)


def invoice_pdf(invoice, *, user=None, language: str | None = None) -> bytes:
    """The notice of amounts due: each line with its provision, the notice, due and delinquency dates."""
    language = debtor_language(user, invoice.debtor, language)
    return _pdf("billing/pdf/invoice.html", {"invoice": invoice}, language=language)


def receipt_pdf(payment, *, user=None, language: str | None = None) -> bytes:
    """The receipt of one payment and what it paid."""
    language = debtor_language(user, payment.debtor, language)
    return _pdf("billing/pdf/receipt.html", {"payment": payment}, language=language)


def lien_release_pdf(lien, *, user=None, language: str | None = None) -> bytes:
    """P9: the letter releasing a lien once the penalty is paid (to the owner of record, through
    the County Recorder: in the debtor's language, the recording words stay the Recorder's)."""
    language = debtor_language(user, lien.debtor, language)
    return _pdf("billing/pdf/lien_release.html", {"lien": lien}, language=language)
