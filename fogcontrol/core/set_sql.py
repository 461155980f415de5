"""Set-based writes in one statement, whatever the number of rows (issue 16).

Django's ``bulk_create`` and ``bulk_update`` split a set into batches of SQLite's 999 parameters
(about 60 rows of a 15-field model), so the statements a chunk takes grow with it. These helpers
send the whole set as one JSON parameter and let the database unpack it:

- SQLite: ``json_each`` and ``json_extract`` over a list of rows (each a list of values prepared
  as Django would bind them);
- PostgreSQL: ``jsonb_populate_recordset`` over a list of objects keyed by column, which casts
  each value through the column's own type.

``insert_rows`` (sets each instance's id), ``update_rows`` (by id) and ``upsert_rows`` (INSERT …
ON CONFLICT DO UPDATE on a unique column) each take one statement. Defaults and ``auto_now`` are
applied as ``bulk_create`` applies them (``pre_save``). ``insert_values`` and ``upsert_values`` do
the same from value lists (a mapping of field names to values a row) without building a model
instance a row, for sets that are written and never used as instances (audit entries, flags,
device states): the stored rows are the same. Their columns that are the same in every row (the
moment of the write, a constant default, a value given alike in every row) are each one parameter
of the statement rather than a value in every row of the JSON. On SQLite their rows are not sent
as JSON but bound, each value a parameter of a VALUES list (``_bound_rows_insert``: no JSON to
parse and no ``json_extract`` a value), while the statement's parameters stay within SQLite's
limit; a larger set goes as JSON, still in one statement. ``json_values`` sends a long ``__in``
list as one JSON parameter. Only SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import decimal
import functools
import itertools
import json
import sqlite3
import uuid
from collections.abc import Sequence
from operator import attrgetter

from django.db import connections, models, router
from django.db.models.expressions import RawSQL
from django.utils import timezone


def _default(value):
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    raise TypeError(f"Cannot send {type(value).__name__} in a set-based write.")


# Values whose preparation depends on nothing but the value and the field: prepared once a set.
# (Decimal too, by its text: 3.5 and 3.50 are equal but are sent as written.)
_MEMO_TYPES = frozenset({str, int, bool, type(None), dt.date, dt.datetime, uuid.UUID})


def db_preparers(fields, connection) -> list:
    """For each field, a function giving what ``field.get_db_prep_save`` gives, remembering it for
    the repeated plain values of a set (statuses, ids, flags, dates): Django's preparation is a few
    calls deep, and a chunk sends tens of thousands of values."""

    def preparer(field):
        memo, prepare = {}, field.get_db_prep_save
        same = _prepared_as_given(field) if connection.vendor == "sqlite" else frozenset()

        def prepared(value):
            kind = value.__class__
            if kind in same:
                return value
            if kind is decimal.Decimal:
                key = (kind, str(value))  # 3.5 and 3.50 are equal, and hash alike, but are sent as written
            elif kind not in _MEMO_TYPES:
                return prepare(value, connection)
            else:
                key = (kind, value)
            try:
                return memo[key]
            except KeyError:
                memo[key] = result = prepare(value, connection)
                return result

        prepared.same = same  # the types it returns as given (``prepared_column``)
        return prepared

    return [preparer(field) for field in fields]


# Django's own fields whose preparation for SQLite returns a value of these exact types as it is
# (text is text, an integer an integer, a boolean a boolean): sent without the preparation's
# calls. A subclass may prepare differently, so only these classes, and a relation by its
# target's. (PostgreSQL's wraps integers in typed adapters: not there.)
_SAME_TEXT = (models.CharField, models.TextField, models.EmailField, models.SlugField, models.URLField)
_SAME_INT = (
    models.AutoField,
    models.BigAutoField,
    models.IntegerField,
    models.BigIntegerField,
    models.PositiveBigIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.SmallIntegerField,
)


def _prepared_as_given(field) -> frozenset:
    """The types ``field``'s preparation for SQLite returns as given: its own, and None (NULL),
    which every field prepares as None (a nullable relation of a set is often None)."""
    while type(field) is models.ForeignKey or type(field) is models.OneToOneField:
        field = field.target_field
    if type(field) in _SAME_TEXT:
        return frozenset({str, type(None)})
    if type(field) in _SAME_INT:
        return frozenset({int, type(None)})
    if type(field) is models.BooleanField:
        return frozenset({bool, type(None)})
    return frozenset()


def pre_save_values(fields, *, add: bool):
    """A function giving ``[field.pre_save(obj, add) for field in fields]``: a plain attribute read
    for the fields that do not override ``pre_save`` (most), the field's own for the rest
    (``auto_now``, files)."""
    plain_pre_save = models.Field.pre_save
    getters = [
        attrgetter(field.attname)
        if type(field).pre_save is plain_pre_save
        else functools.partial(_pre_save, field, add=add)
        for field in fields
    ]
    return lambda obj: [get(obj) for get in getters]


def _pre_save(field, obj, *, add: bool):
    return field.pre_save(obj, add)


def _payload(connection, fields, objs, *, add: bool, with_pk: bool = False) -> str:
    sqlite = connection.vendor == "sqlite"
    preparers = db_preparers(fields, connection) if sqlite else None
    values_of = pre_save_values(fields, add=add)
    rows = []
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="a set-based write")
        values = values_of(obj)
        if sqlite:
            values = [prepare(v) for prepare, v in zip(preparers, values, strict=True)]
            row = [obj.pk, *values] if with_pk else values
        else:
            row = {field.column: v for field, v in zip(fields, values, strict=True)}
            if with_pk:
                row[obj._meta.pk.column] = obj.pk
        rows.append(row)
    return json.dumps(rows, default=_default)


def _source(connection, model, fields, *, with_pk: bool = False) -> tuple[str, list[str]]:
    """FROM clause over the JSON parameter, and the expression for each field (and the pk first)."""
    quote = connection.ops.quote_name
    if connection.vendor == "sqlite":
        offset = 1 if with_pk else 0
        exprs = [f"json_extract(j.value, '$[{i + offset}]')" for i in range(len(fields))]
        if with_pk:
            exprs = ["json_extract(j.value, '$[0]')", *exprs]
        return "json_each(%s) AS j", exprs
    if connection.vendor == "postgresql":
        names = ([model._meta.pk.column] if with_pk else []) + [field.column for field in fields]
        table = quote(model._meta.db_table)
        return (
            f"jsonb_populate_recordset(NULL::{table}, %s::jsonb) WITH ORDINALITY AS j",
            [f"j.{quote(name)}" for name in names],
        )
    raise NotImplementedError(f"No set-based writes for the {connection.vendor} database.")


def _insert_sql(connection, model, fields) -> str:
    quote = connection.ops.quote_name
    source, exprs = _source(connection, model, fields)
    order = "j.key" if connection.vendor == "sqlite" else "j.ordinality"
    columns = ", ".join(quote(field.column) for field in fields)
    return (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "  # nosec B608: SQL names come from model metadata, values are parameters
        f"SELECT {', '.join(exprs)} FROM {source} WHERE 1 = 1 ORDER BY {order}"
    )


def _writable(model, fields: Sequence[str] | None = None):
    concrete = [field for field in model._meta.concrete_fields if not isinstance(field, models.AutoField)]
    if fields is None:
        return concrete
    wanted = set(fields)
    return [field for field in concrete if field.name in wanted or field.attname in wanted]


def insert_rows(objs: Sequence[models.Model]) -> list[models.Model]:
    """INSERT every instance (one model) in one statement; sets their ids, in order."""
    objs = list(objs)
    if not objs:
        return objs
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    fields = _writable(model)
    quote = connection.ops.quote_name
    sql = _insert_sql(connection, model, fields) + f" RETURNING {quote(model._meta.pk.column)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [_payload(connection, fields, objs, add=True)])
        # Ids are drawn in insertion order (SQLite AUTOINCREMENT, a PostgreSQL sequence), and the
        # rows are inserted in the list's order: the ascending ids are the instances' ids.
        ids = sorted(row[0] for row in cursor.fetchall())
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias
    return objs


def update_rows(objs: Sequence[models.Model], fields: Sequence[str]) -> int:
    """UPDATE ``fields`` of every instance (one model, saved) by id, in one statement."""
    objs = list(objs)
    if not objs:
        return 0
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    columns = _writable(model, fields)
    quote = connection.ops.quote_name
    source, exprs = _source(connection, model, columns, with_pk=True)
    table = quote(model._meta.db_table)
    sets = ", ".join(
        f"{quote(field.column)} = {expr}" for field, expr in zip(columns, exprs[1:], strict=True)
    )
    sql = (
        f"UPDATE {table} SET {sets} FROM {source} "  # nosec B608: SQL names come from model metadata, values are parameters
        f"WHERE {table}.{quote(model._meta.pk.column)} = {exprs[0]}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [_payload(connection, columns, objs, add=False, with_pk=True)])
        return cursor.rowcount


def _on_conflict_update(connection, model, *, unique: str, update_fields: Sequence[str]) -> str:
    """The upserts' clause: on a row with the same ``unique`` column, UPDATE ``update_fields``."""
    quote = connection.ops.quote_name
    key = model._meta.get_field(unique).column
    updates = ", ".join(
        f"{quote(field.column)} = excluded.{quote(field.column)}" for field in _writable(model, update_fields)
    )
    return f" ON CONFLICT ({quote(key)}) DO UPDATE SET {updates}"  # nosec B608: SQL names come from model metadata


