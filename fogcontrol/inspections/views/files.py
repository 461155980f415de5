"""Inspection pages: thin, each calls one selector or service and renders."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse

from fogcontrol.core.files import download
from fogcontrol.core.views import found
from fogcontrol.findings.models import Finding
from fogcontrol.findings.selectors import findings_of_source
from fogcontrol.inspections import selectors
from fogcontrol.inspections.actions import inspection_actions
from fogcontrol.inspections.pdf import inspection_pdf
from fogcontrol.inspections.views.visit import form_context


@login_required
def photo_download(request, pk: int):
    """A photo, only to those who may see its inspection (an FSE: completed inspections only)."""
    photo = found(selectors.photo_detail, request.user, pk)
    return download(
        photo.file,
        filename=f"inspection-{photo.inspection_id}-photo-{photo.pk}.jpg",
        content_type="image/jpeg",
    )


@login_required
def report_pdf(request, pk: int):
    """The report of a completed inspection: staff, and the FSE in its portal (drafts: 404)."""
    inspection = found(selectors.inspection_detail, request.user, pk)
    if not inspection_actions(request.user, inspection)["report"]:
        raise Http404("No report yet.")
    findings = list(
        findings_of_source(request.user, source=Finding.Source.INSPECTION, source_id=inspection.pk)
    )
    response = HttpResponse(
        inspection_pdf(
            inspection,
            findings=findings,
            **form_context(inspection),
            user=request.user,
            language=request.GET.get("language"),
        ),
        content_type="application/pdf",
    )
    response["Content-Disposition"] = f'inline; filename="inspection-{inspection.pk}.pdf"'
    return response
