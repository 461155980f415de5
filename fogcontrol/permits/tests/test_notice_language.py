"""Issue 18: the B6 notice (the permit's expiry follows the business licence) and the B7 notice of a
proposed change of terms reach each reader in their language, by e-mail and in the letter attached;
the notice keeps its English of record, and an English reader's e-mail is unchanged."""

import datetime as dt

import pytest
from django.core import mail

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitNotice
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.services import establishment_update
from fogcontrol.testing.documents import english_left, pdf_text

D = dt.date


def _operator_reads_spanish(town):
    operator = town.own_fse.operator
    operator.preferred_language = "es"
    operator.save(update_fields=["preferred_language"])
    return operator


def _written(town, *more) -> list[str]:
    """What a notice quotes as written: names and numbers of the records, the Town's own."""
    contacts = town_contacts()
    fse = town.own_fse
    return [fse.business_name, fse.licence_number, contacts["town_name"], contacts["fog_manager_name"], *more]


def _to(address):
    return [message for message in mail.outbox if message.to == [address]]


@pytest.mark.provision("B6")
def test_b6_the_licence_notice_reaches_a_spanish_reader_in_spanish_and_an_english_one_unchanged(
    issued, town, manager, django_capture_on_commit_callbacks
):
    operator = _operator_reads_spanish(town)
    english_reader = town.users[Role.FSE]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        establishment_update(
            establishment=town.own_fse, acting_user=manager, licence_expires_on=D(2027, 4, 28)
        )
    notice = PermitNotice.objects.get(permit=issued, kind="licence_expiry")

    (spanish,) = _to(operator.email)
    assert spanish.subject == f"Permiso FOG {issued.number}: su vencimiento sigue al de su licencia comercial"
    assert "miércoles 28 de abril de 2027" in spanish.body and "(Capítulo 10.02, B6)" in spanish.body
    assert english_left(f"{spanish.subject} {spanish.body}", *_written(town, issued.number)) == []
    letter = pdf_text(spanish.attachments[0][1])
    assert "Permiso FOG" in letter and "Enviado el" in letter
    assert english_left(letter, *_written(town, issued.number, notice.addressee)) == []

    (english,) = _to(english_reader.email)
    assert english.subject == f"FOG permit {issued.number}: expiry follows your business licence"
    assert english.body.startswith(notice.body) and "Wednesday, April 28, 2027" in english.body
    assert "Sent " in pdf_text(english.attachments[0][1])
    # The notice keeps the English of record; the Spanish is kept beside it, as sent.
    assert notice.body.startswith(f"Your FOG permit {issued.number} is renewed annually")
    assert notice.translations["es"]["subject"] == spanish.subject


@pytest.mark.provision("B7")
def test_b7_the_notice_of_a_change_of_terms_is_in_the_readers_language(
    issued, town, manager, django_capture_on_commit_callbacks
):
    operator = _operator_reads_spanish(town)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.permit_modification_propose(
            permit=issued, acting_user=manager, changes={"conditions": "Pump out after each holiday weekend."},
            reason="Fryer added", notice_date=town_today(),
        )  # fmt: skip
    (spanish,) = _to(operator.email)
    assert spanish.subject == f"Permiso FOG {issued.number}: cambio propuesto de sus condiciones"
    assert "Motivo: Fryer added" in spanish.body  # what staff typed stays as written
    assert (
        "Condiciones del permiso revisadas." in spanish.body
        and "Cumpla a partir del" in spanish.body
        and "(Capítulo 10.02, B7)" in spanish.body
    )
    assert english_left(spanish.body, *_written(town, issued.number, "Fryer added")) == []
    (english,) = _to(town.users[Role.FSE].email)
    assert english.subject == f"FOG permit {issued.number}: proposed change of terms"
    assert (
        "Permit conditions revised." in english.body
        and "Reason: Fryer added" in english.body
        and "(Chapter 10.02, B7)" in english.body
    )
