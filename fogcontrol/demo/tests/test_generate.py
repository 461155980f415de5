"""`fogcontrol bench generate`: a synthetic program at scale, deterministic, on a chain that verifies."""

import datetime as dt
import hashlib
import math
import random
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from fogcontrol.core.records import verify_chain
from fogcontrol.demo import generate as generate_module
from fogcontrol.demo import town as town_module
from fogcontrol.demo.generate import GENERATED_BY, generate
from fogcontrol.demo.maker import Maker
from fogcontrol.demo.town import DemoTown, _haulers, _profile
from fogcontrol.demo.users import create_demo_users
from fogcontrol.permits import demo as permits_demo
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


# Columns that differ from one test process to the next whatever the generator does: a password's
# salt, the time the migrations ran, and the keyed hashes of the chains (keyed by the process's
# settings; the columns they cover are compared).
UNSTABLE = {
    "accounts.User": {"password"},
    "program.RulesetVersion": {"created_at"},
    "audit.AuditEntry": {"before"},  # the ruleset version's, with its created_at
    "servicing.Manifest": {"previous_hash", "record_hash"},
    "permits.ApplicationSubmission": {"previous_hash", "record_hash"},
    "core.RecordChainHead": {"last_hash"},
    "core.RecordChainSeal": {"sealed_hash", "seal"},
    # Derived counts (kept by the triggers, one row a figure and bucket): a row's id is the order
    # in which the triggers first met its bucket, which chunks change; the counts do not.
    "dashboard.FigureCount": {"id"},
}
ORDER = {"dashboard.FigureCount": ("figure", "bucket")}


def _table_digests() -> dict[str, str]:
    """A digest of each table that holds rows (many-to-many links included), every column but
    ``UNSTABLE``, rows in primary-key order: the ids, the links and the values generated."""
    digests = {}
    for model in sorted(apps.get_models(include_auto_created=True), key=lambda model: model._meta.label):
        skip = UNSTABLE.get(model._meta.label, set())
        columns = [field.attname for field in model._meta.concrete_fields if field.attname not in skip]
        digest, rows = hashlib.sha256(), 0
        rows_in_order = model.objects.order_by(*ORDER.get(model._meta.label, ("pk",)))
        for row in rows_in_order.values_list(*columns).iterator(chunk_size=2000):
            digest.update(repr(row).encode())
            rows += 1
        if rows:
            digests[model._meta.label] = f"{rows} {digest.hexdigest()[:16]}"
    return digests


# Taken with the generator before it wrote in chunks (commit f972547, one write a table), on SQLite:
# 40 establishments, seed 3, one year, on 2026-12-01 (rows, digest). The tables it writes; not
# those the migrations fill.
UNCHUNKED = {
    "accounts.User": "8 43a3f74a29b9f7d6",
    "audit.AuditEntry": "286 47cddb485866a85e",
    "core.RecordChainHead": "2 31da1549a064a26a",
    "core.RecordChainSeal": "2 50f2383d87d39691",
    # 54 rows at f972547; three more since the kept totals of the FSE, device and permit lists
    # (fse_total, device_total, permit_total: core/kept_totals.py). Taken unchunked (chunks of 10**9)
    # on that code: the same digest as the chunked run.
    "dashboard.FigureCount": "57 f54c962d8bb5d433",
    "messaging.Message": "3 d63a9d3f64e0d1e4",
    "otp_totp.TOTPDevice": "5 819186ec250d71c8",
    "permits.ApplicationFixture": "42 aae83b3c9479c949",
    "permits.ApplicationMessage": "1 1c30defd7bc23d3c",
    "permits.ApplicationSubmission": "6 80094c331ef8bb03",
    "permits.FeeCharge": "6 3822d157710c4349",
    "permits.FeeSchedule": "1 5309dbe732c41a73",
    "permits.FeeScheduleLine": "8 1666e1da14fe7af5",
    "permits.Permit": "31 7f41414282a2cd67",
    "permits.PermitApplication": "7 134fe2959bcb3e37",
    "permits.PermitEvent": "25 2c7f486fc284d84a",
    "permits.PermitNotice": "2 00ba1fa7fd7a4d75",
    "permits.PermitVersion": "31 4468152adc53ccbf",
    "permits.RemodelNotice": "1 868a575176bedf25",
    "program.Holiday": "156 42d11dff9c230b31",
    "program.TownProfile": "1 7980ba09426ee710",
    "registry.FoodServiceEstablishment": "40 a9191bd63d346dfb",
    "registry.FoodServiceEstablishment_haulers": "40 c8bffd9209f43485",
    "registry.FoodServiceEstablishment_users": "1 b1b8291976f2e939",
    "registry.GreaseControlDevice": "38 ac9fe3bdb0cd7c71",
    "registry.GreaseControlDevice_establishments": "41 e1b8abd3146d5c7f",
    "registry.HaulerCompany": "4 c741fcc6e1987d05",
    "registry.HaulerCompany_users": "1 6042fa27eec211e8",
    "registry.HaulerVehicle": "9 f9747e48ad80975a",
    "registry.Parcel": "37 72f2aa5d813a87f7",
    "registry.Parcel_owner_users": "1 b73a3f3a5dd6b3c4",
    "registry.Party": "69 efbeab5ab1a08a51",
    "registry.ReceivingFacility": "3 27050dd313494bd2",
    "registry.SharedDevice": "1 28cb03b06c288e88",
    "servicing.Manifest": "277 89b37ae14a7811cf",
}


def test_chunks_change_no_row_id_or_audit_entry(monkeypatch):
    """Issue 16: the registry, the permits and the manifests' devices are taken a few at a time, so
    that memory stays flat in N; the draws, the rows, their ids and the audit trail stay those of
    one write. Chunks of a few rows here, so that a town of 40 makes many."""
    if connection.vendor != "sqlite":
        pytest.skip("the digests are SQLite's: PostgreSQL's sequences are not rolled back between tests")
    monkeypatch.setattr(town_module, "CHUNK", 7)
    monkeypatch.setattr(permits_demo, "CHUNK", 5)
    monkeypatch.setattr(generate_module, "DEVICES_A_READ", 6)
    with freeze_time("2026-12-01 20:00:00"), transaction.atomic():
        generate(establishments=40, seed=3, years=1)
        digests = _table_digests()
        transaction.set_rollback(True)
    assert {label: digests.get(label) for label in UNCHUNKED} == UNCHUNKED
