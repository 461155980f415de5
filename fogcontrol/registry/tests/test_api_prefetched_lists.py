"""The API's lists of related ids (an FSE's haulers and users) are read from the rows' prefetched
cache, without a related manager built per row (issue 16); what they say is what DRF said."""

import pytest
from django.db.models import Prefetch
from rest_framework import serializers

from conftest import api_as
from fogcontrol.core.api.fields import PrefetchedManyRelatedField
from fogcontrol.core.roles import Role
from fogcontrol.registry.api.serializers import EstablishmentSerializer
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


def test_a_prefetched_list_is_read_from_the_cache_and_an_unprefetched_one_as_before(town):
    fields = EstablishmentSerializer().fields
    assert isinstance(fields["haulers"], PrefetchedManyRelatedField)
    assert isinstance(fields["users"], PrefetchedManyRelatedField)
    fse = FoodServiceEstablishment.objects.order_by("pk").first()
    fse.haulers.set(HaulerCompany.objects.all())
    prefetched = FoodServiceEstablishment.objects.prefetch_related(Prefetch("haulers")).get(pk=fse.pk)
    fresh = FoodServiceEstablishment.objects.get(pk=fse.pk)
    for instance in (prefetched, fresh):
        field = PrefetchedManyRelatedField(child_relation=serializers.PrimaryKeyRelatedField(read_only=True))
        field.bind("haulers", serializers.Serializer())
        plain = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
        plain.bind("haulers", serializers.Serializer())
        ours, drfs = field.get_attribute(instance), plain.get_attribute(instance)
        assert field.to_representation(ours) == plain.to_representation(drfs) != []
    assert fields["haulers"].get_attribute(prefetched) is prefetched._prefetched_objects_cache["haulers"]
