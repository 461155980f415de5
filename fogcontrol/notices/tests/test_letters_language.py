"""Issue 18: a letter to an FSE is written in its contact's language (the general letter, and the
frame every document prints in: the letterhead, the date, the provisions cited, the service), and
prints the same for staff and for the FSE's own download: a copy of record reads as issued."""

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.notices.services import document_record_service
from fogcontrol.notices.tests.helpers import issue_letter
from fogcontrol.program.services import town_profile_update
from fogcontrol.testing.documents import english_left, pdf_text
from fogcontrol.testing.factories import PartyFactory

pytestmark = pytest.mark.django_db

BODY = "Por favor, llámenos por su permiso."


def _contact_prefers(town, language):
    town.own_fse.contact = PartyFactory(name="Rosa Méndez", preferred_language=language)
    town.own_fse.save(update_fields=["contact"])


def _download(client, user, document):
    client.force_login(user)
    answer = client.get(f"/notices/documents/{document.pk}/pdf/")
    assert answer.status_code == 200
    return pdf_text(answer.content)


def test_a_letter_to_a_spanish_speaking_fse_is_written_and_printed_in_spanish(town, manager, today, client):
    town_profile_update(acting_user=manager, name="Town of Los Robles", fog_manager_name="Dana Reyes",
                        fog_manager_address="1 Civic Center Plaza")  # fmt: skip
    _contact_prefers(town, "es")
    document = issue_letter(town, method="certified_mail", article_number="9407 1111 2222",
                            context={"business_name": "Blue Plate Diner", "body_text": BODY})  # fmt: skip
    assert document.language == "es" and document.key == "general_letter"
    assert document.template.key == "general_letter_es"
    document_record_service(acting_user=manager, document=document, service_method="certified_mail",
                            served_on=today, article_number="9407 1111 2222")  # fmt: skip
    fse = town.users[Role.FSE]
    fse.preferred_language = "en"  # the letter reads as issued, whoever downloads it
    fse.save(update_fields=["preferred_language"])
    for user in (manager, fse):
        text = _download(client, user, document)
        assert (
            "Carta del Programa de Control de Grasas (FOG)" in text
            and "Estimados señores de Blue Plate Diner" in text
        )
        assert "Dana Reyes, Administrador/a del Programa FOG" in text
        assert "Correo certificado, envío n.º 9407 1111 2222, notificado el" in text
        assert f"{today.day} de " in text
        # The template's key (general_letter_es) is an identifier, printed as it is.
        assert english_left(text, "Town of Los Robles", "1 Civic Center Plaza", document.template.key) == []


def test_a_letter_to_an_english_speaking_fse_stays_english(town, manager, today, client):
    _contact_prefers(town, "en")
    document = issue_letter(town, served_on=today)  # the FSE sees a letter once it is served
    assert document.language == "en" and document.template.key == "general_letter"
    text = _download(client, town.users[Role.FSE], document)
    assert "Letter from the FOG Control Program" in text and f"First-class mail, served {today:%B}" in text
    assert "Please call us about your permit." in text


def test_staff_may_write_the_letter_in_english_to_a_spanish_speaking_fse(town):
    _contact_prefers(town, "es")
    assert issue_letter(town, language="en").language == "en"
