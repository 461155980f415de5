"""A2: a device serving more than one FSE is shared. The list of shared devices is read from a
table the database keeps as links change (issue 16), whichever way they change: it must always be
exactly the devices with two links or more."""

import pytest
from django.db.models import Count

from fogcontrol.registry.models import GreaseControlDevice, SharedDevice
from fogcontrol.testing.factories import DeviceFactory, EstablishmentFactory

pytestmark = pytest.mark.django_db(transaction=False)


def _grouped() -> set[int]:
    """The devices with two links or more, counted from the links themselves."""
    links = GreaseControlDevice.establishments.through.objects.values("greasecontroldevice_id")
    return {row["greasecontroldevice_id"] for row in links.annotate(n=Count("*")).filter(n__gt=1)}


def _shared() -> set[int]:
    assert set(SharedDevice.objects.values_list("device_id", flat=True)) == _grouped()
    shared = set(GreaseControlDevice.objects.shared().values_list("pk", flat=True))
    others = set(GreaseControlDevice.objects.shared(False).values_list("pk", flat=True))
    assert not shared & others and shared | others == set(
        GreaseControlDevice.objects.values_list("pk", flat=True)
    )
    return shared


@pytest.mark.provision("A2")
def test_a2_a_device_is_shared_while_it_serves_two_fses_however_its_links_change():
    diner, wok, pho = EstablishmentFactory(), EstablishmentFactory(), EstablishmentFactory()
    device = DeviceFactory(establishments=[diner])
    alone = DeviceFactory(establishments=[pho])
    assert _shared() == set()
    device.establishments.add(wok)  # from the device's side
    assert _shared() == {device.pk}
    device.establishments.remove(diner)
    assert _shared() == set()
    pho.devices.add(device)  # from the FSE's side
    assert _shared() == {device.pk}
    device.establishments.set([wok, pho, diner])
    assert _shared() == {device.pk}
    device.establishments.clear()
    assert _shared() == set()
    GreaseControlDevice.establishments.through.objects.bulk_create(  # a bulk load (demo, bench)
        [
            GreaseControlDevice.establishments.through(
                greasecontroldevice=alone, foodserviceestablishment=fse
            )
            for fse in (diner, wok)
        ]
    )
    assert _shared() == {alone.pk}


@pytest.mark.provision("A2")
def test_a2_deleting_an_fse_or_the_device_leaves_no_stale_shared_device():
    diner, wok, pho = EstablishmentFactory(), EstablishmentFactory(), EstablishmentFactory()
    device = DeviceFactory(establishments=[diner, wok])
    other = DeviceFactory(establishments=[wok, pho])
    assert _shared() == {device.pk, other.pk}
    diner.delete()  # its links go with it
    assert _shared() == {other.pk}
    other.delete()
    assert _shared() == set()
    assert not GreaseControlDevice.objects.filter(pk=other.pk).exists()
