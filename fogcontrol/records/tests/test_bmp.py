"""The BMP materials (C4 training sheet, C7 kitchen signs): each prints in English and in Spanish,
the Spanish with no English sentence left; the FSE's own sheet comes prefilled with its name, another
FSE's answers 404; pages and API alike, and the API's schema documents the `language` parameter."""

import gettext
import io
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import strip_tags
from pypdf import PdfReader
from rest_framework.test import APIClient

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_profile
from fogcontrol.records import pdf
from fogcontrol.records.models import TRAINING_SUBJECTS

pytestmark = pytest.mark.django_db

SIGNS = ["sign-no-grease", "sign-scrape-plates", "sign-waste-oil"]
CATALOGUE = Path(pdf.__file__).parent / "locale" / "es" / "LC_MESSAGES" / "django.mo"
# Spanish the Spanish PDFs must show, per material (C4, C7).
SPANISH = {
    "training-sheet": ["Registro de capacitación de empleados", "Nombre del empleado", "Firma"],
    "sign-no-grease": ["No tire grasa por el desagüe", "recipiente de aceite usado"],
    "sign-scrape-plates": ["Raspe los platos en la basura", "bote de basura"],
    "sign-waste-oil": ["Solo aceite de cocina usado", "Mantenga la tapa cerrada"],
}
ENGLISH = {
    "training-sheet": ["Employee training record", "Employee name (print)", "Trainer's signature"],
    "sign-no-grease": ["No grease down the drain", "waste-oil container"],
    "sign-scrape-plates": ["Scrape plates into the trash", "trash bin"],
    "sign-waste-oil": ["Used cooking oil only", "Keep the lid closed"],
}
# Words a Spanish page never needs: an English sentence left untranslated shows one of them.
ENGLISH_WORDS = re.compile(r"\b(the|and|with|your|into|before|after|each|this|only|never|keep|sign)\b", re.I)


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def pages_of(data: bytes) -> list:
    return PdfReader(io.BytesIO(data)).pages


def plain(html: str) -> str:
    """The words a reader sees: the style sheet and the tags left out."""
    return " ".join(strip_tags(re.sub(r"<style>.*?</style>", "", html, flags=re.S)).split())


def english_sentences_left(text: str) -> list[str]:
    """The catalogue's English sentences (three words or more) that appear in ``text``, and English
    function words; the Town's name (a proper name) aside."""
    text = text.replace(town_profile().name, "")
    with CATALOGUE.open("rb") as mo:
        catalogue = gettext.GNUTranslations(mo)._catalog
    left = [
        msgid
        for msgid, msgstr in catalogue.items()
        if isinstance(msgid, str) and len(msgid.split()) >= 3 and msgid != msgstr and msgid in text
    ]
    return left + ENGLISH_WORDS.findall(text)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- The documents ------------------------------------------------------------------------------


@pytest.mark.provision("C7")
@pytest.mark.parametrize("key", SIGNS)
def test_c7_each_sign_prints_on_one_page_in_english_and_in_spanish(key, town):
    english = pdf.sign_pdf(key, language="en")
    spanish = pdf.sign_pdf(key, language="es")
    assert len(pages_of(english)) == 1 and len(pages_of(spanish)) == 1
    english_text, spanish_text = text_of(english), text_of(spanish)
    for words in ENGLISH[key]:
        assert words in english_text
    for words in SPANISH[key]:
        assert words in spanish_text
    assert "10.02, C7" in spanish_text
    assert english_sentences_left(spanish_text) == []


@pytest.mark.provision("C7")
@pytest.mark.parametrize("key", SIGNS)
def test_c7_sign_html_in_spanish_has_no_english_sentence_and_draws_its_pictogram_inline(key, town):
    html = pdf.sign_html(key, language="es")
    assert english_sentences_left(plain(html)) == []
    assert '<html lang="es">' in html
    assert "<svg" in html and 'role="img"' in html
    assert "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched


