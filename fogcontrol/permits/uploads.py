"""Checking uploaded files: size, type and content, before anything is stored (security)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from fogcontrol.core.images import open_image

ALLOWED_UPLOADS = {
    # extension: (content type, leading bytes of a real file of that type)
    ".pdf": ("application/pdf", (b"%PDF-",)),
    ".png": ("image/png", (b"\x89PNG\r\n\x1a\n",)),
    ".jpg": ("image/jpeg", (b"\xff\xd8\xff",)),
    ".jpeg": ("image/jpeg", (b"\xff\xd8\xff",)),
}


def check_upload(uploaded_file, field: str = "file") -> tuple[str, str]:
    """The upload's content type and SHA-256, or a ValidationError saying what is wrong and how to fix it."""
    name = uploaded_file.name or ""
    extension = ("." + name.rsplit(".", 1)[-1].lower()) if "." in name else ""
    limit = settings.FOGCONTROL_MAX_UPLOAD_BYTES
    if uploaded_file.size > limit:
        raise ValidationError(
            {
                field: [
                    _("%(name)s is %(size)s bytes; the largest file accepted is %(limit)s bytes.")
                    % {"name": name, "size": f"{uploaded_file.size:,}", "limit": f"{limit:,}"}
                ]
            }
        )
    if uploaded_file.size == 0:
        raise ValidationError({field: [_("%(name)s is empty: choose the file again.") % {"name": name}]})
    allowed = ALLOWED_UPLOADS.get(extension)
    if allowed is None:
        raise ValidationError(
            {field: [_("%(name)s: only PDF, PNG and JPEG files are accepted.") % {"name": name}]}
        )
    content_type, signatures = allowed
    uploaded_file.seek(0)
    head = uploaded_file.read(16)
    if not any(head.startswith(signature) for signature in signatures):
        raise ValidationError(
            {
                field: [
                    _("%(name)s is not a real %(kind)s file: export it again.")
                    % {"name": name, "kind": extension[1:].upper()}
                ]
            }
        )
    if content_type.startswith("image/"):
        _check_image(uploaded_file, field, name, extension)
    digest = hashlib.sha256()
    uploaded_file.seek(0)
    for chunk in uploaded_file.chunks():
        digest.update(chunk)
    uploaded_file.seek(0)
    return content_type, digest.hexdigest()


def _check_image(uploaded_file, field: str, name: str, extension: str) -> None:
    """A PNG or JPEG must open as one: its magic bytes with nothing readable behind them (a file cut
    short), or more pixels than an image should have (a decompression bomb that would stall whoever
    opens it), is refused."""
    uploaded_file.seek(0)
    try:
        open_image(uploaded_file.read(), field, {"PNG"} if extension == ".png" else {"JPEG", "MPO"})
    except ValidationError as exc:
        raise ValidationError(
            {
                field: [
                    _(
                        "%(name)s is not a %(kind)s image that can be opened (%(why)s): export or scan it again."
                    )
                    % {"name": name, "kind": extension[1:].upper(), "why": " ".join(exc.messages)}
                ]
            }  # fmt: skip
        ) from exc
    finally:
        uploaded_file.seek(0)