def upsert_rows(objs: Sequence[models.Model], *, unique: str, update_fields: Sequence[str]) -> None:
    """INSERT every instance, or UPDATE ``update_fields`` of the row with the same ``unique``
    column: one statement. The instances' ids are not set."""
    objs = list(objs)
    if not objs:
        return
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    fields = _writable(model)
    conflict = _on_conflict_update(connection, model, unique=unique, update_fields=update_fields)
    sql = _insert_sql(connection, model, fields) + conflict
    with connection.cursor() as cursor:
        cursor.execute(sql, [_payload(connection, fields, objs, add=True)])


def _value_plan(model, fields, given: Sequence[str]):
    """For each field, how a row's value is found: given (by name or attname), the moment of the
    write (``auto_now``, or a ``timezone.now`` default: one moment for the whole statement), or the
    field's default (``Model.__init__``'s ``get_default``, once a set unless callable)."""
    given = set(given)
    plan = []
    for field in fields:
        auto = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        if auto:
            if not isinstance(field, models.DateTimeField):
                raise TypeError(f"Value lists take auto_now only on DateTimeField, not {field.name}.")
            plan.append(("now", None))
        elif type(field).pre_save is not models.Field.pre_save and not isinstance(field, models.DateField):
            raise TypeError(f"Value lists cannot apply {field.name}'s own pre_save.")
        elif field.attname in given:
            plan.append(("given", field.attname))
        elif field.name in given:
            plan.append(("given", field.name))
        elif field.has_default() and field.default is timezone.now:
            plan.append(("now", None))
        elif field.has_default() and callable(field.default):
            plan.append(("call", field.get_default))
        else:
            plan.append(("constant", field.get_default()))
    return plan


