"""Accounts: the list, one account with its statement (staff and the FSE portal alike), and the
clerk's steps on it: a charge, invoicing, a payment, credit applied, a refund."""

from __future__ import annotations

import datetime as dt
from functools import partial

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from fogcontrol.billing import exports, selectors, services
from fogcontrol.billing.filters import AccountFilter
from fogcontrol.billing.forms import ChargeForm, InvoiceIssueForm, PaymentForm, RefundForm
from fogcontrol.billing.roles import BILLERS
from fogcontrol.billing.views.common import act
from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.program.selectors import town_today

PAGE_SIZE = 50
# Four forms share the account page: each keeps its own element ids.
CHARGE_IDS, INVOICE_IDS, PAY_IDS, REFUND_IDS = "id_charge_%s", "id_invoice_%s", "id_pay_%s", "id_refund_%s"


@login_required
def account_list(request):
    """The accounts the user may see, with what each owes (its balance from its entries)."""
    filterset, rows = filtered_rows(AccountFilter, request, selectors.account_list(request.user))
    live_filters(filterset, request.path)
    page = paginate(request, rows, PAGE_SIZE)
    export = Export("accounts", exports.ACCOUNT_COLUMNS, rows)
    return render_list(
        request, "billing/account_list.html", {"filter": filterset, "page": page}, export=export
    )


def _day(raw: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


@login_required
def account_detail(request, pk: int):
    """One account: its statement (?from=&to=), open invoices, payments; the clerk's forms."""
    return _account_page(request, found(selectors.account_detail, request.user, pk))


def _account_page(request, debtor, *, status: int = 200, **bound):
    """The account's page; ``bound`` replaces a clerk's blank form by the one sent back with its
    errors (``payment_form=…``), so each error stands beside its field and nothing typed is lost."""
    start, end = _day(request.GET.get("from")), _day(request.GET.get("to"))
    today = town_today()
    context = {
        "debtor": debtor,
        "statement": selectors.statement(debtor, start=start, end=end),
        "invoices": selectors.invoice_list(request.user)
        .filter(debtor=debtor)
        .order_by("-notice_date", "-pk")[:50],
        "payments": selectors.payment_list(request.user)
        .filter(debtor=debtor)
        .order_by("-received_on", "-pk")[:50],
        "waiting": selectors.charges_waiting(request.user).filter(debtor=debtor),
        "can_bill": has_role(request.user, BILLERS),
        "today": today,
        "bad_dates": bool(request.GET.get("from") and not start or request.GET.get("to") and not end),
    }
    if context["can_bill"]:
        context.update(
            charge_form=ChargeForm(initial={"assessed_on": today, "invoice_kind": "Q1"}, auto_id=CHARGE_IDS),
            invoice_form=InvoiceIssueForm(initial={"notice_date": today}, auto_id=INVOICE_IDS),
            payment_form=PaymentForm(
                initial={"received_on": today}, auto_id=PAY_IDS, invoices=_open_invoices(request.user, debtor)
            ),
            refund_form=RefundForm(auto_id=REFUND_IDS),
        )
        context.update(bound)
    return render(request, "billing/account_detail.html", context, status=status)


def _sent_back(request, debtor, name: str):
    """What `act` calls with a form that did not validate: the account page with that form."""
    return lambda form: _account_page(request, debtor, status=400, **{name: form})


def _account(request, pk):
    return found(selectors.account_detail, request.user, pk)


@login_required
@require_POST
def account_charge(request, pk: int):
    debtor = _account(request, pk)
    return act(
        request, step="charge", form_class=partial(ChargeForm, auto_id=CHARGE_IDS), back=debtor_url(debtor),
        done="Charge entered.", invalid=_sent_back(request, debtor, "charge_form"),
        call=lambda **data: services.charge_create(
            acting_user=request.user, establishment=debtor.establishment, party=debtor.party, **data
        ),
    )  # fmt: skip


@login_required
@require_POST
def account_invoice(request, pk: int):
    debtor = _account(request, pk)
    return act(
        request, step="invoice", form_class=partial(InvoiceIssueForm, auto_id=INVOICE_IDS), back=debtor_url(debtor),
        done="Invoiced.", invalid=_sent_back(request, debtor, "invoice_form"),
        call=lambda **data: services.invoices_issue(acting_user=request.user, debtor=debtor, **data),
    )  # fmt: skip


@login_required
@require_POST
def account_pay(request, pk: int):
    debtor = _account(request, pk)
    invoices = {invoice.pk: invoice for invoice in _open_invoices(request.user, debtor)}

    def pay(*, apply_to=None, **data):
        chosen = None
        if apply_to is not None:  # the chosen invoice, up to what it owes; the rest is credit
            chosen = {apply_to: min(data["amount"], invoices[apply_to].outstanding)}
        return services.payment_record(acting_user=request.user, debtor=debtor, allocations=chosen, **data)

    return act(
        request, step="pay", form_class=partial(PaymentForm, invoices=invoices.values(), auto_id=PAY_IDS),
        back=debtor_url(debtor), done="Payment recorded and allocated.", call=pay,
        invalid=_sent_back(request, debtor, "payment_form"),
    )  # fmt: skip


def _open_invoices(user, debtor):
    return selectors.invoice_list(user).filter(debtor=debtor, status="open").order_by("notice_date", "pk")


@login_required
@require_POST
def account_credit(request, pk: int):
    debtor = _account(request, pk)
    return act(
        request, step="allocate", form_class=None, back=debtor_url(debtor), done="Credit applied.",
        call=lambda: services.credit_apply(acting_user=request.user, debtor=debtor),
    )  # fmt: skip


@login_required
@require_POST
def account_refund(request, pk: int):
    debtor = _account(request, pk)
    return act(
        request, step="refund", form_class=partial(RefundForm, auto_id=REFUND_IDS), back=debtor_url(debtor),
        done="Refund recorded.", invalid=_sent_back(request, debtor, "refund_form"),
        call=lambda **data: services.refund_record(acting_user=request.user, debtor=debtor, **data),
    )  # fmt: skip


def debtor_url(debtor) -> str:
    return reverse("billing:account_detail", args=[debtor.pk])
