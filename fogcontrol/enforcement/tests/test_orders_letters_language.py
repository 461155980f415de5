"""Issue 18: the later letters of enforcement (the complaint, P5; the decision, P6 and M3; the notice
of proposed suspension, L1 and L2; a continuance's hearing notice, L3; the emergency suspension
order, M1; the termination of sewer service, O1; the penalty order, P7 and P8) go out in the
establishment's contact's language, as the notice of violation does: a Spanish reader finds no
English word but what staff wrote and the rules' working quoted as the English of record; the
provision IDs and the ruleset's periods stay; an English reader gets the English letter as before."""

import json

import pytest

from fogcontrol.enforcement.documents_orders import GROUNDS, HEARING_KINDS, ORDER_KIND_NAMES, P7_FACTOR_WORDS
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.tests.helpers_orders import FACTORS
from fogcontrol.enforcement.tests.letters_scenario import WRITTEN, every_later_letter
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.permits.models import PermitOrder
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.rules.penalties import P7_FACTORS
from fogcontrol.testing.documents import english_left, pdf_text
from fogcontrol.testing.factories import PartyFactory

pytestmark = pytest.mark.django_db

# Each letter: the provisions it proves (its test is marked with them), its Spanish title's start,
# a sentence of its Spanish wording, and its English title's start.
LETTERS = {
    "enforcement_complaint": (("P5", "P6"), "Denuncia administrativa AC-", "la audiencia se celebra dentro de los",
                              "Administrative complaint AC-"),
    "enforcement_decision": (("P6",), "Decisión del funcionario de audiencias", "Puede apelar esta decisión ante el "
                             "Concejo Municipal", "Decision of the hearing officer"),
    "enforcement_suspension_notice": (("L1", "L2"), "Aviso de suspensión propuesta del permiso FOG",
                                      "Conforme a L2, la audiencia se celebra entre el", "Notice of proposed suspension"),
    "enforcement_hearing_notice": (("L3",), "Aviso de audiencia: Blue Plate Diner", "La audiencia se aplazó del",
                                   "Notice of hearing: Blue Plate Diner"),
    "enforcement_emergency_order": (("M1", "M2", "M3"), "Orden de suspensión de emergencia ORD-",
                                    "queda suspendido de inmediato", "Emergency suspension order ORD-"),
    "enforcement_decision_m3": (("M3",), "Decisión del funcionario de audiencias",
                                "Esta decisión es definitiva e inapelable (M3).", "Decision of the hearing officer"),
    "enforcement_termination_notice": (("O1", "O2"), "Terminación del servicio de alcantarillado",
                                       "la orden ORD-", "Termination of sewer service"),
    "enforcement_penalty_order": (("P7", "P8", "P9", "P12"), "Orden de multa civil administrativa PEN-",
                                  "El funcionario de audiencias consideró (P7): magnitud del daño causado por la "
                                  "infracción: " + FACTORS["harm"], "Administrative civil penalty order PEN-"),
}  # fmt: skip


def _params():
    return [
        pytest.param(name, marks=[pytest.mark.provision(p) for p in provisions], id=name)
        for name, (provisions, *_rest) in LETTERS.items()
    ]


def _written(document) -> list[str]:
    """What the letter quotes as written: staff's and the hearing officer's words (the complaint's
    statement and the P7 factors are English in the fixtures), the records' references, names and the penalty account (P12),
    the rules' working (P5's last day, P7's cap) and the template's key the footer names."""
    context = json.loads(document.submission)["context"]
    quoted = [
        context.get(name, "") for name in ("hearing_latest_on", "cap_working", "statement", "law_violated")
    ]
    references = [
        context.get(name, "")
        for name in ("case_reference", "order_reference", "complaint_reference", "account")
    ]
    return [*quoted, *references, *WRITTEN.values(), *FACTORS.values(), f"{document.key}_es", "A. Reyes"]


@pytest.mark.parametrize("name", _params())
def test_each_later_letter_is_written_in_spanish_for_a_spanish_reader(town, name):
    town.own_fse.contact = PartyFactory(name="Rosa Méndez", preferred_language="es")
    town.own_fse.save(update_fields=["contact"])
    document = every_later_letter(town)[name]
    provisions, title, sentence, _english = LETTERS[name]
    assert document.language == "es" and document.template.key == f"{document.key}_es"
    text = pdf_text(document_pdf(document))
    assert document.title.startswith(title) and sentence in text
    assert all(f"{provision}" in text for provision in provisions)
    assert english_left(text, *_written(document)) == []


@pytest.mark.provision("P5")
@pytest.mark.provision("L3")
def test_p5_l3_the_spanish_letters_state_the_ruleset_periods_and_the_rules_working(town):
    town.own_fse.contact = PartyFactory(name="Rosa Méndez", preferred_language="es")
    town.own_fse.save(update_fields=["contact"])
    letters = every_later_letter(town)
    rules = ruleset_on(letters["enforcement_complaint"].issued_on)
    complaint = letters["enforcement_complaint"].body
    assert f"dentro de los {rules.complaint_hearing_days} días siguientes a la notificación" in complaint
    assert f"dentro de los {rules.appeal_days} días siguientes a su notificación (P6)" in complaint
    # The rules' working is said in Spanish too (issue 18), not quoted in English.
    assert "(La audiencia está atrasada a partir del" in complaint
    suspension = letters["enforcement_suspension_notice"].body
    assert f"no más de {rules.hearing_continuance_max_days} días en total (L3)" in suspension
    assert (
        f"dentro de los {rules.hearing_decision_days} días siguientes al término de la audiencia (L4)"
        in suspension
    )
    assert "Los motivos (L1): Infringió los requisitos de mantenimiento" in suspension
    notice = letters["enforcement_hearing_notice"].body
    assert f"a solicitud de la parte interesada: {WRITTEN['reason']}" in notice
    assert "sobre la suspensión o revocación (L2-L4)" in notice
    penalty = letters["enforcement_penalty_order"].body
    assert "Cálculo del tope (P7): Infracción:" in penalty
    assert f"{rules.lien_delinquency_days} días de atraso" in penalty


@pytest.mark.parametrize("name", _params())
def test_each_later_letter_stays_english_for_an_english_reader(town, name):
    document = every_later_letter(town)[name]
    _provisions, _title, sentence, english = LETTERS[name]
    assert document.language == "en" and document.template.key == document.key
    text = pdf_text(document_pdf(document))
    assert document.title.startswith(english) and sentence not in text
    assert "caso" not in text.split() and "Municipio" not in text


@pytest.mark.provision("L1")
@pytest.mark.provision("P7")
def test_l1_p7_the_letters_words_for_other_records_are_their_english_labels(town):
    """The labels a letter states in English are the records' own (the grounds of L1, the factors of
    P7, the hearings' and orders' kinds): marked again in documents_orders for their Spanish."""
    assert {key: str(label) for key, label in GROUNDS.items()} == {
        key: str(label) for key, label in PermitOrder.Ground.choices
    }
    assert tuple(str(words) for words in P7_FACTOR_WORDS) == P7_FACTORS
    assert {key: str(label) for key, label in HEARING_KINDS.items()} == {
        key: str(label) for key, label in Hearing.Kind.choices
    }
    assert {key: str(label) for key, label in ORDER_KIND_NAMES.items()} == {
        key: str(label) for key, label in PermitOrder.Kind.choices
    }
