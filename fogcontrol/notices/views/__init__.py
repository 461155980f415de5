"""The notices pages: templates and their versions (``templates.py``), issued documents (``documents.py``)."""

from fogcontrol.notices.views.documents import (
    document_detail,
    document_list,
    document_new,
    document_pdf_download,
    document_service,
)
from fogcontrol.notices.views.templates import (
    template_detail,
    template_draft,
    template_list,
    version_detail,
    version_edit,
    version_preview,
)

__all__ = [
    "document_detail",
    "document_list",
    "document_new",
    "document_pdf_download",
    "document_service",
    "template_detail",
    "template_draft",
    "template_list",
    "version_detail",
    "version_edit",
    "version_preview",
]
