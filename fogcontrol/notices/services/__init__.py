"""Every write of the notices app: template versions (``templates.py``), issuing documents and
recording their service (``documents.py``)."""

from fogcontrol.notices.services.batches import print_batch_render, print_batch_start
from fogcontrol.notices.services.documents import (
    document_issue,
    document_language_for,
    document_record_service,
    documents_mail_log,
    letterhead_text,
    wording_key,
)
from fogcontrol.notices.services.templates import (
    TemplateVersionLocked,
    template_first_version,
    template_in_force,
    template_version_create,
    template_version_draft,
    template_version_update,
)

__all__ = [
    "TemplateVersionLocked",
    "document_issue",
    "document_language_for",
    "document_record_service",
    "documents_mail_log",
    "letterhead_text",
    "print_batch_render",
    "print_batch_start",
    "template_first_version",
    "template_in_force",
    "template_version_create",
    "template_version_draft",
    "template_version_update",
    "wording_key",
]
