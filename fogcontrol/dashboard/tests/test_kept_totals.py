"""Issue 16: the whole-table lists' pager does not count the table for staff; its total is a family
of the kept counts (fogcontrol/dashboard/kept.py), summed, through core/kept_totals.py: the
manifests by month, the establishments', devices' and permits' totals.

On PostgreSQL `SELECT COUNT(*)` reads every manifest (53 ms a request at 294,262 of them); the kept
counts move in the transaction of every write, so the total shown stays exact. No timing here
(docs/performance.md, "The pager's count from kept counts"): this proves the pager's statements
never count the table for staff, that the total equals the live count after every kind of write,
and that a filtered list, a hauler's and an FSE's lists are still counted live.
"""

import pytest
from django.db import connection, transaction
from django.db.models import Count, F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from conftest import api_as
from fogcontrol.core.kept_totals import KeptTotalPaginator, kept_total, whole_table
from fogcontrol.core.record_chunk import record_append_chunk
from fogcontrol.core.roles import Role
from fogcontrol.dashboard import kept
from fogcontrol.dashboard.models import FigureCount
from fogcontrol.dashboard.tests.test_kept_counts_bulk import _parcels
from fogcontrol.permits.models import Permit, PermitStatus
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, Parcel
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.services import manifest_purge
from fogcontrol.servicing.tests.helpers import days_ago, submit, town_approves_destruction
from fogcontrol.servicing.tests.rows import add_servicing_rows
from fogcontrol.servicing.tests.test_records_chunk import _unsaved
from fogcontrol.testing.factories import DeviceFactory

pytestmark = pytest.mark.django_db

TABLE = "servicing_manifest"
PAGE, API = "/servicing/manifests/", "/api/v1/manifests/"


def _shown(user, url: str) -> tuple[int, list[str]]:
    """The total the list shows `user` (the API's `count`, the page's pager) and its statements."""
    if url.startswith("/api/"):
        client = api_as(user)
    else:
        client = Client()
        client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    statements = [query["sql"] for query in queries.captured_queries]
    if url.startswith("/api/"):
        return response.json()["count"], statements
    return response.context["page"].paginator.count, statements


def _table_counts(statements: list[str], table: str = TABLE) -> list[str]:
    """The pager's counts of `table` (a page's own SELECT may hold a COUNT of related rows)."""
    return [sql for sql in statements if sql.startswith("SELECT COUNT(") and f'"{table}"' in sql]


def _staff_sees_the_kept_total(manager) -> None:
    """Both lists show the live count, and none of their statements counts the manifests."""
    live = Manifest.objects.count()
    for url in (PAGE, API):
        total, statements = _shown(manager, url)
        assert total == live, url
        assert not _table_counts(statements), (url, _table_counts(statements))
        assert len([sql for sql in statements if f'"{kept.TABLE}"' in sql]) == 1, url


def test_the_staff_lists_total_is_kept_and_exact_after_every_kind_of_write(town):
    """Services (a manifest filed, one purged: a DELETE, F5), a chunk appended in one INSERT (the
    imports' and the generator's path), in the transaction that reads the list."""
    manager, hauler = town.users[Role.FOG_MANAGER], town.users[Role.HAULER]
    add_servicing_rows(town, 2)  # (no manifest at all: no count kept, the table is counted)
    _staff_sees_the_kept_total(manager)
    with transaction.atomic():
        record_append_chunk(
            [_unsaved(town.own_device, f"KEPT-{n}", 400 + n) for n in range(4)], acting_user="seed_demo"
        )
        _staff_sees_the_kept_total(manager)
        device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)  # no hold
        old = submit(hauler, device, serviced_at=days_ago(900))
        _staff_sees_the_kept_total(manager)
        town_approves_destruction(manager)
        manifest_purge(manifest=old, acting_user=manager, reason="F5 retention ended")
        _staff_sees_the_kept_total(manager)
    assert kept.recount() == 0


