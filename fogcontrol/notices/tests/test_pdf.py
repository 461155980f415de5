"""The document prints as issued: the letterhead, the text, the provisions cited and its service."""

import io

import pytest
from pypdf import PdfReader

from fogcontrol.notices.pdf import document_pdf
from fogcontrol.notices.services import document_record_service
from fogcontrol.notices.tests.helpers import issue_letter
from fogcontrol.program.services import town_profile_update

pytestmark = pytest.mark.django_db


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def test_the_pdf_reads_back_letterhead_text_and_service(town, manager, today):
    town_profile_update(acting_user=manager, name="Town of Los Robles", fog_manager_name="Dana Reyes",
                        fog_manager_address="1 Civic Center Plaza")  # fmt: skip
    document = issue_letter(town, method="certified_mail", article_number="9407 1111 2222")
    text = text_of(document_pdf(document))
    assert (
        "TOWN OF LOS ROBLES" in text and "Dana Reyes, FOG Manager" in text and "1 Civic Center Plaza" in text
    )
    assert "Letter from the FOG Control Program" in text and "Please call us about your permit." in text
    assert "Certified mail, article no. 9407 1111 2222, not yet served" in text
    assert f"{document.reference}" in text
    document_record_service(acting_user=manager, document=document, service_method="certified_mail",
                            served_on=today, article_number="9407 1111 2222")  # fmt: skip
    assert f"served {today:%B} {today.day}, {today.year}" in text_of(document_pdf(document))


def test_the_pdf_cites_the_provisions_and_escapes_the_text(town, manager, cited_notice):
    document = issue_letter(town, key="test_cited_notice", context={"business_name": "<b>Blue</b> & Co"})
    text = text_of(document_pdf(document))
    assert "Provisions cited (Chapter 10.02): C1, P3" in text
    assert "Dear <b>Blue</b> & Co," in text
