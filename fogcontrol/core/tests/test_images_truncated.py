"""A photo cut short is refused even after WeasyPrint (imported for any PDF) has told Pillow to
load truncated images for the whole process (issue 15, hostile uploads)."""

import io

import pytest
from django.core.exceptions import ValidationError
from PIL import Image, ImageFile

from fogcontrol.core.images import open_image


def _truncated_jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), "red").save(out, format="JPEG")
    return out.getvalue()[:-200]


def test_a_truncated_jpeg_is_refused_after_weasyprint_was_imported(monkeypatch):
    import weasyprint.images  # noqa: F401  (turns the tolerance on, as any PDF does)

    assert ImageFile.LOAD_TRUNCATED_IMAGES is True
    with pytest.raises(ValidationError):
        open_image(_truncated_jpeg(), "photo", {"JPEG"})
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # WeasyPrint's own setting is left as it was
