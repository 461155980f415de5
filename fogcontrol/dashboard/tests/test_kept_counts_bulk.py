"""Issue 16: a bulk load moves the kept counts once a statement, not once a row.

A count row updated once for every row of a 100,000-row load, inside one transaction, leaves a row
version for each update that the next must step over (PostgreSQL): the load grows with the square
of its size. The counts are therefore moved by one trigger a statement over its rows. No timing
here (bench/generate.py measures the 100,000-establishment load; docs/performance.md): this counts
the count table's row writes in the transaction, which is what grew.
"""

import pytest
from django.db import connection, transaction

from fogcontrol.dashboard import kept
from fogcontrol.dashboard.models import FigureCount
from fogcontrol.registry.models import GreaseControlDevice, Parcel
from fogcontrol.testing.factories import DeviceFactory, PartyFactory

pytestmark = pytest.mark.django_db

LOAD = 300


def _count_table_writes() -> int:
    """Rows the current transaction has inserted into and updated in the count table (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = %s", [kept.TABLE]
        )
        row = cursor.fetchone()
    return row[0] if row else 0


def _parcels(count: int) -> list[Parcel]:
    owner = PartyFactory()
    return [
        Parcel(apn=f"900-{n // 1000:02d}-{n % 1000:03d}", situs_address=f"{n} Bulk Way", owner=owner)
        for n in range(count)
    ]


def test_a_bulk_insert_of_many_rows_moves_each_kept_count_once():
    before = FigureCount.objects.filter(figure="parcel").values_list("n", flat=True).first() or 0
    with transaction.atomic():
        writes_before = _count_table_writes() if connection.vendor == "postgresql" else 0
        Parcel.objects.bulk_create(_parcels(LOAD))
        if connection.vendor == "postgresql":
            # One upsert of the one count the statement moved ('parcel'), not one a row.
            assert _count_table_writes() - writes_before == 1
    assert FigureCount.objects.get(figure="parcel").n == before + LOAD
    assert kept.recount() == 0


def test_a_bulk_update_moves_only_the_counts_whose_rows_moved():
    devices = DeviceFactory.create_batch(5)
    ids = [device.pk for device in devices]
    with transaction.atomic():
        writes_before = _count_table_writes() if connection.vendor == "postgresql" else 0
        # Columns no count reads: the statement's -1s and +1s cancel, nothing is written.
        GreaseControlDevice.objects.filter(pk__in=ids).update(access_notes="checked")
        if connection.vendor == "postgresql":
            assert _count_table_writes() == writes_before
        GreaseControlDevice.objects.filter(pk__in=ids).update(status="removed")
    assert kept.recount() == 0
