"""The printable C4 training sheet: the four subjects and signature lines, in English and Spanish."""

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.pdf import training_sheet_pdf
from fogcontrol.records.tests.helpers import days_ago, signature_data_url

ALL_SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


@pytest.fixture
def session(town):
    fse = town.users[Role.FSE]
    session = services.training_session_record(
        establishment=town.own_fse,
        held_on=days_ago(1),
        trainer="Ana Ruiz",
        subjects=ALL_SUBJECTS,
        acting_user=fse,
    )
    services.training_attendance_sign(
        session=session, employee_name="Luis Perez", hire_date=days_ago(10), signature=signature_data_url(),
        acting_user=fse,
    )  # fmt: skip
    return session


@pytest.mark.provision("C4")
def test_c4_training_sheet_in_english_lists_the_four_subjects_and_signature_lines(session):
    text = text_of(training_sheet_pdf(session, language="en"))
    assert "Employee training record" in text and "Blue Plate Diner" in text and "Ana Ruiz" in text
    for words in ("dry wipe", "food waste", "absorbent", "waste oil"):
        assert words in text
    assert "Signature" in text and "Luis Perez" in text and "Trainer's signature" in text


@pytest.mark.provision("C4")
def test_c4_training_sheet_in_spanish_through_the_page_and_404_for_another_fse(session, town):
    client = Client()
    client.force_login(town.users[Role.FSE])
    response = client.get(f"/records/training/{session.pk}/sheet.pdf?lang=es")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = text_of(response.content)
    assert "Registro de capacitación de empleados" in text and "Firma" in text
    assert (
        "limpiar en seco" in text
        and "restos de comida" in text
        and "absorbentes" in text
        and "aceite usado" in text
    )
    stranger = town.users[Role.FSE].__class__.objects.create(username="fse4", role=Role.FSE)
    other = Client()
    other.force_login(stranger)
    assert other.get(f"/records/training/{session.pk}/sheet.pdf").status_code == 404
