"""The permit is a real, printable PDF carrying its terms and the Town's contacts (B2, J1, J2)."""

import io
import re

import pytest
from pypdf import PdfReader
from rest_framework.test import APIClient

from fogcontrol.permits.models import PermitNotice
from fogcontrol.permits.pdf import notice_pdf, permit_pdf
from fogcontrol.permits.services.common import town_contacts


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


@pytest.mark.provision("B2")
def test_b2_permit_pdf_reads_back_number_device_frequency_expiry_and_contacts(issued):
    version = issued.versions.get()
    text = text_of(permit_pdf(version))
    assert "Town of Los Robles" in text
    assert f"Permit No. {issued.number}" in text
    assert "Gravity grease interceptor" in text and "1,000 gallons" in text
    assert "At least every 90 days" in text
    assert f"{issued.valid_until:%B} {issued.valid_until.day}, {issued.valid_until.year}" in text
    assert "(650) 555-0199" in text and "(650) 555-0911" in text  # J1
    assert "1 Civic Center Plaza" in text  # J2
    assert "Blue Plate Diner" in text  # A1
    assert "B7" in text and "J2" in text


@pytest.mark.provision("B7")
def test_b7_notice_prints_as_a_letter(issued):
    notice = PermitNotice.objects.get(permit=issued)
    text = text_of(notice_pdf(notice, town_contacts()))
    assert notice.subject in text and "Blue Plate Diner" in text


@pytest.mark.provision("E3")
def test_e3_the_permit_prints_the_numbers_of_the_rules_in_force_when_it_took_effect(issued):
    from fogcontrol.program.models import RulesetVersion

    version = issued.versions.get()
    text = text_of(permit_pdf(version))
    assert "may not exceed 25% of the GCD's total design hydraulic depth" in text
    assert (
        "within 5 working days" in text and "at least 10 days' notice" in text and "at least 2 years" in text
    )

    RulesetVersion.objects.create(
        effective_from=version.effective_from,
        label="Amendment",
        values={"fill_limit_ratio": "0.2", "spill_report_working_days": 3},
    )
    amended = text_of(permit_pdf(version))
    assert "may not exceed 20% of the GCD's total design hydraulic depth" in amended
    assert "within 3 working days" in amended


@pytest.mark.provision("B2")
def test_b2_the_permit_fits_one_page_and_is_signed_with_a_name_not_a_login(issued, manager):
    """Issue 18: the PDF spilled onto a second page and printed "manager"."""
    manager.first_name, manager.last_name = "Rosa", "Delgado"
    manager.save(update_fields=["first_name", "last_name"])
    version = issued.versions.get()
    data = permit_pdf(version)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    text = text_of(data)
    assert "by Rosa Delgado" in text
    assert f"by {manager.username} " not in text


@pytest.mark.provision("B2")
def test_b2_a_permit_with_long_conditions_still_prints_every_word(issued):
    version = issued.versions.get()
    version.conditions = " ".join(["Clean the baffles and the outlet tee monthly."] * 40)
    data = permit_pdf(version)
    assert text_of(data).count("outlet tee monthly") == 40


# --- In the FSE contact's language (issue 18) ------------------------------------------------------

ENGLISH_WORDS = re.compile(r"\b(the|and|with|within|every|least|issued|permit|keep|expires)\b", re.I)


@pytest.mark.provision("B2")
def test_b2_permit_pdf_in_spanish_keeps_its_terms_and_leaves_no_english_sentence(issued):
    version = issued.versions.get()
    data = permit_pdf(version, language="es")
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    text = text_of(data)
    assert f"Permiso n.º {issued.number}" in text
    assert "Interceptor de grasa por gravedad" in text
    assert "Al menos cada 90 días" in text
    assert "en un plazo de 5 días hábiles" in text  # J2, the ruleset's number
    assert "(650) 555-0199" in text and "Blue Plate Diner" in text
    # Only the terms as entered (the device's size, the Town's names) may stay in English.
    entered = [version.device_size, version.business_name, version.site_address, "Town of Los Robles"]
    for words in entered + [str(value) for value in (version.contacts or {}).values()]:
        text = text.replace(" ".join(str(words).split()), "")
    assert ENGLISH_WORDS.findall(text) == []


@pytest.mark.provision("B2")
def test_b2_permit_pdf_prints_in_the_fse_contacts_language_for_staff_and_the_users_own_for_the_fse(
    issued, manager
):
    from django.test import Client

    contact = issued.establishment.contact or issued.establishment.operator  # who receives it
    contact.preferred_language = "es"
    contact.save(update_fields=["preferred_language"])
    staff = Client()
    staff.force_login(manager)
    assert "Permiso FOG" in text_of(staff.get(f"/permits/{issued.pk}/pdf/").content)
    assert "FOG Permit" in text_of(staff.get(f"/permits/{issued.pk}/pdf/?language=en").content)
    api = APIClient()
    api.force_authenticate(manager)
    assert "Permiso FOG" in text_of(api.get(f"/api/v1/permits/{issued.pk}/pdf/").content)
    bad = api.get(f"/api/v1/permits/{issued.pk}/pdf/?language=fr")
    assert bad.status_code == 400 and "language" in bad.json()
