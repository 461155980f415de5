"""The certified and registered mail run (issue #17): the letters waiting to be mailed, printed as one
PDF (each letter on a new page) by the background worker with its progress shown (a partial HTMX
polls, then the access-checked download), and the mail log where the clerk enters each letter's article number
and mailing date, recorded as its service through ``services.documents_mail_log``. Staff's pages."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.exports import Export, export_response
from fogcontrol.core.files import download
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import staff_only
from fogcontrol.notices import selectors, services
from fogcontrol.notices.exports import MAIL_RUN_COLUMNS
from fogcontrol.notices.models import PrintBatch
from fogcontrol.notices.roles import DOCUMENT_ISSUERS, ISSUERS_ONLY
from fogcontrol.program.selectors import town_today

LIMIT = 200


def _page(request, *, errors=(), values=None, status=200):
    rows = list(selectors.documents_to_mail(request.user)[:LIMIT])
    values = values or {}
    for row in rows:
        row.entered_article = values.get(f"article_{row.pk}", row.mail_article or "")
        row.entered_mailed = values.get(f"mailed_{row.pk}", "")
    context = {
        "rows": rows,
        "errors": errors,
        "today": town_today(),
        "can_record": has_role(request.user, DOCUMENT_ISSUERS),
        "exportable": True,
        # The latest print batches, so a batch left rendering is found again (one query).
        "batches": list(selectors.print_batches_visible_to(request.user)[:5]),
    }
    return render(request, "notices/mail_run.html", context, status=status)


@login_required
def mail_run(request):
    """The letters waiting for certified or registered mail, oldest first (and as CSV or XLSX)."""
    staff_only(request.user)
    export = Export("mail-run", MAIL_RUN_COLUMNS, selectors.documents_to_mail(request.user))
    return export_response(request, export) or _page(request)


@login_required
@require_POST
def mail_batch(request):
    """Queue one PDF of the ticked letters (``document`` repeated), rendered by the worker; the
    batch's page shows its progress, then the download."""
    staff_only(request.user)
    chosen = [int(raw) for raw in request.POST.getlist("document") if raw.isdigit()]
    documents = list(selectors.documents_to_mail(request.user).filter(pk__in=chosen))
    try:
        batch = services.print_batch_start(acting_user=request.user, documents=documents)
    except ValidationError as error:
        return _page(request, errors=error.messages, status=400)
    return redirect("notices:print_batch", pk=batch.pk)


def _batch(request, pk) -> PrintBatch:
    staff_only(request.user)
    try:
        return selectors.print_batch_detail(request.user, pk)
    except PrintBatch.DoesNotExist as missing:
        raise Http404("No such print batch.") from missing


@login_required
def print_batch(request, pk):
    """A print batch: "rendering 37 of 120" while the worker lays it out (the status partial polls
    itself), then the link to download the PDF."""
    batch = _batch(request, pk)
    template = "notices/print_batch.html#status" if request.htmx else "notices/print_batch.html"
    return render(request, template, {"batch": batch})


@login_required
def print_batch_download(request, pk):
    """The batch's PDF, to staff only (a 404 otherwise, and while it is not ready)."""
    batch = _batch(request, pk)
    if batch.status != PrintBatch.Status.DONE:
        raise Http404("The batch is not ready yet.")
    return download(batch.file, filename=f"mail-run-{batch.pk}.pdf", content_type="application/pdf")


def _date(raw: str):
    try:
        return dt.date.fromisoformat(raw.strip()) if raw.strip() else None
    except ValueError:
        return None


@login_required
@require_POST
def mail_log(request):
    """The mail log: each filled-in row (article number, mailing date) recorded as the letter's service;
    a row in error saves none and the page says which row and why."""
    staff_only(request.user)
    require_role(request.user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
    entries = []
    for document in selectors.documents_to_mail(request.user)[:LIMIT]:
        article = request.POST.get(f"article_{document.pk}", "").strip()
        mailed = request.POST.get(f"mailed_{document.pk}", "")
        if mailed.strip():  # a row counts once its mailing date is entered
            entries.append({"document": document, "method": document.mail_method, "article_number": article,
                            "mailed_on": _date(mailed)})  # fmt: skip
    try:
        recorded = services.documents_mail_log(acting_user=request.user, entries=entries)
    except ValidationError as error:
        return _page(request, errors=error.messages, values=request.POST, status=400)
    messages.success(
        request, f"Mail log recorded for {len(recorded)} letter{'s' if len(recorded) != 1 else ''}."
    )
    return redirect("notices:mail_run")
