"""Downloads of manifest attachments and manifest import reports.

Each file is reached only through its record's scoped selector (outside the scope: 404), never
from MEDIA_URL; see fogcontrol/core/files.py.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404

from fogcontrol.core.files import download
from fogcontrol.core.views import found
from fogcontrol.servicing import selectors


@login_required
def manifest_attachment(request, pk, attachment_pk):
    manifest = found(selectors.manifests_visible_to(request.user).get, pk=pk)
    attachment = found(manifest.attachments.get, pk=attachment_pk)
    return download(attachment.file, filename=attachment.original_name, content_type=attachment.content_type)


@login_required
def import_report(request, pk):
    record = found(selectors.imports_visible_to(request.user).get, pk=pk)
    if not record.report:
        raise Http404("The report is not ready yet.")
    return download(record.report, filename=f"import-{record.pk}-report.csv", content_type="text/csv")