def prepared_column(prepare, values: list) -> list:
    """``[prepare(v) for v in values]``; a column whose values are all of the types ``prepare``
    returns as given (text for text, integers for integers: most columns) is sent as it is, checked
    by one pass of C (``map(type, …)``) instead of a Python call a value."""
    if set(map(type, values)) <= prepare.same:
        return values
    return list(map(prepare, values))


# The plain values a column may hold for ``_one_value`` to send it once: equal values of one of
# these types are sent alike (not so 1 and True, or two equal dicts written in different orders).
_PLAIN = frozenset({str, int, bool, type(None)})


def _one_value(values: list) -> bool:
    """Whether every value of the column is the same plain value (one type, all equal)."""
    kinds = set(map(type, values))
    return len(kinds) == 1 and kinds <= _PLAIN and values.count(values[0]) == len(values)


def _values_insert(connection, model, fields, rows: Sequence[dict], now=None) -> tuple[str, list]:
    """The INSERT … SELECT of value rows and its parameters. A column given in the rows, or a
    callable default, is sent in the JSON parameter, prepared a column at a time; a column that
    is the same in every row (a constant default, the moment of the write) is one parameter of
    its own, not repeated in every row (issue 16: a sweep's violations carry eight such columns,
    the moment among them, which the database otherwise unpacks once a row)."""
    sqlite = connection.vendor == "sqlite"
    preparers = db_preparers(fields, connection) if sqlite else None
    plan = _value_plan(model, fields, rows[0].keys())
    # One statement is one moment: every row's `auto_now`/`timezone.now` column takes the same time.
    stamp = timezone.now() if now is None else now
    quote = connection.ops.quote_name
    exprs, fixed, names, columns = [], [], [], []
    for index, (field, (how, what)) in enumerate(zip(fields, plan, strict=True)):
        if how in ("constant", "now"):
            value = what if how == "constant" else stamp
            if sqlite:
                exprs.append("%s")
                fixed.append(preparers[index](value))
            else:
                exprs.append(f"CAST(%s AS {field.db_type(connection)})")
                fixed.append(field.get_db_prep_save(value, connection))
            continue
        values = [row[what] for row in rows] if how == "given" else [what() for _ in rows]
        if sqlite:
            values = prepared_column(preparers[index], values)
        if _one_value(values):  # given alike in every row (a provision, a label): sent once too
            exprs.append("%s" if sqlite else f"CAST(%s AS {field.db_type(connection)})")
            fixed.append(values[0] if sqlite else field.get_db_prep_save(values[0], connection))
        elif sqlite:
            exprs.append(len(columns))  # the rows' column number: its expression depends on the source
            columns.append(values)
        else:
            exprs.append(f"j.{quote(field.column)}")
            names.append(field.column)
            columns.append(values)
    into = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "  # nosec B608: SQL names come from model metadata, values are parameters
    )
    if sqlite and _padded(len(rows)) * (len(columns) + 1) + len(fixed) <= _sqlite_parameters(connection):
        return _bound_rows_insert(into, exprs, fixed, columns, len(rows))
    if not columns:
        out = [[] if sqlite else {}] * len(rows)
    elif sqlite:
        out = list(zip(*columns, strict=True))
        exprs = [f"json_extract(j.value, '$[{e}]')" if isinstance(e, int) else e for e in exprs]
    else:
        out = [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]
    source, _ = _source(connection, model, [])
    order = "j.key" if sqlite else "j.ordinality"
    sql = into + f"SELECT {', '.join(exprs)} FROM {source} WHERE 1 = 1 ORDER BY {order}"  # nosec B608: expressions from model metadata, values are parameters
    return sql, [*fixed, json.dumps(out, default=_default)]


