"""Who may see and do what in billing: every page and API route × every role.

Staff see every account; an FSE user its establishment's (`own_fse`), a property owner those of
the FSEs on its parcels and its own as a party; a hauler none: outside the scope, 404. The Billing
Clerk and the FOG Manager take every step (`roles.BILLERS`); other staff read. The work list,
write-offs, licence holds (Q2), liens (P9) and reports are staff's: outside users get 404.

Run by billing/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.billing import services
from fogcontrol.billing.models import Lien
from fogcontrol.billing.roles import APPROVERS, BILLERS
from fogcontrol.billing.tests.helpers import approved_lien, clerk, days_ago, invoice
from fogcontrol.core.roles import Role
from fogcontrol.testing.access import STAFF, api, page
from fogcontrol.testing.factories import UserFactory

OWN = frozenset({Role.FSE})


def build(town) -> None:
    """The FSE's account with an open fee invoice, a paid penalty whose lien is released (P9), a
    payment and a write-off awaiting approval."""
    fee = invoice(town, "120.00", notice_date=days_ago(100))
    penalty = invoice(town, "500.00", kind="P8", penalty=True, provision="P7", notice_date=days_ago(130))
    waiting = invoice(town, "300.00", kind="P8", penalty=True, provision="P7", notice_date=days_ago(140))
    services.billing_nightly()
    # Asked for by a second clerk, so that both the town's clerk and its FOG Manager may decide it.
    town.records["waiting_lien"] = services.lien_request(
        acting_user=UserFactory(username="billing_2", role=Role.BILLING_CLERK),
        lien=Lien.objects.get(invoice=waiting),
    )
    released = approved_lien(town, Lien.objects.get(invoice=penalty))
    services.lien_record(
        acting_user=clerk(town), lien=released, recorded_on=days_ago(5), document_number="D-1"
    )
    payment = services.payment_record(
        acting_user=clerk(town),
        debtor=fee.debtor,
        amount="500.00",
        method="cash",
        allocations={penalty.pk: "500.00"},
    )
    services.lien_release(
        acting_user=clerk(town), lien=released, released_on=days_ago(0), document_number="D-2"
    )
    town.records["invoice"] = fee
    town.records["debtor"] = fee.debtor
    town.records["payment"] = payment
    town.records["lien"] = released
    town.records["write_off"] = services.write_off_request(
        acting_user=clerk(town), invoice=fee, amount="10.00", reason="Hardship"
    )


def _i(t):
    return t["invoice"].pk


def _d(t):
    return t["debtor"].pk


def _p(t):
    return t["payment"].pk


def _lien(t):
    return t["lien"].pk


def _waiting(t):
    return t["waiting_lien"].pk


ROUTES = [
    page("billing:worklist", "/billing/", record=False, scope=STAFF),
    page("billing:pickup", "/billing/pickup/", method="post", record=False, scope=STAFF, may=BILLERS),
    page("billing:accounts", "/billing/accounts/", record=False),
    page("billing:account_detail", lambda t: f"/billing/accounts/{_d(t)}/", owners=OWN),
    page(
        "billing:account_charge",
        lambda t: f"/billing/accounts/{_d(t)}/charge/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page(
        "billing:account_invoice",
        lambda t: f"/billing/accounts/{_d(t)}/invoice/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page(
        "billing:account_pay",
        lambda t: f"/billing/accounts/{_d(t)}/pay/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page(
        "billing:account_credit",
        lambda t: f"/billing/accounts/{_d(t)}/credit/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page(
        "billing:account_refund",
        lambda t: f"/billing/accounts/{_d(t)}/refund/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page("billing:invoices", "/billing/invoices/", record=False),
    page("billing:invoice_detail", lambda t: f"/billing/invoices/{_i(t)}/", owners=OWN),
    page("billing:invoice_pdf", lambda t: f"/billing/invoices/{_i(t)}/pdf/", owners=OWN),
    page(
        "billing:invoice_cancel",
        lambda t: f"/billing/invoices/{_i(t)}/cancel/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page(
        "billing:invoice_deliver",
        lambda t: f"/billing/invoices/{_i(t)}/deliver/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),
    page(
        "billing:invoice_write_off",
        lambda t: f"/billing/invoices/{_i(t)}/write-off/",
        method="post",
        owners=OWN,
        may=BILLERS,
    ),  # fmt: skip
    page("billing:payments", "/billing/payments/", record=False),
    page("billing:payment_detail", lambda t: f"/billing/payments/{_p(t)}/", owners=OWN),
    page("billing:payment_receipt", lambda t: f"/billing/payments/{_p(t)}/receipt/", owners=OWN),
    page("billing:write_offs", "/billing/write-offs/", record=False, scope=STAFF),
    page(
        "billing:write_off_decide",
        lambda t: f"/billing/write-offs/{t['write_off'].pk}/decide/",
        method="post",
        scope=STAFF,
        may=APPROVERS,
    ),  # fmt: skip
    page("billing:licence_holds", "/billing/licence-holds/", record=False, scope=STAFF),
    page("billing:licence_holds_csv", "/billing/licence-holds.csv", record=False, scope=STAFF),
    page("billing:licence_holds_xlsx", "/billing/licence-holds.xlsx", record=False, scope=STAFF),
    page("billing:liens", "/billing/liens/", record=False, scope=STAFF),
    page(
        "billing:lien_record",
        lambda t: f"/billing/liens/{_lien(t)}/record/",
        method="post",
        scope=STAFF,
        may=BILLERS,
    ),
    page(
        "billing:lien_release",
        lambda t: f"/billing/liens/{_lien(t)}/release/",
        method="post",
        scope=STAFF,
        may=BILLERS,
    ),
    page("billing:lien_approvals", "/billing/lien-approvals/", record=False, scope=STAFF),
    page(
        "billing:lien_request",
        lambda t: f"/billing/liens/{_lien(t)}/request/",
        method="post",
        scope=STAFF,
        may=BILLERS,
    ),
    page(
        "billing:lien_decide",
        lambda t: f"/billing/liens/{_waiting(t)}/decide/",
        method="post",
        scope=STAFF,
        may=APPROVERS,
    ),
    page("billing:lien_letter", lambda t: f"/billing/liens/{_lien(t)}/letter/", scope=STAFF),
    page("billing:report", "/billing/reports/", record=False, scope=STAFF),
    api("invoice-list", "/api/v1/invoices/", record=False),
    api(
        "invoice-list",
        "/api/v1/invoices/",
        method="post",
        record=False,
        may=BILLERS,
        body=lambda t: {"debtor": _d(t)},
    ),
    api("invoice-detail", lambda t: f"/api/v1/invoices/{_i(t)}/", owners=OWN),
    api(
        "invoice-cancel",
        lambda t: f"/api/v1/invoices/{_i(t)}/cancel/",
        method="post",
        owners=OWN,
        may=BILLERS,
        body={"reason": "wrong"},
    ),  # fmt: skip
    api("payment-list", "/api/v1/payments/", record=False),
    api(
        "payment-list",
        "/api/v1/payments/",
        method="post",
        record=False,
        may=BILLERS,
        body=lambda t: {"debtor": _d(t), "amount": "1.00", "method": "cash"},
    ),  # fmt: skip
    api("payment-detail", lambda t: f"/api/v1/payments/{_p(t)}/", owners=OWN),
    api("account-list", "/api/v1/accounts/", record=False),
    api("account-detail", lambda t: f"/api/v1/accounts/{_d(t)}/", owners=OWN),
    api("account-statement", lambda t: f"/api/v1/accounts/{_d(t)}/statement/", owners=OWN),
    api("licence-holds", "/api/v1/licence-holds/", record=False, scope=STAFF),
    api("lien-list", "/api/v1/liens/", record=False, scope=STAFF),
    api("lien-detail", lambda t: f"/api/v1/liens/{_lien(t)}/", scope=STAFF),
    api(
        "lien-request-approval",
        lambda t: f"/api/v1/liens/{_lien(t)}/request/",
        method="post",
        scope=STAFF,
        may=BILLERS,
    ),
    api(
        "lien-approve",
        lambda t: f"/api/v1/liens/{_waiting(t)}/approve/",
        method="post",
        scope=STAFF,
        may=APPROVERS,
    ),
    api(
        "lien-refuse",
        lambda t: f"/api/v1/liens/{_waiting(t)}/refuse/",
        method="post",
        scope=STAFF,
        may=APPROVERS,
        body={"note": "The owner of record is wrong."},
    ),
    api(
        "lien-record",
        lambda t: f"/api/v1/liens/{_waiting(t)}/record/",
        method="post",
        scope=STAFF,
        may=BILLERS,
        body=lambda t: {"recorded_on": days_ago(0).isoformat(), "document_number": "D-9"},
    ),
]
