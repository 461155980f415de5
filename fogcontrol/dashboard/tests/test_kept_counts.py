"""Issue 16: the staff home does not count the whole town on each request; it reads the counts the
database keeps (fogcontrol/dashboard/kept.py), and those counts stay true through every kind of write.

No timing here (bench/list_pages.py measures it; docs/performance.md): this keeps the shape that
makes the page flat (no statement of the page reads the town's large tables) and proves the kept
counts equal a full recount after services, bulk writes and plain UPDATEs; that they equal the lists
the figures link to is `test_figures_match_lists.py` (the demo town, written in bulk).
"""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.dashboard import kept
from fogcontrol.dashboard.figures import dashboard_panels
from fogcontrol.dashboard.models import FigureCount
from fogcontrol.dashboard.selectors import registry_tiles
from fogcontrol.dashboard.tasks import sweep_step
from fogcontrol.dashboard.trends import dashboard_trends
from fogcontrol.permits.models import Permit, PermitStatus
from fogcontrol.permits.tests.factories import PermitFactory, fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.rules import devices as device_rules
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.servicing.tests.rows import add_servicing_rows
from fogcontrol.testing.factories import DeviceFactory, EstablishmentFactory

pytestmark = pytest.mark.django_db

# The town's large tables: the home page's statements name none of them (the kept counts stand
# for them), so its time does not grow with the town.
TOWN_TABLES = (
    "registry_foodserviceestablishment",
    "registry_greasecontroldevice",
    "registry_greasecontroldevice_establishments",
    "registry_parcel",
    "servicing_deviceservicestate",
    "servicing_manifest",
    "permits_permit",
)


def _statements(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return [query["sql"] for query in queries.captured_queries]


def _figures(client) -> dict[str, int]:
    response = client.get("/")
    return {figure.key: figure.count for panel in response.context["panels"] for figure in panel.figures}


def _shown(user) -> tuple:
    """What the home shows `user`: the tiles, every figure and the trends (a fresh read)."""
    user.__dict__.pop("_kept_counts", None)
    today = town_today()
    figures = {f.key: f.count for panel in dashboard_panels(user, today) for f in panel.figures}
    trends = {series.key: series.months for series in dashboard_trends(user, today)}
    return registry_tiles(user, today), figures, trends


def _agrees(user, monkeypatch) -> bool:
    """The kept counts say what counting the lists live says (the path for a narrower scope)."""
    kept_view = _shown(user)
    with monkeypatch.context() as patch:
        patch.setattr(kept, "covers", lambda *args: False)
        live_view = _shown(user)
    assert kept_view == live_view
    return kept.recount() == 0


def test_the_home_reads_kept_counts_and_never_the_towns_large_tables(client, town):
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule()
    add_registry_rows(town, 2, bound_user=manager)
    add_servicing_rows(town, 2)
    add_permit_rows(2, manager=manager)
    client.force_login(manager)
    for url, statements in (("/", _statements(client, "/")), ("/api/v1/dashboard/", None)):
        if statements is None:
            with CaptureQueriesContext(connection) as queries:
                assert api_as(manager).get(url).status_code == 200
            statements = [query["sql"] for query in queries.captured_queries]
        reads = [sql for sql in statements if f'"{kept.TABLE}"' in sql]
        assert len(reads) == 1, (url, reads)  # every kept figure in one read
        town_wide = [sql for sql in statements for table in TOWN_TABLES if f'"{table}"' in sql]
        assert not town_wide, (url, town_wide)


@pytest.mark.provision("A2")
@pytest.mark.provision("B6")
@pytest.mark.provision("E1")
def test_the_kept_counts_equal_a_recount_after_every_kind_of_write(town, monkeypatch):
    """Services (a manifest filed, E1-E4), the factories' saves, links added and removed (A2), and
    plain UPDATEs of many rows (as the sweeps write: statuses, permits ending, B6) all move the kept
    counts; each time the home shows what counting the lists live shows, and a recount from the
    tables finds nothing to correct."""
    manager = town.users[Role.FOG_MANAGER]
    assert _agrees(manager, monkeypatch)
    fee_schedule()
    add_registry_rows(town, 3, bound_user=manager)
    add_servicing_rows(town, 2)
    add_permit_rows(2, manager=manager)
    assert _agrees(manager, monkeypatch)

    device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
    submit(town.users[Role.HAULER], device)
    neighbour = EstablishmentFactory(parcel=town.own_fse.parcel)
    device.establishments.add(neighbour)  # shared (A2)
    assert _agrees(manager, monkeypatch)
    device.establishments.remove(neighbour)
    device.a4_flags = ["capacity"]
    device.save()
    assert _agrees(manager, monkeypatch)

    DeviceServiceState.objects.update(status=device_rules.STATUS_OVERDUE)
    GreaseControlDevice.objects.filter(pk=device.pk).update(status=GreaseControlDevice.Status.REMOVED)
    today = town_today()
    PermitFactory(valid_until=today + dt.timedelta(days=20))
    Permit.objects.filter(valid_until__lt=today + dt.timedelta(days=30)).update(
        status=PermitStatus.EXPIRED, valid_until=today - dt.timedelta(days=1)
    )
    assert _agrees(manager, monkeypatch)
    GreaseControlDevice.objects.filter(pk=device.pk).update(status=GreaseControlDevice.Status.ACTIVE)
    device.establishments.clear()
    assert _agrees(manager, monkeypatch)


@pytest.mark.provision("B6")
@pytest.mark.provision("E1")
def test_the_home_shows_a_change_at_once(client, town):
    """A permit ending in 20 days (B6) and a device falling overdue (E1) show on the next request,
    not after the next sweep: the counts move in the writing transaction."""
    manager = town.users[Role.FOG_MANAGER]
    client.force_login(manager)
    before = _figures(client)
    PermitFactory(valid_until=town_today() + dt.timedelta(days=20))
    device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
    DeviceServiceState.objects.create(
        device=device, status=device_rules.STATUS_OVERDUE, status_on=town_today(), frequency_days=90
    )
    after = _figures(client)
    assert after["permits_expiring_30"] == before["permits_expiring_30"] + 1
    assert after["services_overdue"] == before["services_overdue"] + 1


def test_the_nightly_step_puts_a_wrong_count_right_and_says_so(client, town):
    manager = town.users[Role.FOG_MANAGER]
    device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
    DeviceServiceState.objects.create(
        device=device, status=device_rules.STATUS_OVERDUE, status_on=town_today(), frequency_days=90
    )
    client.force_login(manager)
    devices = client.get("/").context["counts"]["devices"]
    FigureCount.objects.filter(figure=f"device:{GreaseControlDevice.Status.ACTIVE}").update(n=999)
    assert client.get("/").context["counts"]["devices"] == 999
    assert sweep_step(on=town_today(), acting_user="figures.nightly") == {"counts_corrected": 1}
    assert client.get("/").context["counts"]["devices"] == devices
    assert _figures(client)["services_overdue"] == 1
    assert sweep_step(on=town_today(), acting_user="figures.nightly") == {"counts_corrected": 0}
