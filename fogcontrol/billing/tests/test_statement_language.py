"""Issue 18: an account's statement (Q1, P12) and an invoice's charges in the reader's language.
The ledger keeps the English of record; what the program wrote is shown in Spanish to a Spanish
reader, what staff typed stays as written, and an English reader sees the entries unchanged."""

import pytest
from django.utils.formats import date_format
from django.utils.html import strip_tags
from django.utils.translation import override

from fogcontrol.billing import services
from fogcontrol.billing.models import Charge, LedgerEntry
from fogcontrol.billing.tests.helpers import charge, clerk, days_ago
from fogcontrol.billing.tests.test_producers import bill, d6_charge, nightly, pay_in_full
from fogcontrol.core.roles import Role
from fogcontrol.testing.documents import english_left, pdf_text

pytestmark = pytest.mark.django_db


def _account_with_history(town):
    """A D6 charge the program billed and paid by transfer, and a charge staff typed, invoiced
    and cancelled with a reason."""
    d6_charge(town, incurred_on=days_ago(3))
    nightly()
    picked = Charge.objects.get(source="inspections.compliancecharge")
    d6_invoice = bill(town, picked)
    payment = pay_in_full(town, d6_invoice, reference="TX-D6")
    typed = charge(town, "40.00")
    typed_invoice = bill(town, typed)
    services.invoice_cancel(invoice=typed_invoice, acting_user=clerk(town), reason="Entered twice")
    return d6_invoice, payment, typed, typed_invoice


def _reader(town, client, language):
    user = town.users[Role.FSE]
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    client.force_login(user)


@pytest.mark.provision("Q1", "D6", "P12")
def test_q1_a_spanish_fse_reads_its_statement_lines_in_spanish_and_staff_text_as_written(town, client):
    with override("es"):  # posted while Spanish is active: the ledger still keeps English
        d6_invoice, payment, typed, typed_invoice = _account_with_history(town)
    _reader(town, client, "es")
    page = strip_tags(client.get(f"/billing/accounts/{d6_invoice.debtor_id}/").content.decode())
    with override("es"):
        day = date_format(days_ago(3), "l j \\d\\e F \\d\\e Y")
    assert (
        f"Cargo Especial de Cumplimiento de FOG (D6): inspección de seguimiento, 2 horas, {day} (D6)" in page
    )
    assert f"Pago {payment.receipt_number} (Transferencia bancaria, TX-D6)" in page
    assert f"Factura {typed_invoice.number} anulada (Entered twice)" in page
    assert f"{typed.description} (Q1)" in page  # a charge staff typed stays as written
    statement = page[page.index("Estado de cuenta") : page.index("Saldo final")]
    assert english_left(statement, typed.description, "Entered twice", "TX-D6") == []
    # The ledger keeps its English of record.
    entry = LedgerEntry.objects.get(payment=payment)
    assert entry.description == f"Payment {payment.receipt_number} (Bank transfer, TX-D6)"
    picked = LedgerEntry.objects.get(kind="charge", charge__source="inspections.compliancecharge")
    assert picked.description.startswith(
        "Specialty FOG Compliance Charge (D6): follow-up inspection, 2 hours, "
    )
    # The invoice prints the program's charge in Spanish too.
    text = pdf_text(client.get(f"/billing/invoices/{d6_invoice.pk}/pdf/").content)
    assert "inspección de seguimiento, 2 horas" in text


@pytest.mark.provision("Q1", "D6")
def test_q1_an_english_fse_reads_the_statement_entries_exactly_as_recorded(town, client):
    d6_invoice, payment, typed, typed_invoice = _account_with_history(town)
    _reader(town, client, "en")
    page = strip_tags(client.get(f"/billing/accounts/{d6_invoice.debtor_id}/").content.decode())
    for entry in LedgerEntry.objects.filter(debtor_id=d6_invoice.debtor_id, kind__in=["charge", "payment"]):
        assert entry.description in page
    assert "Specialty FOG Compliance Charge (D6): follow-up inspection, 2 hours, " in page
    assert f"Payment {payment.receipt_number} (Bank transfer, TX-D6)" in page
    assert f"Invoice {typed_invoice.number} cancelled (Entered twice)" in page