def _sqlite_parameters(connection) -> int:
    """The most parameters one SQLite statement binds (by default 32,766 since SQLite 3.32; Django's
    ``max_query_params`` says 999 for every version)."""
    connection.ensure_connection()
    return connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)


def _padded(count: int) -> int:
    """The rows of the VALUES list of ``count`` rows: four sizes between two powers of two (5/8,
    6/8, 7/8 and 8/8 of the next), so at most a quarter of them are padding."""
    if count <= 4:
        return count
    step = 1 << ((count - 1).bit_length() - 3)
    return -(-count // step) * step


def _bound_rows_insert(
    into: str, exprs: list, fixed: list, columns: list[list], count: int
) -> tuple[str, list]:
    """SQLite: the INSERT … SELECT of ``_values_insert`` over a VALUES list, each value of the rows
    a parameter of its own, where the JSON parameter made the database parse the JSON and run a
    ``json_extract`` a value (issue 16: 2,218 messages, 45 → 34 ms of CPU). Each row starts with
    its number, which orders the insert (the ids are drawn in the rows' order, as ``ORDER BY
    j.key`` orders the JSON's).

    The list is padded with rows of NULL (no number: left out by the WHERE) to one of four sizes
    an octave (``_padded``), so the statement's text is one of a few whatever the number of rows:
    Python's ``sqlite3`` keeps each text it runs (128 a connection) with the values last bound to
    it, so a text per number of rows would keep up to 128 sets of rows (a sweep's pages: megabytes
    each)."""
    size = _padded(count)
    row = "(" + ", ".join("%s" for _ in range(len(columns) + 1)) + ")"
    # VALUES names its columns column1, column2, …: column1 is the row's number.
    selected = ", ".join(f"column{e + 2}" if isinstance(e, int) else e for e in exprs)
    sql = into + (
        f"SELECT {selected} FROM (VALUES {', '.join([row] * size)}) "  # nosec B608: expressions from model metadata, values are parameters
        "WHERE column1 IS NOT NULL ORDER BY column1"
    )
    numbered = itertools.chain.from_iterable(zip(range(count), *columns, strict=True))
    return sql, [*fixed, *numbered, *itertools.repeat(None, (size - count) * (len(columns) + 1))]


def insert_values(
    model: type[models.Model],
    rows: Sequence[dict],
    *,
    skip_conflicts: bool = False,
    now: dt.datetime | None = None,
) -> list[int]:
    """INSERT one row of ``model`` a mapping (field name or attname -> value; every mapping with the
    same keys; the rest take their defaults and ``auto_now``) in one statement, as ``insert_rows``
    would the instances ``model(**row)``. Returns the new ids, in order. ``skip_conflicts``: a row
    that would break a unique constraint is left out (ON CONFLICT DO NOTHING), the row already
    there kept. ``now``: the moment of the write (``auto_now`` and ``timezone.now`` defaults), for
    a caller that records it (the rows it gives back as written); by default the time of the call."""
    if not rows:
        return []
    connection = connections[router.db_for_write(model)]
    fields = _writable(model)
    quote = connection.ops.quote_name
    skip = " ON CONFLICT DO NOTHING" if skip_conflicts else ""
    sql, params = _values_insert(connection, model, fields, rows, now)
    with connection.cursor() as cursor:
        cursor.execute(sql + f"{skip} RETURNING {quote(model._meta.pk.column)}", params)
        return sorted(row[0] for row in cursor.fetchall())  # drawn in insertion order (insert_rows)


def upsert_values(
    model: type[models.Model], rows: Sequence[dict], *, unique: str, update_fields: Sequence[str]
) -> None:
    """``upsert_rows`` of the instances ``model(**row)``, without building them: one statement."""
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    fields = _writable(model)
    conflict = _on_conflict_update(connection, model, unique=unique, update_fields=update_fields)
    sql, params = _values_insert(connection, model, fields, rows)
    with connection.cursor() as cursor:
        cursor.execute(sql + conflict, params)


def json_values(values, *, integers: bool, using: str = "default") -> RawSQL:
    """``field__in=json_values(values, integers=...)``: the values sent as one JSON parameter that the
    database unpacks, not one parameter a value. Django prepares each value of an ``__in`` list a
    few calls deep (and, under DEBUG, quotes each again to log the statement): a manifest chunk's
    reads name its 500 devices in eight lists. ``integers``: ids, compared as ``bigint`` on
    PostgreSQL (its JSON unpacks to text); otherwise text."""
    payload = json.dumps(sorted(values))
    if connections[using].vendor == "postgresql":
        unpacked = "value::bigint" if integers else "value"
        return RawSQL(f"SELECT {unpacked} FROM jsonb_array_elements_text(%s::jsonb)", [payload])  # nosec B608 B611: one of two fixed statements, the values its parameter
    return RawSQL("SELECT value FROM json_each(%s)", [payload])  # nosec B611: a fixed statement, the values its parameter
