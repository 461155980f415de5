"""The API's lists of related ids (an FSE's haulers and users, a device's FSEs) are read from the
plain lists the list's selector prefetched (`RowsSerializerMixin.prefetched_lists`), without a
related manager built per row (issue 16); a record without them is read through its relation, and
what the two say is what DRF said."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import serializers

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.registry import selectors
from fogcontrol.registry.api.serializers import EstablishmentSerializer, ParcelDeviceSerializer
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany

pytestmark = pytest.mark.django_db


def test_the_establishments_list_gives_each_fses_haulers_and_users(town):
    manager = town.users[Role.FOG_MANAGER]
    fse = FoodServiceEstablishment.objects.order_by("pk").first()
    fse.haulers.set(HaulerCompany.objects.all())
    rows = api_as(manager).get("/api/v1/establishments/").json()["results"]
    for row in rows:
        record = FoodServiceEstablishment.objects.get(pk=row["id"])
        assert sorted(row["haulers"]) == sorted(record.haulers.values_list("pk", flat=True))
        assert sorted(row["users"]) == sorted(record.users.values_list("pk", flat=True))
    assert any(row["haulers"] for row in rows)


def test_a_listed_relation_is_read_from_its_list_and_an_unlisted_one_through_the_relation(town):
    """One way: DRF's own many-related field, and the list the selector loaded when there is one."""
    manager = town.users[Role.FOG_MANAGER]
    fields = EstablishmentSerializer().fields
    assert type(fields["haulers"]) is serializers.ManyRelatedField
    assert type(fields["users"]) is serializers.ManyRelatedField
    fse = FoodServiceEstablishment.objects.order_by("pk").first()
    fse.haulers.set(HaulerCompany.objects.all())
    fse.users.add(manager)
    listed = selectors.establishment_list_for_api(manager, as_lists=True).get(pk=fse.pk)
    detail = selectors.establishment_list_for_api(manager).get(pk=fse.pk)
    fresh = FoodServiceEstablishment.objects.get(pk=fse.pk)
    assert listed.api_haulers and not hasattr(detail, "api_haulers")
    with CaptureQueriesContext(connection) as queries:
        row = EstablishmentSerializer(listed).data
    assert not queries.captured_queries  # read from the lists, not through the relations
    for instance in (detail, fresh):
        other = EstablishmentSerializer(instance).data
        assert (row["haulers"], row["users"]) == (other["haulers"], other["users"])
    assert row["haulers"] and row["users"]


def test_a_parcels_devices_give_their_fses_from_the_list_its_detail_loaded(town):
    manager = town.users[Role.FOG_MANAGER]
    parcel = selectors.parcel_detail(manager, town.owned_parcel.pk)
    assert parcel.visible_devices
    with CaptureQueriesContext(connection) as queries:
        rows = ParcelDeviceSerializer(parcel.visible_devices, many=True).data
    assert not queries.captured_queries
    for device, row in zip(parcel.visible_devices, rows, strict=True):
        assert row["establishments"] == list(device.establishments.values_list("pk", flat=True))
    assert any(row["establishments"] for row in rows)
