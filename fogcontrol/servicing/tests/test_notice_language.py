"""Issue 18: the B7 notices of a proposed change of a device's service frequency, and of its
withdrawal, reach each reader in their language; an English reader's e-mail is unchanged."""

import pytest
from django.core import mail

from fogcontrol.core.roles import Role
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.servicing.services import frequency_change, frequency_change_withdraw
from fogcontrol.testing.documents import english_left


def _to(address):
    return [message for message in mail.outbox if message.to == [address]]


@pytest.mark.provision("B7", "A3")
def test_b7_the_change_of_frequency_and_its_withdrawal_reach_a_spanish_reader_in_spanish(
    town, django_capture_on_commit_callbacks
):
    manager = town.users[Role.FOG_MANAGER]
    operator = town.own_fse.operator
    operator.preferred_language = "es"
    operator.save(update_fields=["preferred_language"])
    device = town.own_device
    contacts = town_contacts()
    written = [
        town.own_fse.business_name,
        device.identifier,
        contacts["town_name"],
        contacts["fog_manager_name"],
    ]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        change = frequency_change(device=device, acting_user=manager, to_days=60, reason="Fryer added")

    (spanish,) = _to(operator.email)
    assert spanish.subject == (
        f"Dispositivo de control de grasas {device.identifier}: cambio propuesto de la frecuencia de servicio"
    )
    assert "a cada 60 días" in spanish.body and "Motivo: Fryer added" in spanish.body
    assert "(Capítulo 10.02, B7)" in spanish.body and "(Capítulo 10.02, A3)" in spanish.body
    assert english_left(f"{spanish.subject} {spanish.body}", *written, "Fryer added") == []
    (english,) = _to(town.users[Role.FSE].email)
    assert (
        english.subject == f"Grease control device {device.identifier}: proposed change of service frequency"
    )
    assert english.body.startswith(
        f"The Town proposes to change the service frequency of grease control device {device.identifier}"
    )
    assert "(Chapter 10.02, B7)" in english.body and "Reason: Fryer added" in english.body

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        frequency_change_withdraw(change=change, acting_user=manager, reason="Fryer removed")
    (spanish,) = _to(operator.email)
    assert (
        spanish.subject
        == f"Dispositivo de control de grasas {device.identifier}: se retira el cambio propuesto"
    )
    assert "El dispositivo mantiene su frecuencia actual." in spanish.body
    assert english_left(f"{spanish.subject} {spanish.body}", *written, "Fryer removed") == []
    (english,) = _to(town.users[Role.FSE].email)
    assert english.subject == f"Grease control device {device.identifier}: proposed change withdrawn"
    assert "The device keeps its current frequency." in english.body
