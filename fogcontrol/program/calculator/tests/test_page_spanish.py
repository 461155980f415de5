"""The calculator's answer panel in Spanish (issue 18): the page's own words, the kind of limit, the
lapse, and every step of the rules' working said in Spanish, none left marked English; the same
answer in English is the working of record, word for word."""

import re

import pytest
from django.utils import translation

from fogcontrol.core.roles import Role

PAGE = "/rules/"


@pytest.fixture(autouse=True)
def _english_after():
    """The reader's language, activated by accounts' UserLanguageMiddleware for the request, stays
    active in this thread afterwards: give the next test English back."""
    yield
    translation.activate("en")


def _reader(client, town, language):
    user = town.users[Role.FSE]
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    client.force_login(user)
    return client


def _panel(response, card: str) -> str:
    html = response.content.decode()
    start = html.index(f'id="{card}-result"')
    return html[start : html.index("</section>", start)]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.provision("L2")
def test_l2_answer_panel_reads_in_spanish_with_no_step_left_in_english(client, town):
    reader = _reader(client, town, "es")
    panel = _panel(reader.get(f"{PAGE}?provision=L2&start=2026-06-18"), "deadline")
    assert 'lang="en"' not in panel
    text = _text(panel)
    assert "Cómo se calculó" in text and "Disposiciones:" in text
    assert "Tipo de límite" in text and "Un mínimo: nunca se adelanta" in text
    assert (
        "Inicio: jueves 18 de junio de 2026, la fecha en que se envió el aviso por correo certificado."
        in text
    )
    assert (
        "L2: la audiencia debe celebrarse no menos de 15 días naturales ni más de 45 días naturales" in text
    )
    assert "How this was worked out" not in text and "Kind of limit" not in text


@pytest.mark.provision("P7")
def test_p7_answer_panel_reads_in_spanish(client, town):
    reader = _reader(client, town, "es")
    panel = _panel(reader.get(f"{PAGE}?violation_kind=maintenance&days=10"), "penalty")
    assert 'lang="en"' not in panel
    text = _text(panel)
    assert "Por día" in text and "medidas correctivas intentadas o adoptadas" in text
    assert "Cada día es una infracción distinta (P3): 10 días." in text


@pytest.mark.provision("L2")
def test_the_same_answer_in_english_is_the_working_of_record(client, town):
    reader = _reader(client, town, "en")
    text = _text(_panel(reader.get(f"{PAGE}?provision=L2&start=2026-06-18"), "deadline"))
    assert "Start: Thursday, June 18, 2026, the date the notice was mailed by certified mail." in text
    assert (
        "L2: the hearing must be not less than 15 calendar days and not more than 45 calendar days after "
        "mailing; the mailing day is not counted." in text
    )
