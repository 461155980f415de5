"""Inspection photos and drawn signatures: checked, then re-encoded with Pillow before they are
stored, so what is kept is a plain image we wrote (no metadata, no location, no payload), never
the bytes that were sent. Stored under random names (fogcontrol/core/files.py)."""

from __future__ import annotations

import io

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from PIL import ImageOps

from fogcontrol.core.images import open_image

# A photo is scaled down to this many pixels on its longer side: enough to read a gauge.
MAX_PHOTO_SIDE = 2000
PHOTO_FORMATS = {"JPEG", "PNG", "WEBP", "MPO"}


def reencode_photo(uploaded, *, field: str = "file") -> tuple[ContentFile, int, int]:
    """A photo as a fresh JPEG (rotated upright, at most MAX_PHOTO_SIDE pixels), or a 400 naming
    the field for a file too large, empty or not an image."""
    limit = settings.FOGCONTROL_MAX_PHOTO_BYTES
    if uploaded.size > limit:
        raise ValidationError(
            {field: f"The photo is {uploaded.size:,} bytes; the largest accepted is {limit:,}."}
        )
    if uploaded.size == 0:
        raise ValidationError({field: "The photo is empty: take it again."})
    uploaded.seek(0)
    image = open_image(uploaded.read(), field, PHOTO_FORMATS)
    image = ImageOps.exif_transpose(image).convert("RGB")
    image.thumbnail((MAX_PHOTO_SIDE, MAX_PHOTO_SIDE))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85, optimize=True)
    return ContentFile(out.getvalue(), name="photo.jpg"), image.width, image.height
