"""A document as a printable PDF (WeasyPrint): the letterhead, the date, the addressee, the title
and text exactly as issued (the copy of record), the provisions it cites, and how and when it was
served. A reprint reads as the original; only the service block grows as service is recorded."""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from fogcontrol.notices.models import IssuedDocument
from fogcontrol.notices.selectors import current_service


def _rendered(document: IssuedDocument):
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    html = render_to_string(
        "notices/pdf/document.html", {"document": document, "service": current_service(document)}
    )
    return HTML(string=html).render()


def mail_batch_pdf(documents, *, progress=None) -> bytes:
    """Issue #17: one PDF of many letters for the certified or registered mail run, each letter
    starting on a new page (its own page numbers), in the order given. ``progress(n)`` is called
    after the n-th letter is laid out (the print batch's "rendering n of N")."""
    rendered = []
    for document in documents:
        rendered.append(_rendered(document))
        if progress is not None:
            progress(len(rendered))
    pages = [page for one in rendered for page in one.pages]
    return rendered[0].copy(pages).write_pdf()


def document_pdf(document: IssuedDocument) -> bytes:
    # WeasyPrint reports each rendering step at INFO, some at import: quieten it first, and import it
    # only when a document is printed, so the pages and the API start without it.
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    html = render_to_string(
        "notices/pdf/document.html", {"document": document, "service": current_service(document)}
    )
    return HTML(string=html).write_pdf()
