"""Issue 18: the FSE's obligations list in Spanish says each rule's working in Spanish (a fee not
yet invoiced, counted under Q1 and Q2), none marked English; the API keeps the English of record."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import translation

from fogcontrol.core.roles import Role
from fogcontrol.permits.models import FeeCharge, FeeKind
from fogcontrol.permits.tests.factories import fee_schedule


@pytest.fixture(autouse=True)
def _english_after():
    """The reader's language, activated by accounts' UserLanguageMiddleware for the request, stays
    active in this thread afterwards: give the next test English back."""
    yield
    translation.activate("en")


@pytest.mark.provision("Q1")
def test_q1_the_obligations_page_says_the_fee_working_in_spanish(town, client):
    fse = town.own_fse
    FeeCharge.objects.create(
        kind=FeeKind.RENEWAL, amount=Decimal("350.00"), fee_schedule=fee_schedule(), establishment=fse,
        description="FOG permit annual renewal (B6)", assessed_on=dt.date(2026, 1, 5), status=FeeCharge.Status.OWED,
    )  # fmt: skip
    user = town.users[Role.FSE]
    user.preferred_language = "es"
    user.save(update_fields=["preferred_language"])
    client.force_login(user)
    html = client.get(f"/records/establishments/{fse.pk}/obligations/").content.decode()
    workings = re.findall(r'<pre class="explanation"[^>]*>.*?</pre>', html, flags=re.S)
    assert workings and not any('lang="en"' in working for working in workings)
    assert any("Todavía no está en una factura" in working for working in workings)
    assert any("Se debe pagar al recibir el aviso con fecha del" in working for working in workings)
    api = client.get(f"/api/v1/establishments/{fse.pk}/obligations/").json()
    fees = [item for item in api if item["kind"] == "fees"]
    assert fees and fees[0]["explanation"].startswith(
        "Provisions: Q1, Q2, Counting days\n1. Not yet on an invoice"
    )
