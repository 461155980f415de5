"""Issue 18: the notices of a permit issued (B5), information requested (B3), an application
rejected (B5, with L5's denial) and an order applied (L5, M1) reach each reader in their language,
by e-mail and in the letter attached; the notice keeps its English of record, and an English
reader's e-mail is as it always was."""

import pytest
from django.core import mail

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitNotice
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.permits.tests.orders import final_order
from fogcontrol.rules.explain import fmt_date
from fogcontrol.testing.documents import english_left, pdf_text
from fogcontrol.testing.factories import EstablishmentFactory


@pytest.fixture
def spanish_operator(town):
    operator = town.own_fse.operator
    operator.preferred_language = "es"
    operator.save(update_fields=["preferred_language"])
    return operator


@pytest.fixture
def submitted(draft, fse_user):
    return services.application_submit(application=draft, acting_user=fse_user)


def _written(town, *more) -> list[str]:
    """What a notice quotes as written: names and numbers of the records, the Town's own."""
    contacts = town_contacts()
    fse = town.own_fse
    return [fse.business_name, fse.licence_number, contacts["town_name"], contacts["fog_manager_name"], *more]


def _to(address):
    return [message for message in mail.outbox if message.to == [address]]


def _spanish_and_english(town, operator, notice, *written):
    """The Spanish reader's e-mail and letter read in Spanish; returns both e-mails."""
    (spanish,) = _to(operator.email)
    assert english_left(f"{spanish.subject}\n{spanish.body}", *_written(town, *written)) == []
    letter = pdf_text(spanish.attachments[0][1])
    assert "Enviado el" in letter
    assert english_left(letter, *_written(town, notice.addressee, *written)) == []
    (english,) = _to(town.users[Role.FSE].email)
    assert english.subject == notice.subject and english.body.startswith(notice.body)
    assert "Sent " in pdf_text(english.attachments[0][1])
    assert notice.translations["es"]["subject"] == spanish.subject
    return spanish, english


@pytest.mark.provision("B5")
def test_b5_the_notice_of_issue_reaches_a_spanish_reader_in_spanish_and_an_english_one_unchanged(
    accepted, town, manager, spanish_operator, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        permit = services.permit_issue(application=accepted, acting_user=manager)
    notice = PermitNotice.objects.get(permit=permit, kind="permit_issued")
    spanish, english = _spanish_and_english(town, spanish_operator, notice, permit.number)
    assert spanish.subject == f"Permiso FOG {permit.number} emitido"
    assert f"cada {permit.service_frequency_days} días (E1)" in spanish.body
    assert "portal de permisos FOG" in spanish.body
    # The English of record, as the notice always read.
    assert english.subject == f"FOG permit {permit.number} issued"
    assert notice.body == (
        f"FOG permit {permit.number} has been issued to {town.own_fse.business_name}. It is valid until "
        f"{fmt_date(permit.valid_until)}, renewed with business licence {town.own_fse.licence_number} (B6). "
        f"The grease control device must be serviced at least every {permit.service_frequency_days} days (E1). "
        "Download the permit from the FOG permit portal and keep it on the premises."
    )


@pytest.mark.provision("B3")
def test_b3_the_request_for_information_is_in_the_readers_language_the_request_as_written(
    submitted, town, manager, spanish_operator, django_capture_on_commit_callbacks
):
    typed = "Send the grease trap's pump-out receipts."
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.application_request_information(application=submitted, acting_user=manager, message=typed)
    notice = PermitNotice.objects.get(application=submitted, kind="information_requested")
    spanish, english = _spanish_and_english(town, spanish_operator, notice, submitted.reference, typed)
    assert spanish.subject == f"Solicitud de permiso FOG {submitted.reference}: se pide información"
    assert f"(Capítulo 10.02, B3):\n\n{typed}\n\n" in spanish.body
    assert english.subject == f"FOG permit application {submitted.reference}: information requested"
    assert f"(Chapter 10.02, B3):\n\n{typed}\n\nPlease answer through the FOG permit portal." in english.body


@pytest.mark.provision("B5", "L5")
def test_b5_l5_the_rejection_under_l5_is_in_the_readers_language_the_record_in_english(
    submitted, town, manager, spanish_operator, django_capture_on_commit_callbacks
):
    revoked = PermitFactory(
        establishment=EstablishmentFactory(business_name="Harbor Grill", operator=spanish_operator)
    )
    order = final_order(revoked, manager, kind="revocation")
    services.permit_revoke(permit=revoked, acting_user=manager, order=order)
    typed = "Reviewed the records of the revoked permit."
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.application_reject(
            application=submitted, acting_user=manager, reasons=typed, deny_under_l5=True
        )
    notice = PermitNotice.objects.get(application=submitted, kind="application_rejected")
    written = (submitted.reference, typed, revoked.number, order.reference, spanish_operator.name)
    spanish, english = _spanish_and_english(town, spanish_operator, notice, *written)
    assert spanish.subject == f"Solicitud de permiso FOG {submitted.reference}: rechazada"
    assert (
        f"Denegada conforme a L5 (Capítulo 10.02): vinculada con el permiso {revoked.number}, revocado por la "
        f"orden {order.reference} (el mismo operador ({spanish_operator.name}))." in spanish.body
    )
    assert "(Capítulo 10.02, B1)" in spanish.body
    # The decision and the English notice keep the English of record.
    submitted.refresh_from_db()
    assert submitted.decision_reason == (
        f"Denied under L5 (Chapter 10.02): associated with permit {revoked.number}, revoked by order "
        f"{order.reference} (the same operator ({spanish_operator.name})).\n\n{typed}"
    )
    assert f"rejected for these reasons:\n\n{submitted.decision_reason}\n\nYou may submit" in english.body


@pytest.mark.provision("L5", "M1")
@pytest.mark.parametrize(
    ("kind", "apply", "estado", "status", "sentence"),
    [
        ("suspension", "permit_suspend", "suspendido", "suspended", "mientras esté suspendido (L5, M1)"),
        ("revocation", "permit_revoke", "revocado", "revoked", "hasta que se solicite y apruebe un nuevo permiso (L5)"),
    ],
)  # fmt: skip
def test_l5_m1_the_notice_of_an_order_applied_is_in_the_readers_language(
    issued,
    town,
    manager,
    spanish_operator,
    django_capture_on_commit_callbacks,
    kind,
    apply,
    estado,
    status,
    sentence,
):
    order = final_order(issued, manager, kind=kind)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        getattr(services, apply)(permit=issued, acting_user=manager, order=order)
    notice = PermitNotice.objects.get(permit=issued, kind="order")
    spanish, english = _spanish_and_english(town, spanish_operator, notice, issued.number, order.reference,
                                            order.decision)  # fmt: skip
    assert spanish.subject == f"Permiso FOG {issued.number}: {estado} por la orden {order.reference}"
    assert sentence in spanish.body and spanish.body.split("\n\n")[0].endswith(order.decision)
    assert english.subject == f"FOG permit {issued.number}: {status} by order {order.reference}"
    assert f"is {status} from " in english.body
