"""The best-practices (BMP) materials: the C4 training sheet and the C7 kitchen signs, to print in
English or Spanish. The page offers both languages, the user's preferred one first; the FSE's own
sheet comes prefilled with its name (outside the user's scope: 404). A hauler is told the page does
not exist (404), as for any record outside its scope."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render

from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import found
from fogcontrol.records import pdf, selectors
from fogcontrol.records.roles import BMP_READERS


def _readers_only(user) -> None:
    if not has_role(user, BMP_READERS):
        raise Http404("No such page.")


def _choices(request) -> tuple[str, str]:
    """The language (?language=, else the user's preferred one) and paper (?paper=) asked for; a
    value the page does not know falls back to the default rather than failing a printout."""
    language = pdf.language_or_default(
        request.GET.get("language"), getattr(request.user, "preferred_language", "en")
    )
    paper = request.GET.get("paper")
    return language, paper if paper in pdf.PAPERS else pdf.DEFAULT_PAPER


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def materials(request):
    """C4 and C7: every material in both languages (the preferred one first), the FSE's sheet
    prefilled for each of the user's establishments."""
    _readers_only(request.user)
    language, paper = _choices(request)
    languages = [language] + [other for other in pdf.LANGUAGES if other != language]
    return render(
        request,
        "records/bmp.html",
        {
            "materials": list(pdf.MATERIALS.values()),
            "languages": languages,
            "paper": paper,
            "papers": list(pdf.PAPERS),
            "establishments": selectors.bmp_establishments(request.user),
        },
    )


@login_required
def material(request, key: str):
    """One material as a PDF: a C7 sign, or the C4 sheet blank (no FSE's name)."""
    _readers_only(request.user)
    if key not in pdf.MATERIALS:
        raise Http404("No such material.")
    language, paper = _choices(request)
    return _pdf_response(
        pdf.material_pdf(key, language=language, paper=paper), pdf.material_filename(key, language=language)
    )


@login_required
def establishment_training_sheet(request, pk):
    """C4: the training sheet prefilled with the establishment's name and address."""
    establishment = found(selectors.establishment_for, request.user, pk)
    language, paper = _choices(request)
    return _pdf_response(
        pdf.training_sheet_pdf(establishment=establishment, language=language, paper=paper),
        pdf.material_filename(pdf.TRAINING_SHEET, language=language, establishment=establishment),
    )
