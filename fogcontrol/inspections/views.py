"""Inspection pages: thin, each calls one selector or service and renders."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required

from fogcontrol.core.files import download
from fogcontrol.core.views import found
from fogcontrol.inspections import selectors


@login_required
def photo_download(request, pk: int):
    """A photo, only to those who may see its inspection (an FSE: completed inspections only)."""
    photo = found(selectors.photo_detail, request.user, pk)
    return download(
        photo.file,
        filename=f"inspection-{photo.inspection_id}-photo-{photo.pk}.jpg",
        content_type="image/jpeg",
    )
