"""Issue 16: the nightly reminders are chosen, rendered and written a chunk at a time (a page of
one kind's records), so memory holds a chunk, not a night. The messages, their audit entries and
the counts are those of one chunk for the whole night; a chunk's queries do not grow with it."""

import datetime as dt

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from fogcontrol.audit.models import AuditEntry
from fogcontrol.billing.models import Invoice
from fogcontrol.billing.tests.helpers import invoice
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.messaging.models import Message
from fogcontrol.messaging.services import reminders_send_due
from fogcontrol.messaging.tests.helpers import service_due
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_today
from fogcontrol.records import services as records
from fogcontrol.records.models import RecordRequirement
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db
JOB = "messaging.test"
UNCHUNKED = 10**6
SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def _every_kind(town) -> None:
    """Several records of every kind of reminder, and a device two establishments share whose
    owner and hauler are one recipient for both (one key: the first establishment's wording wins;
    the establishment named first has the higher id, so an order by id would pick the other)."""
    today = town_today()
    owner, hauler = factories.PartyFactory(), factories.HaulerCompanyFactory(email="haul@example.org")
    zebra = factories.EstablishmentFactory(business_name="Zebra Grill", parcel__owner=owner)
    aardvark = factories.EstablishmentFactory(business_name="Aardvark Deli", parcel=zebra.parcel)
    for fse in (zebra, aardvark):
        fse.haulers.add(hauler)
    service_due(factories.DeviceFactory(establishments=[zebra, aardvark], parcel=zebra.parcel), 4)
    for n in range(5):
        fse = factories.EstablishmentFactory()
        fse.haulers.add(hauler)
        service_due(factories.DeviceFactory(establishments=[fse], parcel=fse.parcel), -2 if n % 2 else 3)
        PermitFactory(establishment=fse, valid_until=today + dt.timedelta(days=10 + n))
        RecordRequirement.objects.create(
            establishment=fse, kind="self_monitoring", every=3, unit="months",
            first_due_on=today + dt.timedelta(days=5 + n), requested_on=today,
        )  # fmt: skip
        records.training_session_record(
            establishment=fse, held_on=today - dt.timedelta(days=358 - n), trainer="Ana", subjects=SUBJECTS,
            acting_user=town.users[Role.FOG_MANAGER],
        )  # fmt: skip
        issued = invoice(town, f"{50 + n}.00", establishment=fse)
        if n == 4:  # as the billing step marks one unpaid past its last day (P9)
            Invoice.objects.filter(pk=issued.pk).update(delinquent_on=today)
    invoice(town, "75.00", party=factories.PartyFactory())
    service_due(town.own_device, 2)
    day = today + dt.timedelta(days=12)
    Hearing.objects.create(case=a_case(town), kind="suspension", first_scheduled_on=day, scheduled_on=day,
                           place="Council Chambers")  # fmt: skip


def _written() -> dict[str, tuple]:
    """Each message written, by its once-only key: every column but its id and the moment it was
    queued, and its audit entry (the same, the id in its text replaced by the key)."""
    columns = [f.attname for f in Message._meta.concrete_fields if f.attname not in ("id", "queued_at")]
    messages = {row["id"]: row for row in Message.objects.values("id", *columns)}
    out = {}
    for entry in AuditEntry.objects.filter(action="message.queue"):
        row = messages.pop(int(entry.object_id))
        key = row["dedupe_key"]
        after = {name: value for name, value in entry.after.items() if name not in ("id", "queued_at")}
        about = (entry.actor_label, entry.object_repr.replace(f"M-{row['id']} ", "M- "), entry.before, after)
        out[key] = ({name: row[name] for name in columns}, about)
    assert not messages, "every message has its audit entry"
    return out


def _sent(chunk_size: int):
    with transaction.atomic():
        counts = reminders_send_due(on=town_today(), acting_user=JOB, chunk_size=chunk_size)
        written = _written()
        transaction.set_rollback(True)
    return counts, written


@pytest.mark.provision("E1", "B6", "C4", "F3", "Q1", "L2")
def test_chunks_of_one_record_write_what_one_chunk_writes(town):
    _every_kind(town)
    counts, written = _sent(UNCHUNKED)
    assert {row["kind"] for row, _ in written.values()} == {kind for kind, n in counts.items() if n}
    assert all(counts.values()), counts  # every kind of reminder is written
    assert sum(counts.values()) == len(written)
    shared = [
        row for row, _ in written.values() if row["to_email"] == "haul@example.org" and "Deli" in row["body"]
    ]
    assert len(shared) == 1  # the shared device's one message to the hauler names the first by name
    assert (counts, written) == _sent(1)
    assert (counts, written) == _sent(3)


def test_a_chunk_takes_the_same_queries_for_few_records_and_many(town):
    def add(count):
        for _ in range(count):
            fse = factories.EstablishmentFactory()
            service_due(factories.DeviceFactory(establishments=[fse], parcel=fse.parcel), 3)

    def counted(chunk_size):
        with CaptureQueriesContext(connection) as queries:
            created = sum(
                reminders_send_due(on=town_today(), acting_user=JOB, chunk_size=chunk_size).values()
            )
        return created, len(queries)

    add(1)
    counted(UNCHUNKED)  # the templates' first versions are installed on first use
    add(2)
    few, few_queries = counted(3)  # the three devices due: one chunk (a full page, then an empty one)
    add(8)
    many, many_queries = counted(11)  # eleven: one chunk of eleven
    assert many > few > 0 and many_queries == few_queries
