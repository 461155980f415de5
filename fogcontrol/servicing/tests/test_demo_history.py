"""The demo town's servicing history (issue 19): as rich as when every manifest went through
``manifest_submit``, written in bulk, on a keyed chain that verifies, in a number of statements
that grows with the records and not fifty times faster."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from fogcontrol.audit.models import AuditEntry
from fogcontrol.demo.run import seed_demo
from fogcontrol.demo.seeders import seeder_rng
from fogcontrol.servicing import demo
from fogcontrol.servicing.models import (
    DeviceServiceState,
    FrequencyChange,
    Manifest,
    ManifestFlag,
    ServiceRequirement,
    SludgeReading,
)

pytestmark = pytest.mark.django_db

SERVICING = "fogcontrol.servicing.demo.seed"


def _town(establishments: int):
    return seed_demo(establishments=establishments, seed=7, seeders=[]).town


@pytest.mark.provision("F7")
def test_f7_the_seeded_demo_history_is_rich_and_its_chain_verifies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    result = seed_demo(establishments=40, seed=7)
    assert (SERVICING, True) in [tuple(row[:2]) for row in result.seeders]
    manifests = Manifest.objects.count()
    assert manifests > 200 and Manifest.objects.values("device").distinct().count() >= 25
    # The review flags, requirements and states the rules make of a lived-in history (E1, E3, E6, E7, F7).
    codes = set(ManifestFlag.objects.values_list("code", flat=True))
    assert {"over_limit", "serviced_late", "baffles_not_cleaned", "vehicle_conflict"} <= codes
    kinds = set(ServiceRequirement.objects.values_list("kind", "status"))
    assert {("immediate_service", "met"), ("frequency_review", "open")} <= kinds
    assert SludgeReading.objects.exists()
    statuses = set(DeviceServiceState.objects.values_list("status", flat=True))
    assert {"compliant", "due_soon", "overdue"} <= statuses
    assert FrequencyChange.objects.count() == 1  # the demo FSE's B7 change, through the service
    # One audit entry per record and change, under the services' action names.
    audit = lambda action: AuditEntry.objects.filter(action=action, actor_label="seed_demo").count()  # noqa: E731
    assert audit("manifest.submit") == manifests
    assert audit("service_requirement.open") == ServiceRequirement.objects.count()
    assert audit("service_requirement.close") == ServiceRequirement.objects.exclude(status="open").count()

    out = StringIO()
    call_command("verify_records", stdout=out)  # raises CommandError on any broken chain
    assert f"servicing_manifest: {manifests} record(s), 0 purged: intact." in out.getvalue()
    assert "All records verify." in out.getvalue()


class _Undo(Exception):
    pass


def test_the_servicing_seeder_writes_about_two_statements_a_manifest():
    # A ceiling, not an exact count: each manifest takes its INSERT and the chain head's one step
    # forward (the triggers allow no fewer); each device a look-up or two; the rest is batched.
    # Through manifest_submit it took about fifty queries a manifest.
    for establishments in (40, 120):
        try:
            with transaction.atomic():
                town = _town(establishments)
                with CaptureQueriesContext(connection) as queries:
                    demo.seed(rng=seeder_rng(7, SERVICING), town=town, today=town.today)
                manifests, devices = Manifest.objects.count(), len(town.devices)
                assert manifests > 3 * establishments
                assert len(queries) <= 2 * manifests + 3 * devices + 150, (len(queries), manifests, devices)
                raise _Undo
        except _Undo:
            pass
