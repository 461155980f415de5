"""Invoices and payments: lists, one invoice with its lines and dates, its PDF, cancelling it,
recording its delivery, asking to write it off; one payment and its receipt."""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from fogcontrol.billing import exports, selectors, services
from fogcontrol.billing.filters import InvoiceFilter, PaymentFilter
from fogcontrol.billing.forms import DeliveryForm, ReasonForm, WriteOffForm
from fogcontrol.billing.pdf import invoice_pdf, receipt_pdf
from fogcontrol.billing.roles import BILLERS
from fogcontrol.billing.views.common import act, pdf_response
from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.program.selectors import town_today

PAGE_SIZE = 50


@login_required
def invoice_list(request):
    filterset, rows = filtered_rows(InvoiceFilter, request, selectors.invoice_list(request.user))
    live_filters(filterset, request.path)
    page = paginate(request, rows, PAGE_SIZE)
    today = town_today()
    export = Export("invoices", exports.invoice_columns(today), rows)
    return render_list(
        request,
        "billing/invoice_list.html",
        {"filter": filterset, "page": page, "today": today},
        export=export,
    )


# The clerk's three forms on the invoice page: each keeps its own element ids.
CANCEL_IDS, DELIVER_IDS, WRITE_OFF_IDS = "id_cancel_%s", "id_deliver_%s", "id_write_off_%s"


@login_required
def invoice_detail(request, pk: int):
    return _invoice_page(request, found(selectors.invoice_detail, request.user, pk))


def _invoice_page(request, invoice, *, status: int = 200, **bound):
    """The invoice's page; ``bound`` replaces a clerk's blank form by the one sent back with its
    errors (``cancel_form=…``), so each error stands beside its field and nothing typed is lost."""
    can_bill = has_role(request.user, BILLERS) and invoice.status == invoice.Status.OPEN
    context = {"invoice": invoice, "can_bill": can_bill, "today": town_today()}
    if can_bill:
        context.update(
            cancel_form=ReasonForm(auto_id=CANCEL_IDS),
            delivery_form=DeliveryForm(
                initial={"sent_on": town_today(), "method": "post"}, auto_id=DELIVER_IDS
            ),
            write_off_form=WriteOffForm(initial={"amount": invoice.outstanding}, auto_id=WRITE_OFF_IDS),
        )
        context.update(bound)
    return render(request, "billing/invoice_detail.html", context, status=status)


def _sent_back(request, invoice, name: str):
    """What `act` calls with a form sent back: the invoice page with that form."""
    return lambda form: _invoice_page(request, invoice, status=400, **{name: form})


@login_required
def invoice_pdf_view(request, pk: int):
    invoice = found(selectors.invoice_detail, request.user, pk)
    return pdf_response(
        invoice_pdf(invoice, user=request.user, language=request.GET.get("language")), f"{invoice.number}.pdf"
    )


def _invoice(request, pk):
    return found(selectors.invoice_detail, request.user, pk)


@login_required
@require_POST
def invoice_cancel(request, pk: int):
    invoice = _invoice(request, pk)
    return act(
        request, step="cancel", form_class=partial(ReasonForm, auto_id=CANCEL_IDS),
        back=reverse("billing:invoice_detail", args=[pk]), done=f"Invoice {invoice.number} cancelled.",
        invalid=_sent_back(request, invoice, "cancel_form"),
        call=lambda **data: services.invoice_cancel(invoice=invoice, acting_user=request.user, **data),
    )  # fmt: skip


@login_required
@require_POST
def invoice_deliver(request, pk: int):
    invoice = _invoice(request, pk)
    return act(
        request, step="deliver", form_class=partial(DeliveryForm, auto_id=DELIVER_IDS),
        back=reverse("billing:invoice_detail", args=[pk]), done="Delivery recorded.",
        invalid=_sent_back(request, invoice, "delivery_form"),
        call=lambda **data: services.invoice_deliver(invoice=invoice, acting_user=request.user, **data),
    )  # fmt: skip


@login_required
@require_POST
def invoice_write_off(request, pk: int):
    invoice = _invoice(request, pk)
    return act(
        request, step="write_off", form_class=partial(WriteOffForm, auto_id=WRITE_OFF_IDS),
        back=reverse("billing:invoice_detail", args=[pk]),
        done="Write-off requested: a second authorised person must approve it.",
        invalid=_sent_back(request, invoice, "write_off_form"),
        call=lambda **data: services.write_off_request(invoice=invoice, acting_user=request.user, **data),
    )  # fmt: skip


@login_required
def payment_list(request):
    filterset, rows = filtered_rows(PaymentFilter, request, selectors.payment_list(request.user))
    page = paginate(request, rows, PAGE_SIZE)
    export = Export("payments", exports.PAYMENT_COLUMNS, rows)
    return render_list(
        request, "billing/payment_list.html", {"filter": filterset, "page": page}, export=export
    )


@login_required
def payment_detail(request, pk: int):
    payment = found(selectors.payment_detail, request.user, pk)
    return render(request, "billing/payment_detail.html", {"payment": payment})


@login_required
def payment_receipt(request, pk: int):
    payment = found(selectors.payment_detail, request.user, pk)
    return pdf_response(
        receipt_pdf(payment, user=request.user, language=request.GET.get("language")),
        f"{payment.receipt_number}.pdf",
    )
