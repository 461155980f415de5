"""The device page in the reader's language (issue 18): who is responsible (A2, A3) and the A4 flags
stored with the device read in Spanish, as the rules said them in English."""

import pytest
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.rules.ruleset import CHAPTER_10_02
from fogcontrol.rules.sizing import a4_flags

pytestmark = pytest.mark.django_db


def _spanish_page(user, url) -> str:
    user.preferred_language = "es"
    user.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.provision("A2")
@pytest.mark.provision("A4")
def test_a2_a4_the_owner_reads_the_responsibility_and_the_a4_flags_in_spanish(town):
    device = town.shared_device
    device.kind, device.compartments, device.manhole_diameter_in = "gravity_interceptor", None, None
    device.a4_flags = list(a4_flags(device.kind, None, None, CHAPTER_10_02))  # as stored when saved
    device.save(update_fields=["kind", "compartments", "manhole_diameter_in", "a4_flags"])
    page = _spanish_page(town.users[Role.PROPERTY_OWNER], f"/registry/devices/{device.pk}/")
    assert (
        f"<li>El dispositivo da servicio a 2 establecimientos en un mismo predio ({town.owned_parcel.apn}).</li>"
        in (page)
    )
    assert "A4: no se registró el número de compartimientos (se exigen al menos 2)." in page
    assert "A4: number of compartments not recorded" not in page
