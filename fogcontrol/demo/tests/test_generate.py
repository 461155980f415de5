"""`fogcontrol bench generate`: a synthetic program at scale, deterministic, on a chain that verifies."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from fogcontrol.core.records import verify_chain
from fogcontrol.demo.generate import GENERATED_BY
from fogcontrol.permits.models import Permit
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.servicing.models import DeviceServiceState, Manifest

pytestmark = pytest.mark.django_db


def _generate(**options):
    out = StringIO()
    call_command("bench", "generate", stdout=out, **options)
    return out.getvalue()


def test_generates_a_program_whose_manifests_verify_and_are_marked_generated():
    output = _generate(establishments=12, years=2)
    assert "Generated 12 establishments" in output
    assert FoodServiceEstablishment.objects.count() == 12
    # Some kitchens of one parcel share a device (A2).
    assert GreaseControlDevice.objects.filter(establishments__isnull=False).count() > (
        GreaseControlDevice.objects.distinct().count()
    )
    assert Permit.objects.exists()
    manifests = Manifest.objects.all()
    assert manifests.count() > 12
    assert not manifests.exclude(submitted_by_label=GENERATED_BY).exists()
    # Issue 16 / 19: a load is never delivered before the service.
    assert not manifests.filter(delivered_on__lt=F("service_date")).exists()
    assert verify_chain(Manifest).ok
    # The device states are left to the nightly sweep's first run.
    assert not DeviceServiceState.objects.exists()


def test_refuses_a_program_that_is_not_empty():
    _generate(establishments=6, years=1)
    with pytest.raises(CommandError, match="already holds establishments"):
        _generate(establishments=6, years=1)
