"""The audit trail: one entry per write, naming who acted (a person or a job), with before/after."""

import pytest
from django.contrib.contenttypes.models import ContentType

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.services import audit_record, audit_records_bulk, snapshot
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import Parcel
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


def test_audit_record_names_the_person_and_keeps_before_and_after():
    manager = factories.UserFactory(role=Role.FOG_MANAGER)
    parcel = factories.ParcelFactory(situs_address="1 Main St")
    before = snapshot(parcel)
    parcel.situs_address = "2 Main St"
    entry = audit_record(acting_user=manager, action="parcel.update", instance=parcel, before=before,
                         after=snapshot(parcel), note="Renumbered")  # fmt: skip
    entry.refresh_from_db()
    assert (entry.actor, entry.actor_label, entry.action) == (manager, manager.username, "parcel.update")
    assert (entry.content_type.model_class(), entry.object_id) == (Parcel, str(parcel.pk))
    assert entry.changed_fields() == [("situs_address", "1 Main St", "2 Main St")]
    assert entry.note == "Renumbered"


def test_audit_record_names_a_job_by_its_label():
    parcel = factories.ParcelFactory()
    entry = audit_record(acting_user="nightly-sweep", action="parcel.touch", instance=parcel)
    assert (entry.actor, entry.actor_label) == (None, "nightly-sweep")


def test_audit_records_bulk_writes_one_entry_per_record_in_one_insert_per_batch(django_assert_num_queries):
    parcels = [factories.ParcelFactory(situs_address=f"{number} Oak Ave") for number in range(5)]
    ContentType.objects.get_for_model(Parcel)  # cached from here on, as in a running program
    changes = [
        (parcel, {"situs_address": parcel.situs_address}, {"situs_address": "moved"}) for parcel in parcels
    ]
    with django_assert_num_queries(3):  # 5 entries, batches of 2
        written = audit_records_bulk(acting_user="nightly-sweep", action="parcel.move", changes=changes,
                                     note="Set-based", batch_size=2)  # fmt: skip
    assert written == 5
    entries = AuditEntry.objects.filter(action="parcel.move").order_by("id")
    assert [entry.object_id for entry in entries] == [str(parcel.pk) for parcel in parcels]
    for entry, parcel in zip(entries, parcels, strict=True):
        assert (entry.actor, entry.actor_label, entry.note) == (None, "nightly-sweep", "Set-based")
        assert entry.changed_fields() == [("situs_address", parcel.situs_address, "moved")]
        assert entry.at is not None


def test_audit_records_bulk_names_a_person_too():
    clerk = factories.UserFactory(role=Role.BILLING_CLERK)
    parcel = factories.ParcelFactory()
    audit_records_bulk(acting_user=clerk, action="parcel.bulk", changes=[(parcel, None, snapshot(parcel))])
    entry = AuditEntry.objects.get(action="parcel.bulk")
    assert (entry.actor, entry.actor_label, entry.before) == (clerk, clerk.username, None)
