from django.urls import path

from fogcontrol.billing.views import accounts, invoices, staff

app_name = "billing"

urlpatterns = [
    path("", staff.worklist, name="worklist"),
    path("pickup/", staff.pickup, name="pickup"),
    path("accounts/", accounts.account_list, name="accounts"),
    path("accounts/<int:pk>/", accounts.account_detail, name="account_detail"),
    path("accounts/<int:pk>/charge/", accounts.account_charge, name="account_charge"),
    path("accounts/<int:pk>/invoice/", accounts.account_invoice, name="account_invoice"),
    path("accounts/<int:pk>/pay/", accounts.account_pay, name="account_pay"),
    path("accounts/<int:pk>/credit/", accounts.account_credit, name="account_credit"),
    path("accounts/<int:pk>/refund/", accounts.account_refund, name="account_refund"),
    path("invoices/", invoices.invoice_list, name="invoices"),
    path("invoices/<int:pk>/", invoices.invoice_detail, name="invoice_detail"),
    path("invoices/<int:pk>/pdf/", invoices.invoice_pdf_view, name="invoice_pdf"),
    path("invoices/<int:pk>/cancel/", invoices.invoice_cancel, name="invoice_cancel"),
    path("invoices/<int:pk>/deliver/", invoices.invoice_deliver, name="invoice_deliver"),
    path("invoices/<int:pk>/write-off/", invoices.invoice_write_off, name="invoice_write_off"),
    path("payments/", invoices.payment_list, name="payments"),
    path("payments/<int:pk>/", invoices.payment_detail, name="payment_detail"),
    path("payments/<int:pk>/receipt/", invoices.payment_receipt, name="payment_receipt"),
    path("write-offs/", staff.write_offs, name="write_offs"),
    path("write-offs/<int:pk>/decide/", staff.write_off_decide, name="write_off_decide"),
    path("licence-holds/", staff.licence_holds, name="licence_holds"),
    path("licence-holds.csv", staff.licence_holds_csv, name="licence_holds_csv"),
    path("licence-holds.xlsx", staff.licence_holds_xlsx, name="licence_holds_xlsx"),
    path("liens/", staff.lien_list, name="liens"),
    path("lien-approvals/", staff.lien_approvals, name="lien_approvals"),
    path("liens/<int:pk>/request/", staff.lien_request, name="lien_request"),
    path("liens/<int:pk>/decide/", staff.lien_decide, name="lien_decide"),
    path("liens/<int:pk>/record/", staff.lien_record, name="lien_record"),
    path("liens/<int:pk>/release/", staff.lien_release, name="lien_release"),
    path("liens/<int:pk>/letter/", staff.lien_letter, name="lien_letter"),
    path("reports/", staff.report, name="report"),
]
