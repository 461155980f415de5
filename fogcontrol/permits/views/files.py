"""Downloads of the files people attach to applications and remodel notices.

Each file is reached only through its record's scoped selector (outside the scope: 404), never
from MEDIA_URL; see fogcontrol/core/files.py.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required

from fogcontrol.core.files import download
from fogcontrol.core.views import found
from fogcontrol.permits import selectors


@login_required
def application_document(request, pk, document_pk):
    application = found(selectors.applications_visible_to(request.user).get, pk=pk)
    document = found(application.documents.get, pk=document_pk)
    return download(document.file, filename=document.original_name, content_type=document.content_type)


@login_required
def remodel_plans(request, pk):
    notice = found(lambda user, key: selectors.remodel_notices_visible_to(user).get(pk=key), request.user, pk)
    return download(
        notice.plans, filename=f"{notice.reference or 'remodel'}-plans.pdf", content_type="application/pdf"
    )
