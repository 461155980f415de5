"""Audit entries written by the database itself: INSERT … SELECT of one entry per row, with the
row's before and after built in SQL (issue 16).

A set-based change (a sweep's UPDATE … WHERE) audits each row it changes. Reading the rows into
Python only to write their snapshots back costs more than the change: here the database builds
each entry from the row, as ``audit.services.snapshot`` would (the same keys, the same values:
dates and times in ISO form, decimals as text with their places, booleans as JSON booleans), and
``after`` is the same object with the changed fields replaced by SQL expressions. The entries'
content equals what ``audit_records_bulk`` writes for the same rows (tested where it is used).

Only SQLite (``json_object``) and PostgreSQL (``jsonb_build_object``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.contrib.contenttypes.models import ContentType
from django.db import connection, models
from django.utils import timezone

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.services import _snapshot_plan
from fogcontrol.core.actors import actor_label_for, person

Sql = tuple[str, list]  # an SQL expression and its parameters
# Their SQLite expression is json(…), NULL for NULL: a CASE around it would lose the JSON subtype.
_NULL_INSIDE = frozenset({"BooleanField", "JSONField"})


def _value_sql(field: models.Field, column: str, vendor: str) -> str:
    """The SQL giving the JSON value ``snapshot`` gives for this field of the row."""
    kind = field.get_internal_type()
    if vendor == "postgresql":
        if kind == "DateField":
            return f"to_char({column}, 'YYYY-MM-DD')"
        if kind == "DateTimeField":  # datetime.isoformat() of the UTC time: no fraction when it is 0
            utc = f"({column} AT TIME ZONE 'UTC')"
            return (
                f"to_char({utc}, 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE WHEN to_char({utc}, 'US') = '000000' "
                f"THEN '' ELSE to_char({utc}, '.US') END || '+00:00'"
            )
        if kind == "DecimalField":
            return f"({column})::text"
        return column
    if kind == "DateTimeField":  # stored as str(naive UTC datetime): "YYYY-MM-DD HH:MM:SS[.ffffff]"
        return f"replace({column}, ' ', 'T') || '+00:00'"
    if kind == "DecimalField":
        return f"printf('%%.{field.decimal_places}f', {column})"  # %% : run with parameters
    if kind == "BooleanField":
        return f"json(CASE WHEN {column} IS NULL THEN 'null' WHEN {column} THEN 'true' ELSE 'false' END)"
    if kind == "JSONField":
        return f"json({column})"
    return column


def snapshot_sql(model: type[models.Model], alias: str, replace: dict[str, Sql] | None = None) -> Sql:
    """A JSON object of the row ``alias`` of ``model``, as ``snapshot`` makes it, with the fields
    named in ``replace`` (by attname) given by those SQL expressions instead (already JSON values:
    text, numbers, or NULL)."""
    attnames, many_to_many = _snapshot_plan(model)
    if many_to_many:
        raise ValueError(f"{model.__name__} has many-to-many fields: its snapshot is not one row.")
    replace = replace or {}
    vendor = connection.vendor
    fields = {field.attname: field for field in model._meta.concrete_fields}
    parts, params = [], []
    for attname in attnames:
        field = fields[attname]
        if attname in replace:
            sql, extra = replace[attname]
            params.extend(extra)
        else:
            column = f"{alias}.{connection.ops.quote_name(field.column)}"
            sql = _value_sql(field, column, vendor)
            if field.null and sql != column and field.get_internal_type() not in _NULL_INSIDE:
                sql = f"CASE WHEN {column} IS NULL THEN NULL ELSE {sql} END"
        parts.append(f"'{attname}', {sql}")
    builder = "jsonb_build_object" if vendor == "postgresql" else "json_object"
    return f"{builder}({', '.join(parts)})", params


def audit_insert_select(
    *,
    acting_user,
    action: str,
    model: type[models.Model],
    ids: Sequence[int],
    after: dict[str, Sql] | None,
    object_repr: Sql,
    note: str = "",
    created: bool = False,
) -> int:
    """Write one audit entry per row of ``model`` whose primary key is in ``ids``, in one INSERT …
    SELECT, in primary-key order: ``before`` the row as it is now, ``after`` the row with the fields
    of ``after`` replaced, ``object_repr`` the SQL of ``str(instance)`` after the change (the row is
    ``t``). Call it in the transaction that changes the rows, before the UPDATE (the rows locked).
    With ``created`` the rows were just inserted: no ``before``, ``after`` the row as it is. The
    ids are sent as one parameter, however many. Returns the number of entries."""
    if not ids:
        return 0
    alias = "t"
    quote = connection.ops.quote_name
    before_sql, before_params = ("NULL", []) if created else snapshot_sql(model, alias)
    after_sql, after_params = snapshot_sql(model, alias, after)
    repr_sql, repr_params = object_repr
    actor = person(acting_user)
    content_type = ContentType.objects.get_for_model(model, for_concrete_model=True)
    pk = f"{alias}.{quote(model._meta.pk.column)}"
    object_id = f"CAST({pk} AS {'text' if connection.vendor == 'postgresql' else 'TEXT'})"
    columns = ", ".join(
        quote(name)
        for name in (
            "at", "actor_id", "actor_label", "action", "content_type_id", "object_id",
            "object_repr", "before", "after", "note",
        )
    )  # fmt: skip
    if connection.vendor == "postgresql":
        chosen, id_param = f"{pk} = ANY(%s)", list(ids)  # nosec B608: column names from the model
    else:
        chosen, id_param = f"{pk} IN (SELECT value FROM json_each(%s))", json.dumps(list(ids))  # nosec B608
    # Names from the models, expressions from the callers' code: the values are parameters.
    sql = (  # nosec B608
        f"INSERT INTO {quote(AuditEntry._meta.db_table)} ({columns}) "  # nosec B608
        f"SELECT %s, %s, %s, %s, %s, {object_id}, substr({repr_sql}, 1, 255), {before_sql}, {after_sql}, %s "
        f"FROM {quote(model._meta.db_table)} {alias} WHERE {chosen} ORDER BY {pk}"  # nosec B608
    )
    at = AuditEntry._meta.get_field("at").get_db_prep_save(timezone.now(), connection)
    params = [
        at,
        actor.pk if actor is not None else None,
        actor_label_for(acting_user),
        action,
        content_type.pk,
        *repr_params,
        *before_params,
        *after_params,
        note,
        id_param,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
