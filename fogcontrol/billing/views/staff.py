"""Staff's pages: the Billing Clerk's work list, write-offs awaiting a second approval, the business
licence hold list (Q2: page, CSV, XLSX), liens (P9: asked for, approved by a second person, recorded,
released, with the release letter), reports, pick-up."""

from __future__ import annotations

import dataclasses
import datetime as dt
from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from fogcontrol.billing import exports, reports, selectors, services
from fogcontrol.billing.filters import LienFilter
from fogcontrol.billing.forms import DecisionForm, LienDocumentForm, LienReleaseForm, LienRequestForm
from fogcontrol.billing.models import Invoice, Lien
from fogcontrol.billing.pdf import lien_release_pdf
from fogcontrol.billing.roles import BILLERS
from fogcontrol.billing.views.common import act, pdf_response
from fogcontrol.core.exports import Export, csv_response, xlsx_response
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, paginate, render_list, staff_only
from fogcontrol.program.selectors import town_today

PAGE_SIZE = 50


@dataclasses.dataclass(frozen=True)
class SentBack:
    """A list's one-line form that `act` sent back (a form that does not validate, a refusal of the
    service): the row it belongs to, the bound form (its errors, what was typed) and where it posts.
    The list shows it in place of that row's blank form, each error beside its field."""

    pk: int
    form: object
    action: str
    button: str


def _row_ids(prefix: str, pk: int) -> str:
    """A row's own element ids (``id_record7_on``), so a sent-back form's ids are unique on the list."""
    return f"id_{prefix}{pk}_%s"


@login_required
def worklist(request):
    """The Billing Clerk's day: invoices due today, delinquent ones, charges to invoice, write-offs
    to approve, licences held (Q2) and liens to record or release (P9)."""
    staff_only(request.user)
    today = town_today()
    invoices = selectors.invoice_list(request.user).filter(status=Invoice.Status.OPEN)
    context = {
        "today": today,
        "due_today": invoices.filter(last_day_to_pay=today).order_by("pk")[:50],
        "delinquent": invoices.filter(delinquent_on__isnull=False).order_by("delinquent_from", "pk")[:50],
        "waiting": selectors.charges_waiting(request.user)[:50],
        "write_offs": selectors.write_offs_pending(request.user)[:50],
        "holds": selectors.licence_holds(today)[:50],
        "liens_to_ask": selectors.lien_list(request.user).filter(status=Lien.Status.LISTED)[:50],
        "liens_waiting": selectors.liens_waiting(request.user)[:50],
        "liens_to_record": selectors.lien_list(request.user).filter(status=Lien.Status.APPROVED)[:50],
        "liens_to_release": selectors.lien_list(request.user)
        .filter(status=Lien.Status.RECORDED)
        .exclude(invoice__status=Invoice.Status.OPEN)[:50],
        "can_bill": has_role(request.user, BILLERS),
    }
    return render(request, "billing/worklist.html", context)


@login_required
@require_POST
def pickup(request):
    staff_only(request.user)
    return act(
        request, step="pickup", form_class=None, back=reverse("billing:worklist"),
        done="Charges picked up, delinquency marked and liens listed.",
        call=lambda: services.billing_nightly(acting_user=request.user),
    )  # fmt: skip


def _waiting_page(request, template: str, waiting, *, status: int = 200, sent_back: SentBack | None = None):
    """A list of requests waiting for a second person's decision (two-person rule), each with its
    form; ``sent_back`` is one request's decision form returned with its errors (status 400)."""
    staff_only(request.user)
    context = {"rows": waiting(request.user), "form": DecisionForm(), "sent_back": sent_back,
               "can_bill": has_role(request.user, BILLERS)}  # fmt: skip
    return render(request, template, context, status=status)


def _decide(request, pk: int, *, waiting, step: str, back: str, decide, template: str):
    """The second person's approval or refusal of one waiting request (two-person rule). A decision
    sent back (a refusal without its reason) is the list again with that request's form, the error
    beside its field."""
    item = found(lambda user, key: waiting(user).get(pk=key), request.user, pk)
    action = request.path

    def invalid(form):
        sent_back = SentBack(pk, form, action, _("Record decision"))
        return _waiting_page(request, template, waiting, status=400, sent_back=sent_back)

    return act(
        request, step=step, form_class=partial(DecisionForm, auto_id=_row_ids("decide", pk)), back=reverse(back),
        done="Decision recorded.", invalid=invalid,
        call=lambda **data: decide(item, acting_user=request.user, **data),
    )  # fmt: skip


@login_required
def write_offs(request):
    return _waiting_page(request, "billing/write_offs.html", selectors.write_offs_pending)


@login_required
@require_POST
def write_off_decide(request, pk: int):
    return _decide(
        request, pk, waiting=selectors.write_offs_pending, step="approve_write_off", back="billing:write_offs",
        template="billing/write_offs.html",
        decide=lambda write_off, **data: services.write_off_decide(write_off=write_off, **data),
    )  # fmt: skip


def _holds_export(today: dt.date) -> Export:
    return Export("licence-holds", exports.HOLD_COLUMNS, selectors.licence_holds(today))


