"""Issue 18: what a portal user is told when an upload is refused (a photo, a drawn signature) is
in their language; the English is as it was."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from PIL import Image

from fogcontrol.core.images import open_image, reencode_photo, signature_from_data_url


def _refusal(call) -> str:
    with pytest.raises(ValidationError) as refused:
        call()
    return " ".join(message for messages in refused.value.message_dict.values() for message in messages)


def _gif() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(out, format="GIF")
    return out.getvalue()


@pytest.mark.parametrize(
    ("call", "english", "spanish"),
    [
        (lambda: reencode_photo(SimpleUploadedFile("p.jpg", b"")), "The photo is empty: take it again.",
         "La foto está vacía: tómela de nuevo."),
        (lambda: open_image(_gif(), "file", {"JPEG", "PNG", "MPO"}), "Send a JPEG or PNG image.",
         "Envíe una imagen JPEG o PNG."),
        (lambda: open_image(b"not an image", "file", {"JPEG"}),
         "This is not an image that can be read; take the photo again.",
         "Esta no es una imagen que se pueda leer; tome la foto de nuevo."),
        (lambda: signature_from_data_url("", field="signature"), "Sign in the box (a PNG drawing is expected).",
         "Firme en el recuadro (se espera un dibujo PNG)."),
    ],
)  # fmt: skip
def test_an_upload_refusal_is_said_in_the_users_language(call, english, spanish):
    with translation.override("es"):
        assert _refusal(call) == spanish
    with translation.override("en"):
        assert _refusal(call) == english
