"""Images sent by people: opened safely (a pixel limit against decompression bombs, formats named),
signatures drawn on screen re-encoded as a fresh PNG we wrote (no metadata, no payload), and photos
re-encoded as a fresh JPEG (no metadata, no location). Used by inspections (both signatures, photos),
records (C4 training rosters) and spills (photos)."""

from __future__ import annotations

import base64
import binascii
import io
import re
import threading
from contextlib import contextmanager

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils.translation import gettext as _
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

# More pixels than this is refused before decoding (a decompression bomb).
MAX_PIXELS = 50_000_000
_DATA_URL = re.compile(r"^data:image/png;base64,(?P<data>[A-Za-z0-9+/=\s]+)$")


_STRICT = threading.Lock()


@contextmanager
def _truncated_images_refused():
    """Decode with Pillow's truncated-image tolerance off. WeasyPrint turns it on for the whole
    process when it is imported (weasyprint/images.py), after which a file cut short decodes
    silently, padded with grey; a person's upload must be whole."""
    with _STRICT:
        tolerant = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            yield
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = tolerant


def open_image(data: bytes, field: str, formats: set[str]) -> Image.Image:
    """The image in `data`, decoded, or a 400 naming `field`: too many pixels, not one of `formats`."""
    try:
        image = Image.open(io.BytesIO(data))
        if image.width * image.height > MAX_PIXELS:
            raise ValidationError({field: _("The image has too many pixels.")})
        if image.format not in formats:
            named = f" {_('or')} ".join(sorted(formats - {"MPO"}))
            raise ValidationError({field: _("Send a %(formats)s image.") % {"formats": named}})
        with _truncated_images_refused():
            image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError, SyntaxError) as exc:
        raise ValidationError(
            {field: _("This is not an image that can be read; take the photo again.")}
        ) from exc
    return image


def signature_from_data_url(data_url: str, *, field: str) -> ContentFile:
    """A signature drawn on screen (``data:image/png;base64,...``) as a fresh PNG, or a 400."""
    match = _DATA_URL.match((data_url or "").strip())
    if match is None:
        raise ValidationError({field: _("Sign in the box (a PNG drawing is expected).")})
    try:
        data = base64.b64decode(match.group("data"), validate=False)
    except (binascii.Error, ValueError) as exc:
        raise ValidationError({field: _("The signature could not be read; sign again.")}) from exc
    if len(data) > settings.FOGCONTROL_MAX_SIGNATURE_BYTES:
        raise ValidationError({field: _("The signature drawing is too large; clear it and sign again.")})
    image = open_image(data, field, {"PNG"})
    if image.getbbox() is None or (image.mode in ("RGBA", "LA") and image.getchannel("A").getbbox() is None):
        raise ValidationError({field: _("The signature box is empty: sign in it.")})
    canvas = Image.new("RGB", image.size, "white")
    rgba = image.convert("RGBA")
    canvas.paste(rgba, mask=rgba.getchannel("A"))
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return ContentFile(out.getvalue(), name="signature.png")


# A photo is scaled down to this many pixels on its longer side: enough to read a gauge.
MAX_PHOTO_SIDE = 2000
PHOTO_FORMATS = {"JPEG", "PNG", "WEBP", "MPO"}


def reencode_photo(uploaded, *, field: str = "file") -> tuple[ContentFile, int, int]:
    """A photo as a fresh JPEG (rotated upright, at most MAX_PHOTO_SIDE pixels), or a 400 naming
    the field for a file too large, empty or not an image."""
    limit = settings.FOGCONTROL_MAX_PHOTO_BYTES
    if uploaded.size > limit:
        raise ValidationError(
            {
                field: _("The photo is %(size)s bytes; the largest accepted is %(limit)s.")
                % {"size": f"{uploaded.size:,}", "limit": f"{limit:,}"}
            }
        )
    if uploaded.size == 0:
        raise ValidationError({field: _("The photo is empty: take it again.")})
    uploaded.seek(0)
    image = open_image(uploaded.read(), field, PHOTO_FORMATS)
    image = ImageOps.exif_transpose(image).convert("RGB")
    image.thumbnail((MAX_PHOTO_SIDE, MAX_PHOTO_SIDE))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85, optimize=True)
    return ContentFile(out.getvalue(), name="photo.jpg"), image.width, image.height