@login_required
def licence_holds(request):
    """Q2: the business licences held for a delinquent debt; the licence office takes it as CSV or
    XLSX (`?format=`, or the fixed addresses below), streamed through core/exports.py."""
    staff_only(request.user)
    today = town_today()
    export = _holds_export(today)
    return render_list(
        request, "billing/licence_holds.html", {"rows": export.rows, "today": today}, export=export
    )


@login_required
def licence_holds_csv(request):
    """The hold list's CSV at a fixed address (the licence office's bookmark)."""
    staff_only(request.user)
    return csv_response(_holds_export(town_today()))


@login_required
def licence_holds_xlsx(request):
    staff_only(request.user)
    return xlsx_response(_holds_export(town_today()))


@login_required
def lien_list(request):
    return _lien_list_page(request)


def _lien_list_page(request, *, status: int = 200, sent_back: SentBack | None = None):
    """The liens; ``sent_back``: one lien's form returned with its errors (status 400), shown above
    the list (the lien may be on another page of it) with its lien named."""
    staff_only(request.user)
    filterset, rows = filtered_rows(LienFilter, request, selectors.lien_list(request.user))
    page = paginate(request, rows, PAGE_SIZE)
    context = {"filter": filterset, "page": page, "form": LienDocumentForm(initial={"on": town_today()}),
               "can_bill": has_role(request.user, BILLERS), "sent_back": sent_back}  # fmt: skip
    if sent_back is not None:
        context["sent_back_lien"] = selectors.lien_detail(request.user, sent_back.pk)
    return render_list(
        request,
        "billing/lien_list.html",
        context,
        status=status,
        export=Export("liens", exports.LIEN_COLUMNS, rows),
    )


def _lien_step(request, lien, *, prefix: str, form_class, button: str, **kwargs):
    """One of the lien list's one-line forms through `act`: sent back, the list with that form."""
    action = request.path

    def invalid(form):
        return _lien_list_page(request, status=400, sent_back=SentBack(lien.pk, form, action, button))

    return act(
        request, step="lien", form_class=partial(form_class, auto_id=_row_ids(prefix, lien.pk)),
        back=reverse("billing:liens"), invalid=invalid, **kwargs,
    )  # fmt: skip


@login_required
@require_POST
def lien_request(request, pk: int):
    """Ask for a listed lien to be recorded: a second person approves it first (two-person rule)."""
    staff_only(request.user)
    lien = found(selectors.lien_detail, request.user, pk)
    return _lien_step(
        request, lien, prefix="ask", form_class=LienRequestForm, button=_("Ask for approval to record"),
        done="Asked: a second authorised person approves the lien before it is recorded.",
        call=lambda note: services.lien_request(acting_user=request.user, lien=lien, note=note),
    )  # fmt: skip


@login_required
def lien_approvals(request):
    """Liens waiting for a second approval (two-person rule), each with its decision form."""
    return _waiting_page(request, "billing/lien_approvals.html", selectors.liens_waiting)


@login_required
@require_POST
def lien_decide(request, pk: int):
    return _decide(
        request, pk, waiting=selectors.liens_waiting, step="approve_lien", back="billing:lien_approvals",
        template="billing/lien_approvals.html",
        decide=lambda lien, **data: services.lien_decide(lien=lien, **data),
    )  # fmt: skip


@login_required
@require_POST
def lien_record(request, pk: int):
    staff_only(request.user)
    lien = found(selectors.lien_detail, request.user, pk)
    return _lien_step(
        request, lien, prefix="record", form_class=LienDocumentForm, button=_("Record"),
        aliases={"recorded_on": "on"}, done="Recording with the County Recorder noted.",
        call=lambda on, document_number: services.lien_record(
            acting_user=request.user, lien=lien, recorded_on=on, document_number=document_number
        ),
    )  # fmt: skip


@login_required
@require_POST
def lien_release(request, pk: int):
    staff_only(request.user)
    lien = found(selectors.lien_detail, request.user, pk)
    return _lien_step(
        request, lien, prefix="release", form_class=LienReleaseForm, button=_("Release"),
        aliases={"released_on": "on"}, done="Release noted: print its letter from the lien list.",
        call=lambda on, document_number: services.lien_release(
            acting_user=request.user, lien=lien, released_on=on, document_number=document_number
        ),
    )  # fmt: skip


@login_required
def lien_letter(request, pk: int):
    staff_only(request.user)
    lien = found(selectors.lien_detail, request.user, pk)
    if lien.status != Lien.Status.RELEASED:
        return HttpResponse(
            "The lien is not released yet: no release letter.", status=409, content_type="text/plain"
        )
    return pdf_response(
        lien_release_pdf(lien, user=request.user, language=request.GET.get("language")),
        f"lien-release-{lien.pk}.pdf",
    )


def _day(raw, default):
    try:
        return dt.date.fromisoformat(raw) if raw else default
    except ValueError:
        return default


@login_required
def report(request):
    """Billed, collected, outstanding and delinquent by kind for a period, reconciled to the ledger;
    the penalty account apart (P12); the aging of what is owed."""
    staff_only(request.user)
    today = town_today()
    start = _day(request.GET.get("from"), today.replace(day=1))
    end = _day(request.GET.get("to"), today)
    context = {
        "report": reports.billing_report(start, end),
        "aging": reports.aging(end),
        "start": start,
        "end": end,
    }
    return render(request, "billing/report.html", context)