@pytest.mark.provision("C4")
def test_c4_blank_training_sheet_in_spanish_lists_the_four_subjects_and_signature_lines(town):
    html = pdf.training_sheet_html(language="es")
    assert english_sentences_left(plain(html)) == []
    text = text_of(pdf.training_sheet_pdf(language="es"))
    for words in SPANISH["training-sheet"]:
        assert words in text
    for _english, spanish in TRAINING_SUBJECTS.values():
        assert " ".join(spanish.split()) in text
    assert "Blue Plate Diner" not in text  # blank: no FSE's name
    assert html.count("<tr><td>&nbsp;</td>") == pdf.BLANK_LINES


@pytest.mark.provision("C4")
def test_c4_subjects_printed_are_the_ordinances_in_both_languages():
    """The sheet's message ids are the model's English, and the catalogue gives the model's Spanish."""
    for key, (english, spanish) in TRAINING_SUBJECTS.items():
        assert str(pdf.SUBJECT_TEXTS[key]) == english
        with translation.override("es"):
            assert str(pdf.SUBJECT_TEXTS[key]) == spanish


@pytest.mark.provision("C4")
@pytest.mark.provision("C7")
def test_every_material_prints_on_a4_too():
    for key in pdf.MATERIALS:
        page = pages_of(pdf.material_pdf(key, language="es", paper="a4"))
        assert len(page) == 1
        width, height = (round(float(side)) for side in page[0].mediabox[2:])
        assert (width, height) == (595, 842), key  # A4 in points; Letter is 612 × 792


# --- Pages --------------------------------------------------------------------------------------


@pytest.mark.provision("C4")
def test_c4_sheet_prefilled_with_the_fses_name_for_its_own_user_and_404_for_another_fse(town):
    fse = client_for(town.users[Role.FSE])
    response = fse.get(f"/records/establishments/{town.own_fse.pk}/training-sheet.pdf?language=es")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = text_of(response.content)
    assert "Blue Plate Diner" in text and "Registro de capacitación de empleados" in text
    assert fse.get(f"/records/establishments/{town.other_fse.pk}/training-sheet.pdf").status_code == 404
    hauler = client_for(town.users[Role.HAULER])
    assert hauler.get(f"/records/establishments/{town.own_fse.pk}/training-sheet.pdf").status_code == 404
    # Staff print any FSE's sheet for an inspection.
    staff = client_for(town.users[Role.INSPECTOR])
    response = staff.get(f"/records/establishments/{town.other_fse.pk}/training-sheet.pdf?language=en")
    assert "Golden Wok" in text_of(response.content)


@pytest.mark.provision("C4")
@pytest.mark.provision("C7")
def test_the_materials_page_offers_both_languages_the_users_preferred_first(town):
    user = town.users[Role.FSE]
    user.preferred_language = "es"
    user.save(update_fields=["preferred_language"])
    page = client_for(user).get("/records/bmp/").content.decode()
    for key in pdf.MATERIALS:
        spanish = page.index(f"/records/bmp/{key}.pdf?language=es")
        assert spanish < page.index(f"/records/bmp/{key}.pdf?language=en")
    own = f"/records/establishments/{town.own_fse.pk}/training-sheet.pdf?language=es"
    assert own in page and "Blue Plate Diner" in page
    assert f"/records/establishments/{town.other_fse.pk}/" not in page
    # English first for a user who prefers it; a printout in the language the link names.
    page = client_for(town.users[Role.PROPERTY_OWNER]).get("/records/bmp/").content.decode()
    assert page.index("sign-waste-oil.pdf?language=en") < page.index("sign-waste-oil.pdf?language=es")
    response = client_for(user).get("/records/bmp/sign-scrape-plates.pdf?language=en&paper=a4")
    assert "Scrape plates into the trash" in text_of(response.content)


