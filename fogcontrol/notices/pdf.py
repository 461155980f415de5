"""A document as a printable PDF (WeasyPrint): the letterhead, the date, the addressee, the title
and text exactly as issued (the copy of record), the provisions it cites, and how and when it was
served. A reprint reads as the original; only the service block grows as service is recorded.

Issue 18: the frame (dates, headings, the service block) prints in the language the document was
written in (``IssuedDocument.language``: the recipient's), whoever prints it: staff and the FSE
read the same letter."""

from __future__ import annotations

import logging

from fogcontrol.core.pdf import render_html
from fogcontrol.notices.models import IssuedDocument
from fogcontrol.notices.selectors import current_service


def _html(document: IssuedDocument) -> str:
    return render_html(
        "notices/pdf/document.html",
        {"document": document, "service": current_service(document)},
        language=document.language,
    )


def _rendered(document: IssuedDocument):
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    return HTML(string=_html(document)).render()


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
    return _rendered(document).write_pdf()
