"""What an attacker with write access to the database can do to the copies of record (issue 15,
finding 4), as helpers for the tests: drop and re-create the triggers, and rewrite rows in SQL."""

from __future__ import annotations

from django.db import connection

from fogcontrol.core.models import CopyOfRecord
from fogcontrol.core.record_hashing import copy_of_record_models
from fogcontrol.core.record_triggers import PURGES, head_unprotection_sql, protection_sql, unprotection_sql


def protected_tables() -> dict[str, bool]:
    tables = {model._meta.db_table: True for model in copy_of_record_models()}
    tables[PURGES] = False
    return tables


def drop_triggers() -> None:
    with connection.cursor() as cursor:
        for table in protected_tables():
            for statement in unprotection_sql(connection.vendor, table):
                cursor.execute(statement)
        for statement in head_unprotection_sql(connection.vendor):
            cursor.execute(statement)


def recreate_triggers() -> None:
    with connection.cursor() as cursor:
        for table, purgeable in protected_tables().items():
            for statement in protection_sql(connection.vendor, table, purgeable=purgeable):
                cursor.execute(statement)


def insert_copy(model: type[CopyOfRecord], source_pk: int, **replaced) -> int:
    """INSERT … SELECT a copy of a row with some columns replaced, as raw SQL; returns the new id."""
    columns = [field.column for field in model._meta.concrete_fields if field.column != "id"]
    expressions, params = [], []
    for column in columns:
        if column in replaced:
            expressions.append("%s")
            params.append(replaced[column])
        else:
            expressions.append(f'"{column}"')
    table = model._meta.db_table
    names = ", ".join(f'"{column}"' for column in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO "{table}" ({names}) SELECT {", ".join(expressions)} FROM "{table}" WHERE "id" = %s',
            [*params, source_pk],
        )
    return model.objects.order_by("-pk").values_list("pk", flat=True).first()
