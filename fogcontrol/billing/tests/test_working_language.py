"""Issue 18: an invoice stores its working with how each step was said (``as_record``), so the
FSE's invoice page and PDF in Spanish say the dates' working in Spanish, no step left in English;
the stored English, the working of record, is unchanged."""

import pytest
from django.utils import translation

from fogcontrol.billing.tests.helpers import days_ago, invoice
from fogcontrol.core.roles import Role
from fogcontrol.rules.explain import Explanation
from fogcontrol.testing.documents import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """The reader's language, activated by accounts' UserLanguageMiddleware for the request, stays
    active in this thread afterwards: give the next test English back."""
    yield
    translation.activate("en")


def _fse(client, town, language):
    user = town.users[Role.FSE]
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    client.force_login(user)
    return client


@pytest.mark.provision("Q1")
def test_q1_the_invoice_page_says_its_working_in_spanish(town, client):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    assert Explanation.from_record(issued.explanation).text() == issued.explanation["text"]
    assert issued.explanation["said"] and all(issued.explanation["said"])
    html = _fse(client, town, "es").get(f"/billing/invoices/{issued.pk}/").content.decode()
    working = html[html.index("<details>") : html.index("</details>")]
    assert 'lang="en"' not in working
    assert "Se debe pagar al recibir el aviso con fecha del" in working
    assert "Si no se paga, la factura queda en mora a partir del" in working
    text = pdf_text(client.get(f"/billing/invoices/{issued.pk}/pdf/").content)
    assert "Se debe pagar al recibir el aviso" in text
    assert "the working of record, in English" not in text and "(el registro oficial" not in text


@pytest.mark.provision("Q1")
def test_q1_the_same_page_in_english_shows_the_working_of_record(town, client):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    html = _fse(client, town, "en").get(f"/billing/invoices/{issued.pk}/").content.decode()
    for step in issued.explanation["steps"]:
        assert step.replace("'", "&#x27;") in html
