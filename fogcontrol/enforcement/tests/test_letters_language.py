"""Issue 18: the notice of violation (P3), the administrative citation (P2) and the compliance
schedule agreement (H2, H4) go out in the establishment's contact's language: Spanish wording, dates
written by the locale, the provision IDs unchanged, the rules' words of a violation translated, the
officer's own words as written."""

import datetime as dt
from decimal import Decimal

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.enforcement import documents
from fogcontrol.enforcement.selectors.cases import case_detail
from fogcontrol.enforcement.services import steps
from fogcontrol.enforcement.services.violations import violation_open
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.testing.documents import english_left, pdf_text
from fogcontrol.testing.factories import PartyFactory

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 6)
ACTION = "Instale rejillas en todos los fregaderos"


def _spanish_case(town):
    town.own_fse.contact = PartyFactory(name="Rosa Méndez", preferred_language="es")
    town.own_fse.save(update_fields=["contact"])
    violation = violation_open(
        acting_user=town.users[Role.INSPECTOR], establishment=town.own_fse, provision="C1", kind="other",
        description="Drain screens are missing", evidence="Visto en la visita", began_on=dt.date(2026, 3, 2),
    )  # fmt: skip
    return a_case(town, violations=[violation]), violation


@pytest.mark.provision("P3")
def test_p3_the_notice_of_violation_is_written_in_spanish(town):
    case, violation = _spanish_case(town)
    inspector = town.users[Role.INSPECTOR]
    notice = steps.notice_of_violation_issue(
        acting_user=inspector, case=case_detail(inspector, case.pk), violations=[violation],
        required_action=ACTION, correct_by=dt.date(2026, 3, 20), issued_on=DAY,
        service_method="certified_mail", served_on=dt.date(2026, 3, 9), article_number="9407 0000 1111", today=DAY,
    )  # fmt: skip
    assert notice.document.language == "es"
    text = pdf_text(document_pdf(notice.document))
    assert "Aviso de infracción a Blue Plate Diner" in text
    assert "C1, desde el 2 de marzo de 2026: Faltan las rejillas de los desagües" in text
    assert f"Usted debe: {ACTION} a más tardar el 20 de marzo de 2026" in text
    assert "(10.02, P3)" in text and "Disposiciones citadas (Capítulo 10.02): P3, D4" in text
    assert "notificado el 9 de marzo de 2026" in text
    assert english_left(text, case.reference or "", document_key(text)) == []


@pytest.mark.provision("P2")
def test_p2_the_citation_is_written_in_spanish(town):
    case, violation = _spanish_case(town)
    manager = town.users[Role.FOG_MANAGER]
    citation = steps.citation_issue(
        acting_user=manager, case=case_detail(manager, case.pk), violation=violation, number="AC-2026-017",
        amount=Decimal("250.00"), issued_on=DAY, service_method="personal_delivery", served_on=DAY, today=DAY,
    )  # fmt: skip
    text = pdf_text(document_pdf(citation.document))
    assert "Citación administrativa AC-2026-017 a Blue Plate Diner" in text and "Monto: $250.00" in text
    assert "emitida el 6 de marzo de 2026" in text and "Capítulo 1.01" in text
    assert english_left(text, case.reference or "", document_key(text)) == []


@pytest.mark.provision("H2")
@pytest.mark.provision("H4")
def test_h2_h4_the_compliance_agreement_is_written_in_spanish_and_in_english_for_english(town):
    """The agreement (H1-H4) is registered in Spanish too: written through the same ``issue``."""
    case, _violation = _spanish_case(town)
    manager = town.users[Role.FOG_MANAGER]
    values = {"terms": "Vaciar el interceptor cada 30 días", "milestones": "- Nuevo calendario: 20 de marzo",
              "signed_by": "Rosa Méndez"}  # fmt: skip
    agreement = documents.issue(
        acting_user=manager, key=documents.COMPLIANCE_AGREEMENT, case=case, subject=None, context=values,
        service_method="personal_delivery", served_on=DAY, article_number="", issued_on=DAY,
    )  # fmt: skip
    text = pdf_text(document_pdf(agreement))
    assert agreement.language == "es" and "Acuerdo de calendario de cumplimiento con Blue Plate Diner" in text
    assert "Acordado el 6 de marzo de 2026" in text and "(H3)" in text and "(H4)" in text
    assert english_left(text, case.reference or "", "enforcement_compliance_agreement_es") == []
    town.own_fse.contact = PartyFactory(name="Ann Lee", preferred_language="en")
    town.own_fse.save(update_fields=["contact"])
    english = documents.issue(
        acting_user=manager, key=documents.COMPLIANCE_AGREEMENT, case=case, subject=None, context=values,
        service_method="personal_delivery", served_on=DAY, article_number="", issued_on=DAY,
    )  # fmt: skip
    assert english.language == "en" and english.title == "Compliance schedule agreement with Blue Plate Diner"
    assert "Agreed Friday, March 6, 2026." in english.body


def document_key(text: str) -> str:
    """The template's key the footer names (an identifier, printed as it is)."""
    return "enforcement_notice_of_violation_es enforcement_citation_es"
