"""Stored uploads: random names on disk, and one way to hand a file to a person who may see it.

Uploads are never served from MEDIA_URL (not even under DEBUG): every file goes out through a
view that first fetches the owning record with its app's scoped selector (outside the scope:
404), then calls `download`. Names on disk are random (`RandomName`), so knowing one record's
file name says nothing about another's; names stored before this stay valid as they are.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from pathlib import PurePosixPath

from django.http import FileResponse, Http404
from django.utils import timezone
from django.utils.deconstruct import deconstructible

# The extension kept from the uploaded name: letters and digits only, and short.
_EXTENSION = re.compile(r"^\.[a-z0-9]{1,10}$")
_UNSAFE_IN_FILENAME = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|;]+')


def random_name(prefix: str, filename: str) -> str:
    """`<prefix>/<year>/<month>/<32 random hex digits><.ext>`: the uploaded name only lends its extension."""
    suffix = PurePosixPath(filename or "").suffix.lower()
    extension = suffix if _EXTENSION.match(suffix) else ""
    return f"{prefix.rstrip('/')}/{timezone.now():%Y/%m}/{secrets.token_hex(16)}{extension}"


@deconstructible
class RandomName:
    """A FileField's `upload_to`: a random name under `prefix` (see `random_name`)."""

    def __init__(self, prefix: str):
        self.prefix = prefix

    def __call__(self, instance, filename: str) -> str:
        return random_name(self.prefix, filename)

    def __eq__(self, other) -> bool:
        return isinstance(other, RandomName) and other.prefix == self.prefix


def safe_filename(name: str, *, default: str = "download") -> str:
    """A name a browser may save under: no path, no control or shell-special characters."""
    name = unicodedata.normalize("NFC", str(name or "")).replace("\\", "/").rsplit("/", 1)[-1]
    name = _UNSAFE_IN_FILENAME.sub("_", name).strip(" .")
    return name[:150] or default


def download(field_file, *, filename: str, content_type: str | None = None) -> FileResponse:
    """The stored file as an attachment (never shown inline), with nosniff; 404 when it is gone.

    Call only after the owning record was fetched through a scoped selector.
    """
    if not field_file:
        raise Http404("There is no file.")
    try:
        handle = field_file.open("rb")
    except FileNotFoundError as missing:
        raise Http404("The file is no longer stored.") from missing
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=safe_filename(filename),
        content_type=content_type or "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response
