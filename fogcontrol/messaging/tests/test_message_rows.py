"""Issue 16: messages are written from value rows (``messages_queue_rows``, the one writer): no
``Message`` built before the INSERT, the audit entries built by the database from the rows. What
is stored, audited and returned is what a message instance would have been."""

import datetime as dt

import pytest
from django.db import connection

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.services import snapshot
from fogcontrol.messaging.models import Kind, Message
from fogcontrol.messaging.recipients import Recipient
from fogcontrol.messaging.services import Draft, messages_queue
from fogcontrol.messaging.services import messages as writer
from fogcontrol.messaging.services.messages import Record, dedupe_key, messages_queue_rows
from fogcontrol.messaging.tests.rows import add_messages
from fogcontrol.notices.rendering import prepared, render
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import GreaseControlDevice

pytestmark = pytest.mark.django_db
JOB = "messaging.test"


def _drafts(town, count: int, subject=None) -> list[Draft]:
    return [
        Draft(Kind.SERVICE_OVERDUE, Recipient(email=f"row{n}@example.org", name=f"Row {n}", language="es" if n % 2 else "en"),
              subject or town.own_device, town_today() - dt.timedelta(days=n),
              {"business_name": "Blue Plate", "site_address": "1 Main", "device": "D-1", "due_date": town_today()},
              town.own_fse.pk)
        for n in range(count)
    ]  # fmt: skip


def test_each_message_is_stored_audited_and_returned_as_an_instance_would_be(town):
    messages = add_messages(town, 3)
    for message in messages:
        stored = Message.objects.get(pk=message.pk)
        assert snapshot(message) == snapshot(stored)  # the instance returned is the row written
        entry = AuditEntry.objects.get(action="message.queue", object_id=str(message.pk))
        assert entry.before is None and entry.after == snapshot(stored)
        if connection.vendor == "sqlite":  # stored as written (PostgreSQL's jsonb keeps no order)
            assert list(entry.after) == list(snapshot(stored))  # the same keys, in the same order
        assert entry.object_repr == str(stored) and entry.actor_label == JOB
        assert stored.status == Message.Status.QUEUED and stored.queued_at == message.queued_at


def test_a_record_named_by_model_and_id_is_the_instance_for_the_key_and_the_row(town):
    device = town.own_device
    by_instance, by_record = _drafts(town, 1), _drafts(town, 1, Record(GreaseControlDevice, device.pk))
    assert dedupe_key(by_instance[0]) == dedupe_key(by_record[0])
    (written,) = messages_queue(acting_user=JOB, drafts=by_record, on=town_today())
    assert written.subject_id == device.pk and written.subject_type.model_class() is GreaseControlDevice
    assert messages_queue(acting_user=JOB, drafts=by_instance, on=town_today()) == []  # the same key


def test_a_message_written_meanwhile_is_skipped_by_the_insert_not_sent_twice(town, monkeypatch):
    drafts = _drafts(town, 4)
    first = messages_queue(acting_user=JOB, drafts=drafts[1:3], on=town_today())
    monkeypatch.setattr(writer, "_written", lambda keys: set())  # another run wrote them after the check
    rows = messages_queue_rows(acting_user=JOB, drafts=drafts, on=town_today())
    assert [row["dedupe_key"] for row in rows] == [dedupe_key(drafts[0]), dedupe_key(drafts[3])]
    assert all(Message.objects.get(pk=row["id"]).dedupe_key == row["dedupe_key"] for row in rows)
    assert Message.objects.count() == 4 == AuditEntry.objects.filter(action="message.queue").count()
    assert {m.pk for m in first}.isdisjoint(row["id"] for row in rows)


def test_a_prepared_template_fills_as_render_did():
    text = "Dear {name}, {{literal}} {name} at {place}}}"
    assert prepared(text) == "Dear {name}, {{literal}} {name} at {place}}}"
    assert render(text, {"name": "Ana", "place": "Main"}) == "Dear Ana, {literal} Ana at Main}"
    for unsafe in ("{name.__class__}", "{name[0]}", "{0}"):  # never a look-up: a missing value
        with pytest.raises(KeyError):
            render(unsafe, {"name": "Ana"})
