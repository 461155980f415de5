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


def test_changes_show_choice_labels_and_the_names_of_related_records_not_raw_values():
    """Issue 18: history read "full_service", "Haulers [2, 3]" and "Parcel 184"."""
    fse = factories.EstablishmentFactory(category="full_service")
    old_parcel, new_parcel = fse.parcel, factories.ParcelFactory(situs_address="9 Elm St")
    first, second = (
        factories.HaulerCompanyFactory(name="Coastal Pumping"),
        factories.HaulerCompanyFactory(name="Bay Grease"),
    )
    before = snapshot(fse)
    fse.category, fse.parcel = "quick_service", new_parcel
    fse.save()
    fse.haulers.set([first, second])
    audit_record(
        acting_user="seed_demo",
        action="establishment.update",
        instance=fse,
        before=before,
        after=snapshot(fse),
    )
    changes = {
        label: (was, now)
        for label, was, now in change_history(factories.UserFactory(role=Role.FOG_MANAGER), fse)[0]["changes"]
    }
    category = fse._meta.get_field("category")
    assert changes["category"] == (
        dict(category.flatchoices)["full_service"],
        dict(category.flatchoices)["quick_service"],
    )
    assert changes["parcel"] == (str(old_parcel), str(new_parcel))
    assert changes["haulers"][1] in ("Coastal Pumping, Bay Grease", "Bay Grease, Coastal Pumping")


def test_a_related_record_deleted_since_is_named_by_its_number():
    parcel = factories.ParcelFactory()
    audit_record(
        acting_user="seed_demo",
        action="parcel.update",
        instance=parcel,
        before={"situs_address": "a"},
        after={"situs_address": "b"},
    )
    fse = factories.EstablishmentFactory()
    audit_record(
        acting_user="seed_demo",
        action="establishment.update",
        instance=fse,
        before={"parcel_id": 999999},
        after={"parcel_id": fse.parcel_id},
    )
    ((label, was, now),) = change_history(factories.UserFactory(role=Role.FOG_MANAGER), fse)[0]["changes"]
    assert was == "parcel 999999 (no longer exists)" and now == str(fse.parcel)


def test_related_records_the_page_has_read_are_named_from_its_rows_not_read_again(django_assert_num_queries):
    """Issue 16: an FSE's page has read its parcel, parties and haulers; its history names them from
    those rows, the same names, and reads only the records it does not hold (here the old parcel)."""
    fse = factories.EstablishmentFactory()
    old_parcel, new_parcel = fse.parcel, factories.ParcelFactory(situs_address="9 Elm St")
    hauler = factories.HaulerCompanyFactory(name="Coastal Pumping")
    before = snapshot(fse)
    fse.parcel = new_parcel
    fse.save()
    fse.haulers.set([hauler])
    audit_record(acting_user="seed_demo", action="establishment.update", instance=fse, before=before,
                 after=snapshot(fse))  # fmt: skip
    manager = factories.UserFactory(role=Role.FOG_MANAGER)
    read_alone = change_history(manager, fse)
    with django_assert_num_queries(2):  # the entries; the old parcel (the haulers' names are known)
        from_rows = change_history(manager, fse, known=[new_parcel, hauler])
    assert from_rows == read_alone
    changes = {label: (was, now) for label, was, now in from_rows[0]["changes"]}
    assert (
        changes["parcel"] == (str(old_parcel), str(new_parcel)) and changes["haulers"][1] == "Coastal Pumping"
    )
