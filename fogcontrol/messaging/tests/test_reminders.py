"""Reminders by e-mail (issue #17): each kind is sent once, in the recipient's language, from the
template version in force."""

import datetime as dt

import pytest
from django.core import mail
from django.core.management import call_command

from fogcontrol.billing.tests.helpers import invoice
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.messaging.models import Message
from fogcontrol.messaging.services import reminders_send_due
from fogcontrol.messaging.tests.helpers import service_due
from fogcontrol.notices.models import DocumentTemplate
from fogcontrol.notices.services import template_first_version
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_today
from fogcontrol.records.models import RecordRequirement

pytestmark = pytest.mark.django_db
JOB = "messaging.test"


@pytest.fixture
def send(django_capture_on_commit_callbacks):
    """The sweep on a day; the sending task, queued on commit, runs at once (tests run tasks at once)."""

    def run(on=None):
        with django_capture_on_commit_callbacks(execute=True):
            return reminders_send_due(on=on or town_today(), acting_user=JOB)

    return run


@pytest.mark.provision("E1")
def test_service_due_reaches_fse_owner_and_hauler_once_each_in_their_language(town, send):
    operator = town.own_fse.operator
    operator.preferred_language = "es"
    operator.save()
    service_due(town.own_device, 5)
    counts = send()
    messages = Message.objects.filter(kind="service_due")
    to = {m.to_email: m for m in messages}
    assert counts["service_due"] == len(to) == messages.count()
    assert operator.email in to and town.users[Role.FSE].email in to and town.users[Role.HAULER].email in to
    spanish = to[operator.email]
    assert spanish.language == "es" and spanish.template_key == "messaging_service_due_es"
    assert "debe vaciarse" in spanish.body and town.own_device.identifier in spanish.subject
    english = to[town.users[Role.FSE].email]
    assert english.language == "en" and "must be pumped out" in english.body
    assert all(m.status == "sent" and m.sent_at for m in messages)
    sent = len(mail.outbox)
    assert sent == messages.count()
    # The sweep again, the next day too: nothing is sent twice.
    assert sum(send().values()) == 0
    assert sum(send(town_today() + dt.timedelta(days=1)).values()) == 0
    assert len(mail.outbox) == sent


@pytest.mark.provision("E1")
def test_service_overdue_and_the_template_version_in_force(town, send):
    today = town_today()
    template_first_version("messaging_service_overdue_en", effective_from=today - dt.timedelta(days=30))
    DocumentTemplate.objects.create(
        key="messaging_service_overdue_en", version=2, effective_from=today, adopted_by="Res. 2026-9",
        title="Late: {device}", body="Dear {recipient_name}, service {device} now (due {due_date}).",
    )  # fmt: skip
    service_due(town.own_device, -3)
    send()
    message = Message.objects.get(kind="service_overdue", to_email=town.users[Role.FSE].email)
    assert message.template_version == 2 and message.subject == f"Late: {town.own_device.identifier}"
    due = today - dt.timedelta(days=3)
    assert f"{due:%B} {due.day}, {due.year}" in message.body


def test_nothing_is_due_far_ahead(town, send):
    service_due(town.own_device, 60)
    assert sum(send().values()) == 0 and Message.objects.count() == 0


@pytest.mark.provision("B6")
def test_permit_renewal_reminder_within_the_renewal_window(town, send):
    PermitFactory(establishment=town.own_fse, valid_until=town_today() + dt.timedelta(days=20))
    PermitFactory(establishment=town.other_fse, valid_until=town_today() + dt.timedelta(days=400))
    send()
    messages = Message.objects.filter(kind="permit_renewal")
    assert messages.exists() and {m.establishment_id for m in messages} == {town.own_fse.pk}
    assert "renewed with its business licence" in messages.first().body
    assert sum(send().values()) == 0


@pytest.mark.provision("F3")
def test_report_due_soon_is_reminded_once(town, send):
    today = town_today()
    RecordRequirement.objects.create(
        establishment=town.own_fse, kind="self_monitoring", every=3, unit="months",
        first_due_on=today + dt.timedelta(days=7), requested_on=today,
    )  # fmt: skip
    send()
    assert Message.objects.filter(kind="report_due", establishment=town.own_fse).exists()
    assert sum(send().values()) == 0


@pytest.mark.provision("Q1")
def test_invoice_issued_is_e_mailed_to_the_debtor(town, send):
    issued = invoice(town, "240.00")
    send()
    message = Message.objects.get(kind="invoice_issued", to_email=town.users[Role.FSE].email)
    assert issued.number in message.subject and "$240.00" in message.subject
    assert sum(send().values()) == 0


@pytest.mark.provision("L2")
def test_hearing_date_then_its_continuance(town, send):
    case = a_case(town)
    day = town_today() + dt.timedelta(days=12)
    hearing = Hearing.objects.create(case=case, kind="suspension", first_scheduled_on=day, scheduled_on=day,
                                     place="Council Chambers")  # fmt: skip
    send()
    first = Message.objects.filter(kind="hearing").count()
    assert first and "Council Chambers" in Message.objects.filter(kind="hearing").first().body
    assert sum(send().values()) == 0
    hearing.scheduled_on = day + dt.timedelta(days=14)
    hearing.save()
    send()
    assert Message.objects.filter(kind="hearing").count() == 2 * first


def test_the_command(town, send, capsys):
    service_due(town.own_device, 2)
    call_command("send_reminders", "--on", town_today().isoformat())
    assert "reminder(s) queued" in capsys.readouterr().out
    with pytest.raises(Exception, match="YYYY-MM-DD"):
        call_command("send_reminders", "--on", "tomorrow")


@pytest.mark.provision("C4")
def test_annual_training_due_soon_is_reminded_once(town, send):
    from fogcontrol.records import services as records

    # Trained a year ago less a week: the anniversary falls within the reminder window.
    records.training_session_record(
        establishment=town.own_fse, held_on=town_today() - dt.timedelta(days=358), trainer="Ana",
        subjects=["dry_wipe", "food_waste", "absorbents", "waste_oil"], acting_user=town.users[Role.FSE],
    )  # fmt: skip
    records.training_session_record(
        establishment=town.other_fse, held_on=town_today() - dt.timedelta(days=30), trainer="Ana",
        subjects=["dry_wipe", "food_waste", "absorbents", "waste_oil"], acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    send()
    messages = Message.objects.filter(kind="training_due")
    assert messages.exists() and {m.establishment_id for m in messages} == {town.own_fse.pk}
    assert "annual training" in messages.first().body
    assert sum(send().values()) == 0


def test_the_sweep_takes_the_same_queries_for_few_establishments_and_many(town):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from fogcontrol.testing import factories

    def add(count):
        for _ in range(count):
            fse = factories.EstablishmentFactory()
            service_due(factories.DeviceFactory(establishments=[fse], parcel=fse.parcel), 3)

    def counted():
        with CaptureQueriesContext(connection) as queries:
            created = sum(reminders_send_due(on=town_today(), acting_user=JOB).values())
        return created, len(queries)

    add(1)
    counted()  # the templates' first versions are installed on first use
    add(2)
    few, few_queries = counted()
    add(7)
    many, many_queries = counted()
    assert many > few > 0 and many_queries == few_queries
