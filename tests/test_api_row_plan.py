"""`core.api.rows`: the plan a serializer class reads and writes its rows by writes what DRF writes,
also for values no column of the list holds (issue 16).

`tests/test_api_list_rows.py` compares the lists' rows with DRF's own serializing on the records the
lists load; here the records hold what the plan hands back to DRF: an `Enum` member for a choice,
a string in a date field, a naive date-time, a float in a decimal field, a missing related record
behind a field with a default, a missing annotation (DRF leaves the key out), a list with a None,
under another current time zone. And a row whose fields the plan all reads builds no DRF field.
"""

import datetime
import decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework import serializers

from fogcontrol.registry.api.serializers import DeviceSerializer, EstablishmentSerializer
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice

pytestmark = pytest.mark.django_db  # DRF's own reads a record's many-to-many through the database


def drfs_own(serializer_class, record) -> list:
    return list(serializers.Serializer.to_representation(serializer_class(), record).items())


def planned(serializer_class, record) -> list:
    return list(serializer_class().to_representation(record).items())


def an_establishment(device_count=None, **values) -> FoodServiceEstablishment:
    fse = FoodServiceEstablishment(
        pk=7,
        business_name="Taqueria",
        licence_number="BL-7",
        licence_expires_on=datetime.date(2027, 1, 31),
        category=FoodServiceEstablishment.Category.FULL_SERVICE.value,
        latitude=decimal.Decimal("37.1234567"),
        longitude=decimal.Decimal("-122.1234567"),
        created_at=datetime.datetime(2026, 3, 1, 8, 30, tzinfo=datetime.UTC),
        updated_at=datetime.datetime(2026, 7, 1, 18, 5, 9, 120, tzinfo=datetime.UTC),
        version=3,
        **values,
    )
    fse.api_users, fse.api_haulers = [], []
    if device_count is not None:
        fse.device_count = device_count  # the list's annotation
    return fse


def test_unexpected_values_are_written_drfs_way():
    odd = an_establishment()
    odd.category = FoodServiceEstablishment.Category.QUICK_SERVICE  # an Enum member, not its text
    odd.licence_expires_on = "2027-02-28"  # a string in a date field
    odd.created_at = datetime.datetime(2026, 3, 1, 8, 30)  # naive
    odd.latitude = 37.5  # a float in a decimal field
    # No parcel, operator or contact (their names' defaults) and no device_count (left out).
    row = planned(EstablishmentSerializer, odd)
    assert row == drfs_own(EstablishmentSerializer, odd)
    assert "device_count" not in dict(row)
    assert dict(row)["parcel_apn"] is None


def test_a_row_is_drfs_own_under_another_current_time_zone():
    fse = an_establishment(device_count=2)
    with timezone.override(ZoneInfo("Europe/Paris")):
        row = planned(EstablishmentSerializer, fse)
        assert row == drfs_own(EstablishmentSerializer, fse)
    assert dict(row)["created_at"] == "2026-03-01T09:30:00+01:00"
    assert dict(planned(EstablishmentSerializer, fse))["created_at"] == "2026-03-01T00:30:00-08:00"


def test_a_devices_row_with_odd_values_is_drfs_own():
    device = GreaseControlDevice(
        pk=5,
        identifier="GI-5",
        kind=GreaseControlDevice.Kind.GRAVITY_INTERCEPTOR,
        capacity_gallons=1000,
        total_design_depth_in=42.5,  # a float in a decimal field
        manhole_diameter_in=decimal.Decimal("36.0"),
        a4_flags=["a flag", None],
        installed_on=datetime.date(2020, 5, 1),
        created_at=datetime.datetime(2026, 3, 1, 8, 30, tzinfo=datetime.UTC),
        updated_at=datetime.datetime(2026, 3, 1, 8, 30, tzinfo=datetime.UTC),
        version=1,
    )
    device.api_establishments = []
    assert planned(DeviceSerializer, device) == drfs_own(DeviceSerializer, device)


def test_a_row_the_plan_reads_whole_builds_no_field():
    serializer = EstablishmentSerializer()
    row = serializer.to_representation(an_establishment(device_count=0, status="active"))
    assert list(row) == list(EstablishmentSerializer().fields)
    assert "fields" not in serializer.__dict__
