"""``json_values``: an ``__in`` list sent as one JSON parameter finds what the list itself finds
(the manifest ingest's chunk reads name their devices this way, issue 16)."""

import pytest
from django.db.models.functions import Upper

from fogcontrol.core.set_sql import json_values
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


def test_ids_and_texts_find_what_the_list_finds():
    devices = [factories.DeviceFactory(identifier=name) for name in ("GI-1", "gi-2", "GI-Ñ3", "GI-4")]
    ids = [devices[0].pk, devices[2].pk, 10**9]
    keys = {"GI-2", "GI-Ñ3", "NOPE"}
    upper = GreaseControlDevice.objects.annotate(_upper=Upper("identifier"))
    assert set(GreaseControlDevice.objects.filter(pk__in=json_values(ids, integers=True))) == set(
        GreaseControlDevice.objects.filter(pk__in=ids)
    )
    assert set(upper.filter(_upper__in=json_values(keys, integers=False))) == set(
        upper.filter(_upper__in=keys)
    )
    assert {d.identifier for d in upper.filter(_upper__in=json_values(keys, integers=False))} == {
        "gi-2",
        "GI-Ñ3",
    }


def test_an_empty_list_finds_nothing():
    factories.DeviceFactory()
    assert not GreaseControlDevice.objects.filter(pk__in=json_values([], integers=True)).exists()
    assert not GreaseControlDevice.objects.filter(identifier__in=json_values(set(), integers=False)).exists()
