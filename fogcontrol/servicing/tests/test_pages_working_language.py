"""The rules' workings on the portal in the reader's language (issue 18): an FSE reading Spanish sees
its device's working in Spanish, only the steps still English marked lang="en"; the stored
assessment of a request reads in Spanish too, and English readers see the English of record."""

import re

import pytest
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import FrequencyChangeRequest
from fogcontrol.servicing.services import frequency_request_file
from fogcontrol.servicing.tests.helpers import days_ago, submit


def _reader(user, language) -> Client:
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(user)
    return client


def _working(html: str) -> str:
    found = re.search(r'<div class="explanation">(.*?)</div>', html, re.S)
    assert found, "the page shows no working"
    return found.group(1)


@pytest.mark.provision("E1")
@pytest.mark.provision("D4")
def test_e1_d4_the_fse_reads_its_device_working_in_spanish(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(20))
    fse = town.users[Role.FSE]
    page = _reader(fse, "es").get(f"/servicing/devices/{town.own_device.pk}/").content.decode()
    working = _working(page)
    assert "<li>Estado al " in working and " de 20" in working  # "Estado al martes 1 de diciembre de 2026."
    assert "Frecuencia de servicio asignada: cada" in working or "No hay una frecuencia asignada" in working
    assert "Disposiciones: " in working
    # Only the steps still said in English are marked so; the module's own steps are not.
    assert not re.search(r'<li lang="en">Status on', working)
    english = _reader(fse, "en").get(f"/servicing/devices/{town.own_device.pk}/").content.decode()
    assert "<li>Status on " in _working(english) and 'lang="en"' not in _working(english)


@pytest.mark.provision("E5")
def test_e5_a_stored_assessment_reads_in_spanish(town):
    fse = town.users[Role.FSE]
    frequency_request_file(
        device=town.own_device, acting_user=fse, requested_days=120, justification="Light use."
    )
    filed = FrequencyChangeRequest.objects.get()
    assert "said" in filed.assessment["explanation"]  # stored with its sentences (as_record)
    page = _reader(fse, "es").get(f"/servicing/frequency-requests/{filed.pk}/").content.decode()
    working = _working(page)
    assert "<li>Solicitud: servicio cada 120 días naturales" in working
    assert "Denegada: la solicitud no está justificada por los motivos anteriores (E5)." in working
