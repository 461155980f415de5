"""Every write in billing: keyword-only, ``acting_user``, one transaction, audited."""

from fogcontrol.billing.services.charges import charge_create, charges_pickup
from fogcontrol.billing.services.common import debtor_for
from fogcontrol.billing.services.delinquency import billing_nightly, delinquency_sweep, lien_sweep
from fogcontrol.billing.services.invoices import invoice_cancel, invoice_deliver, invoices_issue
from fogcontrol.billing.services.liens import lien_decide, lien_record, lien_release, lien_request
from fogcontrol.billing.services.payments import (
    credit_apply,
    payment_record,
    refund_record,
    write_off_decide,
    write_off_request,
)

__all__ = [
    "billing_nightly",
    "charge_create",
    "charges_pickup",
    "credit_apply",
    "debtor_for",
    "delinquency_sweep",
    "invoice_cancel",
    "invoice_deliver",
    "invoices_issue",
    "lien_decide",
    "lien_record",
    "lien_release",
    "lien_request",
    "lien_sweep",
    "payment_record",
    "refund_record",
    "write_off_decide",
    "write_off_request",
]
