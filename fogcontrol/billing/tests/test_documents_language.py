"""Issue 18: the invoice (Q1), the receipt and the lien release (P9) print in the account holder's
language: an FSE downloading its own reads its preference, staff who print one get the debtor's
contact's; the FSE's statement page is in Spanish too."""

from decimal import Decimal

import pytest

from fogcontrol.billing import services
from fogcontrol.billing.models import Lien
from fogcontrol.billing.pdf import lien_release_pdf
from fogcontrol.billing.tests.helpers import clerk, days_ago, invoice
from fogcontrol.core.roles import Role
from fogcontrol.testing.documents import english_left, pdf_text
from fogcontrol.testing.factories import PartyFactory

pytestmark = pytest.mark.django_db


def _contact_prefers(town, language):
    town.own_fse.contact = PartyFactory(name="Rosa Méndez", preferred_language=language)
    town.own_fse.save(update_fields=["contact"])


def _fse(town, language):
    user = town.users[Role.FSE]
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    return user


def _paid(town):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    services.payment_record(
        acting_user=clerk(town), debtor=issued.debtor, amount=Decimal("20.00"), method="cheque",
        reference="1001", received_on=days_ago(0),
    )  # fmt: skip
    return issued, issued.allocations.get().payment


def _written(issued) -> list[str]:
    """What the invoice quotes as written: its lines, and the rules' working (English on record)."""
    return [line.description for line in issued.lines.all()] + list(issued.explanation.get("steps", []))


@pytest.mark.provision("Q1")
def test_q1_the_fse_downloads_its_invoice_and_receipt_in_spanish(town, client):
    _contact_prefers(town, "en")  # the FSE user's own preference decides its own download
    issued, payment = _paid(town)
    client.force_login(_fse(town, "es"))
    text = pdf_text(client.get(f"/billing/invoices/{issued.pk}/pdf/").content)
    assert f"Factura {issued.number}: aviso de montos adeudados" in text
    assert "Al recibir este aviso (Q1)" in text and "licencia comercial" in text and "(Q2)" in text
    assert english_left(text, *_written(issued)) == []
    receipt = pdf_text(client.get(f"/billing/payments/{payment.pk}/receipt/").content)
    assert f"Recibo {payment.receipt_number}" in receipt and "Retenido como crédito" in receipt
    assert english_left(receipt) == []


@pytest.mark.provision("Q1")
def test_q1_staff_print_the_invoice_in_the_contacts_language_and_english_stays_english(town, client):
    issued, payment = _paid(town)
    client.force_login(clerk(town))
    _contact_prefers(town, "es")
    text = pdf_text(client.get(f"/billing/invoices/{issued.pk}/pdf/").content)
    assert "aviso de montos adeudados" in text and english_left(text, *_written(issued)) == []
    assert "Recibido de" in pdf_text(client.get(f"/billing/payments/{payment.pk}/receipt/").content)
    # The clerk may ask for the other language on the download.
    asked = pdf_text(client.get(f"/billing/invoices/{issued.pk}/pdf/?language=en").content)
    assert "notice of amounts due" in asked
    _contact_prefers(town, "en")
    english = pdf_text(client.get(f"/billing/invoices/{issued.pk}/pdf/").content)
    assert (
        f"Invoice {issued.number}: notice of amounts due" in english
        and "On receipt of this notice (Q1)" in english
    )
    client.force_login(_fse(town, "en"))
    receipt = pdf_text(client.get(f"/billing/payments/{payment.pk}/receipt/").content)
    assert f"Receipt {payment.receipt_number}" in receipt and "Held as credit on the account" in receipt


@pytest.mark.provision("P9")
def test_p9_the_lien_release_prints_in_the_debtors_language(town):
    issued = invoice(town, "500.00", notice_date=days_ago(10), penalty=True, kind="P8", provision="P8")
    lien = Lien(
        debtor=issued.debtor, invoice=issued, apn="012-345-678", amount=issued.lines.get().amount,
        recorded_on=days_ago(5), recording_number="2026-000123", released_on=days_ago(0),
        release_number="2026-000456", owner_of_record="Rosa Méndez",
    )  # fmt: skip
    _contact_prefers(town, "es")
    text = pdf_text(lien_release_pdf(lien, user=clerk(town)))
    assert "Liberación de gravamen (P9)" in text and "Registrador del Condado" in text
    assert "2026-000123" in text and "012-345-678" in text
    assert english_left(text) == []
    assert "Release of lien (P9)" in pdf_text(lien_release_pdf(lien, user=clerk(town), language="en"))


@pytest.mark.provision("Q2")
def test_q2_the_fse_reads_its_statement_and_payment_in_spanish(town, client):
    issued, payment = _paid(town)
    client.force_login(_fse(town, "es"))
    from django.utils.html import strip_tags

    page = strip_tags(client.get(f"/billing/accounts/{issued.debtor_id}/").content.decode())
    assert "Estado de cuenta" in page and "Saldo final" in page
    detail = strip_tags(client.get(f"/billing/payments/{payment.pk}/").content.decode())
    assert "Aplicado a" in detail and "Retenido como crédito" in detail
