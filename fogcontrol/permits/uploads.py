"""Checking uploaded files: size, type and content, before anything is stored (security)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError

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
                    f"{name} is {uploaded_file.size:,} bytes; the largest file accepted is {limit:,} bytes."
                ]
            }
        )
    if uploaded_file.size == 0:
        raise ValidationError({field: [f"{name} is empty: choose the file again."]})
    allowed = ALLOWED_UPLOADS.get(extension)
    if allowed is None:
        raise ValidationError({field: [f"{name}: only PDF, PNG and JPEG files are accepted."]})
    content_type, signatures = allowed
    uploaded_file.seek(0)
    head = uploaded_file.read(16)
    if not any(head.startswith(signature) for signature in signatures):
        raise ValidationError(
            {field: [f"{name} is not a real {extension[1:].upper()} file: export it again."]}
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
                    f"{name} is not a {extension[1:].upper()} image that can be opened "
                    f"({' '.join(exc.messages)}): export or scan it again."
                ]
            }  # fmt: skip
        ) from exc
    finally:
        uploaded_file.seek(0)
