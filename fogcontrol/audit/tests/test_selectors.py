"""A record's change history, as its page shows it: staff only, newest first, fields by their labels."""

import pytest

from fogcontrol.audit.selectors import change_history
from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.roles import Role
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


def _renumber(parcel, address, acting_user):
    before = snapshot(parcel)
    parcel.situs_address = address
    parcel.save()
    audit_record(
        acting_user=acting_user,
        action="parcel.update",
        instance=parcel,
        before=before,
        after=snapshot(parcel),
    )


def test_staff_see_each_change_newest_first_with_the_fields_labels():
    parcel = factories.ParcelFactory(situs_address="1 Main St")
    audit_record(acting_user="seed_demo", action="parcel.create", instance=parcel, after=snapshot(parcel))
    _renumber(parcel, "2 Main St", "nightly-sweep")
    history = change_history(factories.UserFactory(role=Role.INSPECTOR), parcel)
    assert [item["entry"].action for item in history] == ["parcel.update", "parcel.create"]
    assert history[0]["entry"].actor_label == "nightly-sweep"
    assert history[0]["changes"] == [("situs address", "1 Main St", "2 Main St")]


def test_anyone_but_staff_gets_no_history():
    parcel = factories.ParcelFactory()
    _renumber(parcel, "3 Main St", "seed_demo")
    assert change_history(factories.UserFactory(role=Role.FSE), parcel) is None