@pytest.mark.provision("C7")
def test_the_materials_page_is_no_haulers_and_an_unknown_material_is_404(town):
    assert client_for(town.users[Role.HAULER]).get("/records/bmp/").status_code == 404
    assert client_for(town.users[Role.HAULER]).get("/records/bmp/sign-waste-oil.pdf").status_code == 404
    assert client_for(town.users[Role.FSE]).get("/records/bmp/sign-nothing.pdf").status_code == 404
    # A language the page does not know prints in the user's own, never fails.
    response = client_for(town.users[Role.FSE]).get("/records/bmp/sign-no-grease.pdf?language=xx&paper=b5")
    assert response.status_code == 200 and "No grease down the drain" in text_of(response.content)


@pytest.mark.provision("C4")
def test_c4_records_page_links_the_sign_in_sheet_to_print_then_upload_signed(town):
    page = (
        client_for(town.users[Role.FSE]).get(f"/records/establishments/{town.own_fse.pk}/").content.decode()
    )
    assert f"/records/establishments/{town.own_fse.pk}/training-sheet.pdf?language=es" in page
    assert "then upload it signed" in page


# --- API ----------------------------------------------------------------------------------------


@pytest.mark.provision("C4")
@pytest.mark.provision("C7")
def test_api_lists_the_materials_in_the_language_asked_and_prints_each(town):
    api = api_for(town.users[Role.FSE])
    rows = api.get("/api/v1/bmp-materials/?language=es").json()
    assert [row["key"] for row in rows] == list(pdf.MATERIALS)
    assert {row["provision"] for row in rows} == {"C4", "C7"}
    titles = {row["key"]: row["title"] for row in rows}
    assert titles["sign-no-grease"] == "Letrero: no tire grasa por el desagüe"
    waste_oil = next(row for row in rows if row["key"] == "sign-waste-oil")
    response = api.get(waste_oil["pdf_url"])
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "Solo aceite de cocina usado" in text_of(response.content)


@pytest.mark.provision("C4")
def test_api_c4_sheet_prefilled_for_its_own_fse_404_for_another_and_400_for_a_bad_language(town):
    api = api_for(town.users[Role.FSE])
    response = api.get(f"/api/v1/establishments/{town.own_fse.pk}/training-sheet/?language=es")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "Blue Plate Diner" in text_of(response.content)
    assert api.get(f"/api/v1/establishments/{town.other_fse.pk}/training-sheet/").status_code == 404
    bad = api.get(f"/api/v1/establishments/{town.own_fse.pk}/training-sheet/?language=fr")
    assert bad.status_code == 400 and "language" in bad.json()
    assert api.get("/api/v1/bmp-materials/nothing/pdf/").status_code == 404
    assert api_for(town.users[Role.HAULER]).get("/api/v1/bmp-materials/").status_code == 404


def test_api_schema_documents_the_pdfs_and_their_language_parameter():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in (
        "/api/v1/bmp-materials/",
        "/api/v1/bmp-materials/{key}/pdf/",
        "/api/v1/establishments/{id}/training-sheet/",
    ):
        operation = schema["paths"][path]["get"]
        language = next(p for p in operation["parameters"] if p["name"] == "language")
        assert language["in"] == "query" and language["schema"]["enum"] == ["en", "es"], path
    for path in ("/api/v1/bmp-materials/{key}/pdf/", "/api/v1/establishments/{id}/training-sheet/"):
        assert "application/pdf" in schema["paths"][path]["get"]["responses"]["200"]["content"]


@pytest.mark.provision("C4")
def test_the_materials_page_lists_a_property_owners_fses_in_a_fixed_number_of_queries(town):
    from fogcontrol.testing import factories
    from fogcontrol.testing.queries import assert_queries_do_not_grow

    def add_establishments(count):
        for _ in range(count):
            factories.EstablishmentFactory(parcel=town.owned_parcel)

    results = assert_queries_do_not_grow(
        client_for(town.users[Role.PROPERTY_OWNER]), add_establishments, {"/records/bmp/": 4}, grows=False
    )
    small, large = results["/records/bmp/"]
    assert large.content.decode().count("training-sheet.pdf?language=en") > small.content.decode().count(
        "training-sheet.pdf?language=en"
    )
