"""Downloads of the FSE's records: signatures, signed sheets, receipts, submitted reports, and the
printable training sheet. Each file is reached only through its record's scoped selector (outside
the scope: 404), never from MEDIA_URL; see fogcontrol/core/files.py."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse

from fogcontrol.core.files import download
from fogcontrol.core.views import found
from fogcontrol.records import selectors
from fogcontrol.records.pdf import PAPERS, language_or_default, training_sheet_pdf


@login_required
def signature(request, pk):
    line = found(selectors.attendance_detail, request.user, pk)
    return download(line.signature, filename=f"signature-{line.pk}.png", content_type="image/png")


@login_required
def signed_sheet(request, pk):
    session = found(selectors.training_session_detail, request.user, pk)
    return download(
        session.signed_sheet, filename=session.signed_sheet_name, content_type=session.signed_sheet_type
    )


@login_required
def receipt(request, pk):
    pickup = found(selectors.oil_pickup_detail, request.user, pk)
    return download(pickup.receipt, filename=pickup.receipt_name, content_type=pickup.receipt_type)


@login_required
def submission_file(request, pk):
    submission = found(selectors.submission_detail, request.user, pk)
    return download(submission.file, filename=submission.original_name, content_type=submission.content_type)


@login_required
def training_sheet(request, pk):
    """The C4 training sheet of a session as a PDF, in the language asked for (``?language=es``, or
    ``?lang=es`` as the first links had it), else the session's; on Letter or ``?paper=a4``."""
    session = found(selectors.training_session_detail, request.user, pk)
    lang = language_or_default(request.GET.get("language") or request.GET.get("lang"), session.language)
    paper = request.GET.get("paper") if request.GET.get("paper") in PAPERS else "letter"
    response = HttpResponse(
        training_sheet_pdf(session, language=lang, paper=paper), content_type="application/pdf"
    )
    response["Content-Disposition"] = f'inline; filename="training-{session.pk}-{lang}.pdf"'
    return response
