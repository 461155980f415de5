"""Appending a chunk of copies of record in a fixed number of statements, triggers kept.

The triggers (``record_triggers``) let a row in only at the head of its chain and the head move
only one record forward, onto a row that exists. ``record_append_chunk`` sends the whole chunk as
one statement (it replaced ``record_append_bulk``, two statements a row: the insert, the head's
step): the rows go, in order, through a per-connection helper that inserts each row and
moves the head onto it before the next, so every trigger fires for every row exactly as it does
for ``record_append``:

- SQLite: an INSERT into a TEMP view whose ``INSTEAD OF`` trigger does the row's insert and the
  head's step (a TEMP trigger may write to the main database's tables);
- PostgreSQL: a ``pg_temp`` function looping over the rows (``jsonb_populate_record``).

The helper is (re)created at the start of each chunk (``IF NOT EXISTS`` / ``OR REPLACE``): a test's
rolled-back transaction drops it, and its name carries a digest of the column list, so a schema
change never meets a stale one. Statements per chunk: the chain's lock (head and seal), the
helper, the insert, the ids read back, the seal: five to seven, whatever the chunk's size.
"""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
import json
import uuid
from collections.abc import Sequence

from django.db import connections, router
from django.utils import timezone

from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.models import CopyOfRecord, RecordChainHead
from fogcontrol.core.records import _locked_chain, _stamp, seal_chain
from fogcontrol.core.set_sql import db_preparers, pre_save_values, prepared_column


def _json_default(value):
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    raise TypeError(f"Cannot send {type(value).__name__} in a chunk of copies of record.")


def _helper_name(table: str, columns: list[str]) -> str:
    digest = hashlib.sha256("\x00".join(columns).encode()).hexdigest()[:10]
    return f"fog_append_{table}_{digest}"


def _sqlite_statements(table: str, columns: list[str], quote) -> tuple[list[str], str]:
    name = _helper_name(table, columns)
    head = RecordChainHead._meta.db_table
    sequence_at, hash_at = columns.index("record_sequence"), columns.index("record_hash")
    values = ", ".join(f"json_extract(NEW.payload, '$[{i}]')" for i in range(len(columns)))
    setup = [
        f'CREATE TEMP VIEW IF NOT EXISTS "{name}" AS SELECT NULL AS payload',
        f'CREATE TEMP TRIGGER IF NOT EXISTS "{name}_row" INSTEAD OF INSERT ON "{name}" BEGIN '
        f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)}) VALUES ({values}); "  # nosec B608: SQL names come from model metadata
        f"UPDATE {quote(head)} SET {quote('last_sequence')} = json_extract(NEW.payload, '$[{sequence_at}]'), "  # nosec B608: SQL names come from model metadata
        f"{quote('last_hash')} = json_extract(NEW.payload, '$[{hash_at}]') "
        f"WHERE {quote('chain')} = '{table}'; END",
    ]
    insert = f'INSERT INTO temp."{name}" (payload) SELECT value FROM json_each(%s) ORDER BY key'  # nosec B608: SQL names come from model metadata, values are parameters
    return setup, insert


def _pg_statements(table: str, columns: list[str], quote) -> tuple[list[str], str]:
    name = _helper_name(table, columns)
    head = RecordChainHead._meta.db_table
    column_list = ", ".join(quote(c) for c in columns)
    setup = [
        f"""
CREATE OR REPLACE FUNCTION pg_temp."{name}"(rows jsonb) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE r jsonb; n integer := 0;
BEGIN
  FOR r IN SELECT e.value FROM jsonb_array_elements(rows) WITH ORDINALITY AS e(value, i) ORDER BY e.i LOOP
    INSERT INTO {quote(table)} ({column_list})
      SELECT {column_list} FROM jsonb_populate_record(NULL::{quote(table)}, r);
    UPDATE {quote(head)} SET last_sequence = (r->>'record_sequence')::bigint, last_hash = r->>'record_hash'
      WHERE chain = '{table}';
    n := n + 1;
  END LOOP;
  RETURN n;
END
$$"""  # nosec B608: SQL names come from model metadata, values are parameters
    ]
    return setup, f'SELECT pg_temp."{name}"(%s::jsonb)'


def _sqlite_rows(fields, values: list[list], connection) -> list[tuple]:
    """The rows' values prepared as Django binds them for SQLite, a column at a time
    (``set_sql.prepared_column``: most columns are taken as they are)."""
    preparers = db_preparers(fields, connection)
    columns = [
        prepared_column(prepare, list(column))
        for prepare, column in zip(preparers, zip(*values, strict=True), strict=True)
    ]
    return list(zip(*columns, strict=True))  # tuples: JSON writes them as the lists they were


def record_append_chunk(instances: Sequence[CopyOfRecord], *, acting_user) -> list[CopyOfRecord]:
    """Append ``instances`` (one model, in order) at the end of their chain as ``record_append``
    would one at a time (same fields, places, keyed hashes, head and seal), in a fixed number of
    statements. Call inside a transaction. Returns them with their ids."""
    instances = list(instances)
    if not instances:
        return instances
    model = type(instances[0])
    if any(type(instance) is not model for instance in instances):
        raise TypeError("record_append_chunk appends rows of one model at a time.")
    ring, head, seal = _locked_chain(model)
    connection = connections[router.db_for_write(model)]
    meta = model._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    columns = [field.column for field in fields]
    received_at = timezone.now().astimezone(dt.UTC)
    submitted_by, label = person(acting_user), actor_label_for(acting_user)[:150]
    first, sequence, previous = head.last_sequence + 1, head.last_sequence, head.last_hash
    values = []
    values_of = pre_save_values(fields, add=True)
    for instance in instances:
        sequence += 1
        previous = _stamp(
            instance, ring=ring, received_at=received_at, submitted_by=submitted_by, label=label,
            sequence=sequence, previous=previous,
        )  # fmt: skip
        values.append(values_of(instance))
    if connection.vendor == "sqlite":
        setup, insert = _sqlite_statements(meta.db_table, columns, connection.ops.quote_name)
        rows = _sqlite_rows(fields, values, connection)
    elif connection.vendor == "postgresql":
        setup, insert = _pg_statements(meta.db_table, columns, connection.ops.quote_name)
        rows = [dict(zip(columns, row, strict=True)) for row in values]
    else:
        raise NotImplementedError(f"No chunked append for the {connection.vendor} database.")
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for statement in setup:
            cursor.execute(statement)
        cursor.execute(insert, [json.dumps(rows, default=_json_default)])
        cursor.execute(
            f"SELECT {quote('record_sequence')}, {quote(meta.pk.column)} FROM {quote(meta.db_table)} "  # nosec B608: SQL names come from model metadata, values are parameters
            f"WHERE {quote('record_sequence')} >= %s AND {quote('record_sequence')} <= %s",
            [first, sequence],
        )
        ids = dict(cursor.fetchall())
    for instance in instances:
        setattr(instance, meta.pk.attname, ids[instance.record_sequence])
        instance._state.adding = False
        instance._state.db = connection.alias
    head.last_sequence, head.last_hash = sequence, previous
    seal_chain(seal, ring=ring, sequence=sequence, last_hash=previous)
    seal.save(update_fields=["sealed_sequence", "sealed_hash", "key_epoch", "seal"])
    return instances
