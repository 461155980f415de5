"""Set-based writes from value lists (``insert_values``, ``upsert_values``) store the rows the
same writes of model instances store (``insert_rows``, ``upsert_rows``): the manifest ingest writes
its audit entries, flags and device states this way (issue 16)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core import set_sql
from fogcontrol.core.set_sql import insert_rows, insert_values, upsert_rows, upsert_values
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.testing import factories


def _stored(model, ids, skip=()):
    fields = [f.attname for f in model._meta.concrete_fields if f.attname not in skip]
    rows = model.objects.filter(pk__in=ids).order_by("pk").values_list(*fields)
    return [list(row) for row in rows]


def _entries(n: int, device) -> list[dict]:
    content_type = ContentType.objects.get_for_model(device).pk
    return [
        {
            "actor_id": None,
            "actor_label": "bench",
            "action": "manifest.submit",
            "content_type_id": content_type,
            "object_id": str(i),
            "object_repr": f"Manifest {i} — ñ",
            "before": None if i % 2 else {"a": 1},
            "after": {"n": i, "d": "2026-01-02", "x": [1, "2", None], "e": "é\x01"},
            "note": "" if i % 3 else "a note",
        }
        for i in range(n)
    ]


@pytest.mark.django_db
def test_insert_values_stores_what_insert_rows_stores():
    device = factories.DeviceFactory()
    values = _entries(7, device)
    from_instances = [e.pk for e in insert_rows([AuditEntry(**row) for row in values])]
    with CaptureQueriesContext(connection) as captured:
        from_values = insert_values(AuditEntry, values)
    assert len(captured.captured_queries) == 1
    assert len(from_values) == 7 and from_values == sorted(from_values)
    assert _stored(AuditEntry, from_values, skip={"id", "at"}) == _stored(
        AuditEntry, from_instances, skip={"id", "at"}
    )
    stamped = AuditEntry.objects.filter(pk__in=from_values).values_list("at", flat=True)
    assert all(at is not None for at in stamped)  # auto_now_add, a moment a row as an instance takes


@pytest.mark.django_db
@pytest.mark.parametrize("count", [1, 3])
def test_columns_alike_in_every_row_are_stored_as_the_instances_store_them(count):
    """Every column alike (one row; or rows that differ only in ``object_id``): sent once as
    parameters of the statement, not in each row of the JSON, and stored the same."""
    device = factories.DeviceFactory()
    values = [{**_entries(1, device)[0], "object_id": str(i)} for i in range(count)]
    from_instances = [e.pk for e in insert_rows([AuditEntry(**row) for row in values])]
    from_values = insert_values(AuditEntry, values)
    assert _stored(AuditEntry, from_values, skip={"id", "at"}) == _stored(
        AuditEntry, from_instances, skip={"id", "at"}
    )
    assert len(set(AuditEntry.objects.filter(pk__in=from_values).values_list("at", flat=True))) == 1


@pytest.mark.django_db
def test_upsert_values_stores_what_upsert_rows_stores():
    devices = [factories.DeviceFactory() for _ in range(4)]
    today = dt.date(2026, 12, 1)

    def state(device, n):
        return {
            "device_id": device.pk,
            "status": "current",
            "status_on": today,
            "last_service_on": today - dt.timedelta(days=n),
            "last_full_pumpout": None,
            "last_manifest_id": None,
            "next_due": today + dt.timedelta(days=90 - n),
            "frequency_days": 90,
            "frequency_is_default": n % 2 == 0,
            "fill_ratio": Decimal("0.2500") if n else None,
            "fill_ratio_on": today if n else None,
            "recommended_frequency_days": None,
            "recommendation_enough_data": False,
            "immediate_service_required": False,
            "interceptor_plans_required": n == 3,
            "e8_exception": "",
            "refreshed_at": dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        }

    update = [k for k in state(devices[0], 0) if k not in {"device_id", "e8_exception"}]
    first, second = devices[:2], devices[2:]
    upsert_rows(
        [DeviceServiceState(**state(d, n)) for n, d in enumerate(first)],
        unique="device",
        update_fields=update,
    )
    upsert_values(
        DeviceServiceState, [state(d, n) for n, d in enumerate(second)], unique="device", update_fields=update
    )
    skip = {"device_id", "refreshed_at"}
    assert _stored(DeviceServiceState, [d.pk for d in second], skip) == _stored(
        DeviceServiceState, [d.pk for d in first], skip
    )
    # Again, over rows that exist: updated in place, the same on both ways.
    upsert_rows(
        [DeviceServiceState(**state(d, 3 - n)) for n, d in enumerate(first)],
        unique="device",
        update_fields=update,
    )
    upsert_values(
        DeviceServiceState,
        [state(d, 3 - n) for n, d in enumerate(second)],
        unique="device",
        update_fields=update,
    )
    assert _stored(DeviceServiceState, [d.pk for d in second], skip) == _stored(
        DeviceServiceState, [d.pk for d in first], skip
    )
    assert (
        DeviceServiceState.objects.filter(refreshed_at__year=2026, refreshed_at__month=1).count() == 0
    )  # auto_now


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite binds the rows; PostgreSQL sends JSON")
def test_rows_bound_or_sent_as_json_are_stored_alike(monkeypatch):
    """SQLite binds the rows' values (a VALUES list) while the statement's parameters stay within
    its limit, and sends them as JSON above it: one statement either way, the same rows stored,
    the ids in the rows' order."""
    device = factories.DeviceFactory()
    values = _entries(7, device)
    with CaptureQueriesContext(connection) as captured:
        bound = insert_values(AuditEntry, values)
    assert len(captured.captured_queries) == 1 and "FROM (VALUES (" in captured.captured_queries[0]["sql"]
    monkeypatch.setattr(set_sql, "_sqlite_parameters", lambda connection: 10)
    with CaptureQueriesContext(connection) as captured:
        as_json = insert_values(AuditEntry, values)
    assert len(captured.captured_queries) == 1 and "json_each" in captured.captured_queries[0]["sql"]
    assert _stored(AuditEntry, bound, skip={"id", "at"}) == _stored(AuditEntry, as_json, skip={"id", "at"})
    for ids in (bound, as_json):
        objects = AuditEntry.objects.filter(pk__in=ids).order_by("pk").values_list("object_id", flat=True)
        assert list(objects) == [row["object_id"] for row in values]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite binds the rows")
@pytest.mark.django_db
def test_bound_rows_take_a_few_statement_texts_whatever_their_number():
    """Python's sqlite3 keeps each statement text it runs with the values last bound to it: 9 and
    10 rows are one text (padded to 10), 2,100 and 2,560 one (2,560), so a sweep's pages of every
    size keep a few texts, not 128."""
    assert [set_sql._padded(n) for n in (1, 4, 5, 8, 9, 10, 11, 2048, 2049, 2100, 2560, 2561)] == [
        1, 4, 5, 8, 10, 10, 12, 2048, 2560, 2560, 2560, 3072,
    ]  # fmt: skip
    device = factories.DeviceFactory()
    values = _entries(11, device)
    fields = set_sql._writable(AuditEntry)
    texts = {n: set_sql._values_insert(connection, AuditEntry, fields, values[:n])[0] for n in (9, 10, 11)}
    assert texts[9] == texts[10] != texts[11]