def test_a_filtered_list_and_the_outside_users_lists_are_counted_live(town):
    manager = town.users[Role.FOG_MANAGER]
    add_servicing_rows(town, 2)
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(3))
    own = Manifest.objects.filter(device=town.own_device).count()
    assert 0 < own < Manifest.objects.count()
    for url in (PAGE, API):
        total, statements = _shown(manager, f"{url}?device={town.own_device.pk}")
        assert total == own, url
        assert len(_table_counts(statements)) == 1, url
    for role in (Role.HAULER, Role.FSE):
        user = town.users[role]
        live = Manifest.objects.visible_to(user).count()
        for url in (PAGE, API):
            total, statements = _shown(user, url)
            assert total == live, (role, url)
            assert len(_table_counts(statements)) == 1, (role, url)


def test_only_a_plain_whole_table_is_taken_for_the_kept_total(town):
    manager = town.users[Role.FOG_MANAGER]
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(3))
    manifests = Manifest.objects.all()
    assert whole_table(manifests.select_related("device").annotate(n=F("gallons_removed")).order_by("-pk"))
    assert whole_table(manifests.order_by("flags__review"))  # an order is not carried into a count
    for not_whole in (
        manifests.filter(withdrawn=False),
        manifests.none(),
        manifests.distinct(),
        manifests.annotate(flags_n=Count("flags")),  # GROUP BY
        manifests.annotate(review=F("flags__review")),  # a join that repeats rows
        manifests[:5],
        manifests.union(manifests),
        manifests.extra(tables=["servicing_manifestflag"]),  # noqa: S610 (constant, a test of the check)
        Manifest.objects.visible_to(town.users[Role.HAULER]),
    ):
        assert not whole_table(not_whole), str(not_whole.query)
        assert kept_total(not_whole, manager) is None
    assert kept_total(manifests, manager) == 1
    for outside in (town.users[Role.HAULER], town.users[Role.FSE], None):
        assert kept_total(manifests, outside) is None
    # A paginator given no user counts, as Django's does.
    assert KeptTotalPaginator(manifests.order_by("pk"), 10).count == 1


# The registry's and the permits' lists over tables of one row an establishment (100,000 in a region).
REGISTRY_LISTS = {
    "/registry/establishments/": FoodServiceEstablishment,
    "/api/v1/establishments/": FoodServiceEstablishment,
    "/registry/devices/": GreaseControlDevice,
    "/api/v1/devices/": GreaseControlDevice,
    "/permits/list/": Permit,
    "/api/v1/permits/": Permit,
}


def _registry_lists_show_the_kept_totals(manager) -> None:
    for url, model in REGISTRY_LISTS.items():
        total, statements = _shown(manager, url)
        assert total == model.objects.count(), url
        assert not _table_counts(statements, model._meta.db_table), url


@pytest.mark.provision("B6")
def test_the_registry_and_permit_lists_totals_are_kept_and_exact(town):
    """Factories' saves, services, and plain UPDATEs and a DELETE of many rows (a sweep's statuses,
    permits ending: B6) in the transaction that reads the lists; a filter is counted live."""
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule()
    add_registry_rows(town, 2, bound_user=manager)
    add_permit_rows(2, manager=manager)
    _registry_lists_show_the_kept_totals(manager)
    with transaction.atomic():
        GreaseControlDevice.objects.update(status=GreaseControlDevice.Status.REMOVED)
        Permit.objects.update(status=PermitStatus.EXPIRED)
        FoodServiceEstablishment.objects.filter(pk=town.own_fse.pk).update(status="closed")
        added = Parcel.objects.bulk_create(_parcels(3))
        _registry_lists_show_the_kept_totals(manager)
        Parcel.objects.filter(pk__in=[parcel.pk for parcel in added[:2]]).delete()
        _registry_lists_show_the_kept_totals(manager)
    total, statements = _shown(manager, "/api/v1/permits/?status=expired")
    assert total == Permit.objects.filter(status=PermitStatus.EXPIRED).count()
    assert len(_table_counts(statements, "permits_permit")) == 1
    assert kept.recount() == 0


def test_a_total_not_kept_yet_is_counted(town):
    """Code deployed before its `migrate` (which installs the triggers and recounts): no row kept
    for the total yet, so the pager counts the table rather than show none."""
    manager = town.users[Role.FOG_MANAGER]
    FigureCount.objects.filter(figure=kept.FSE_TOTAL).delete()
    total, statements = _shown(manager, "/api/v1/establishments/")
    assert total == FoodServiceEstablishment.objects.count() > 0
    assert len(_table_counts(statements, "registry_foodserviceestablishment")) == 1
