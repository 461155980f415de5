"""`fogcontrol bench generate`: a synthetic program at scale, deterministic, on a chain that verifies."""

import datetime as dt
import math
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from fogcontrol.core.records import verify_chain
from fogcontrol.demo import generate as generate_module
from fogcontrol.demo.generate import GENERATED_BY, generate
from fogcontrol.demo.maker import Maker
from fogcontrol.demo.town import DemoTown, _haulers, _profile
from fogcontrol.demo.users import create_demo_users
from fogcontrol.permits.models import Permit
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.servicing.models import DeviceServiceState, Manifest
from fogcontrol.testing.queries import counted

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


def _manifest_statements(establishments: int) -> tuple[int, int]:
    """(manifests written, statements sent while writing them) for a program of ``establishments``,
    generated in a transaction rolled back."""
    marks = {}

    def progress(message: str) -> None:
        if message.startswith("permits"):
            marks["start"] = len(captured.captured_queries)

    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        made = generate(establishments=establishments, seed=1, years=1, progress=progress)
        transaction.set_rollback(True)
    return made.manifests, len(counted(captured.captured_queries[marks["start"] :]))


def test_the_manifests_take_statements_by_the_chunk_not_by_the_row(monkeypatch):
    """Issue 16: the chain is appended a chunk at a time (``record_append_chunk``): twice the
    establishments add chunks of a fixed number of statements, not statements a manifest."""
    monkeypatch.setattr(generate_module, "CHUNK", 10)
    few, few_statements = _manifest_statements(8)
    many, many_statements = _manifest_statements(16)
    chunks = math.ceil(few / 10), math.ceil(many / 10)
    assert chunks[1] > chunks[0] >= 2
    per_chunk = {"sqlite": 7, "postgresql": 6}[connection.vendor]
    # The old append (record_append_bulk) sent two statements a manifest: 2 * (many - few) more.
    assert many_statements - few_statements == per_chunk * (chunks[1] - chunks[0])


def _fleet(establishments: int) -> tuple[int, int, int]:
    """(haulers, trucks, the busiest hauler's trucks) the town builds for ``establishments``."""
    users = create_demo_users()
    today = dt.date(2026, 12, 1)
    town = DemoTown(seed=1, today=today, profile=_profile(users), users=users)
    _haulers(Maker(random.Random(1), today), town, establishments)
    busiest = max(
        sum(1 for truck in town.vehicles if truck.hauler_id == hauler.pk) for hauler in town.haulers
    )
    return len(town.haulers), len(town.vehicles), busiest


def test_a_large_program_has_a_fleet_to_match_and_the_demo_town_keeps_its_own():
    """Issue 16: at scale the loads are carried by registered trucks, not "unlisted" ones."""
    with transaction.atomic():
        small = _fleet(300)
        transaction.set_rollback(True)
    with transaction.atomic():
        large = _fleet(10_000)
        transaction.set_rollback(True)
    assert 4 <= small[0] <= 6 and small[1] <= 3 * small[0]
    assert large[0] == 20  # one hauler a 500 FSEs
    assert large[2] > 3  # the largest hauler runs more trucks than a small town's
