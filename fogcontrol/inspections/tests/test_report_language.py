"""Issue 18: the inspection report prints in the FSE's language (D1, D4, E3, C1-C7): the FSE's own
download in its preference, a staff print in the establishment's contact's; the checklist's words
and the findings the rules wrote are translated, what the inspector wrote prints as written."""

import pytest
from django.urls import reverse

from fogcontrol.core.roles import Role
from fogcontrol.inspections import checklist_labels
from fogcontrol.inspections.services import inspection_complete
from fogcontrol.inspections.tests.helpers import depths, key, ready, scheduled
from fogcontrol.rules import inspections as rules
from fogcontrol.testing.documents import english_left, pdf_text
from fogcontrol.testing.factories import PartyFactory

pytestmark = pytest.mark.django_db

FAILED = {"drain_screens": "fail", "signage": "fail", "food_grinder": "fail", "receipts": "pass"}


def _completed(town):
    inspector = town.users[Role.INSPECTOR]
    draft = ready(scheduled(town.own_fse, inspector), inspector, answers=FAILED, hour=18,
                  **depths(town.own_device, "6", "8"))  # fmt: skip
    return inspection_complete(inspection=draft, acting_user=inspector, idempotency_key=key())


def _report(client, user, inspection, query=""):
    client.force_login(user)
    answer = client.get(reverse("inspections:report", args=[inspection.pk]) + query)
    assert answer.status_code == 200
    return pdf_text(answer.content)


def _prefers(user, language):
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    return user


def _written(inspection) -> list[str]:
    """What the report quotes as written: the names typed at the signatures, the person met, and the
    rules' working of the hours (D1, the English of record)."""
    names = [inspection.inspector_signed_name, inspection.fse_signed_name, inspection.person_met]
    return [*names, *inspection.hours_explanation.get("steps", [])]


@pytest.mark.provision("D4")
@pytest.mark.provision("E3")
def test_d4_the_fse_downloads_its_inspection_report_in_spanish(client, town):
    inspection = _completed(town)
    text = _report(client, _prefers(town.users[Role.FSE], "es"), inspection)
    assert "Informe de inspección" in text and "Hallazgo" in text
    assert "Faltan las rejillas de los desagües" in text  # C1, the rules' finding translated
    assert "Hay un triturador de alimentos" in text  # K1
    assert "por encima del límite de 25.0%" in text and "FOG 6.00 pulg." in text  # E3
    assert "NO CUMPLE" in text and "Fuera del horario de atención (D1)" in text
    assert english_left(text, *_written(inspection)) == []


@pytest.mark.provision("D4")
def test_d4_staff_print_the_report_in_the_contacts_language_and_english_stays_english(client, town):
    inspection = _completed(town)
    manager = town.users[Role.FOG_MANAGER]
    town.own_fse.contact = PartyFactory(name="Rosa Méndez", preferred_language="es")
    town.own_fse.save(update_fields=["contact"])
    text = _report(client, manager, inspection)
    assert "Informe de inspección" in text and english_left(text, *_written(inspection)) == []
    english = _report(client, manager, inspection, "?language=en")
    assert "Inspection report" in english and "Drain screens are missing" in english
    town.own_fse.contact.preferred_language = "en"
    town.own_fse.contact.save(update_fields=["preferred_language"])
    assert "Drain screens are missing" in _report(client, manager, inspection)
    own = _report(client, _prefers(town.users[Role.FSE], "en"), inspection)
    assert "Inspection report" in own and "A food grinder is present" in own and "FAIL" in own


def test_every_checklist_word_is_marked_for_the_catalogue():
    """The report translates the rules' words through checklist_labels: none may be missing."""
    marked = set(checklist_labels.SECTION_TITLES) | {
        word for pair in checklist_labels.ITEM_WORDS for word in pair
    }
    needed = set(rules.SECTIONS.values()) | {
        w for item in rules.CHECKLIST for w in (item.label, item.failure)
    }
    assert needed <= marked
