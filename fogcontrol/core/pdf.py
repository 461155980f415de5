"""One way to print a page as a PDF (WeasyPrint), for the documents that are not copies of record:
a template and its context in, the PDF's bytes out, optionally in a language.

WeasyPrint reports each rendering step at INFO, some at import: quieten it first, and import it
only when a document is printed, so the pages and the API start without it (as permits' PDF).
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string
from django.utils import translation


def render_html(template: str, context: dict, *, language: str | None = None) -> str:
    """The document's HTML, its strings translated into ``language`` (the active one if None)."""
    if language is None:
        return render_to_string(template, context)
    with translation.override(language):
        return render_to_string(template, context)


def render_pdf(template: str, context: dict, *, language: str | None = None) -> bytes:
    """The document as PDF bytes, its strings translated into ``language`` (the active one if None)."""
    html = render_html(template, context, language=language)
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    return HTML(string=html).write_pdf()
