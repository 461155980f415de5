"""Trigram indexes for the FSE list's search box on PostgreSQL (issue 16).

The search (``?q=``) matches a fragment anywhere in the business name, licence number, site
address or parcel number, ``UPPER(column) LIKE UPPER('%…%')`` (Django's ``icontains``), which no
B-tree index serves: each search read every FSE. A GIN index of the column's trigrams
(``pg_trgm``) answers such a LIKE, so the search, its count and its page read only the rows that
match.

The extension is created by the migration when it can be: ``pg_trgm`` is a trusted extension
(PostgreSQL 13 and later), so a user with the CREATE privilege on the database may create it;
CI's user is the superuser. Where it cannot be created (not installed, or no privilege) the
migration says so on its output and goes on without the indexes: the search works the same, by
reading every row, and a database administrator may later run ``CREATE EXTENSION pg_trgm`` and
``fogcontrol migrate registry 0008 && fogcontrol migrate registry`` (or the statements of
``index_sql``) to add them. On SQLite the migration does nothing: SQLite has no index for a
``LIKE '%…%'`` (its search stays a scan, which costs ~30 ms at 100,000 FSEs; docs/performance.md).
"""

from __future__ import annotations

import sys

from django.db import DatabaseError, transaction

# index name → (table, column)
INDEXES = {
    "fse_search_name_trgm": ("registry_foodserviceestablishment", "business_name"),
    "fse_search_licence_trgm": ("registry_foodserviceestablishment", "licence_number"),
    "fse_search_site_trgm": ("registry_foodserviceestablishment", "site_address"),
    "parcel_search_apn_trgm": ("registry_parcel", "apn"),
}


def index_sql() -> list[str]:
    """The indexes, on the expression Django's ``icontains`` compares (``UPPER(column::text)``)."""
    return [
        f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        for name, (table, column) in INDEXES.items()
    ]


def _extension(connection) -> bool:
    """Create ``pg_trgm`` if it is not there; False if this database user cannot."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        if cursor.fetchone():
            return True
        try:
            with transaction.atomic(using=connection.alias):
                cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        except DatabaseError as error:
            print(
                f"\n  pg_trgm could not be created ({str(error).strip().splitlines()[0]}): the FSE search "
                "works without its trigram indexes, reading every row (fogcontrol/registry/search_indexes.py).",
                file=sys.stderr,
            )
            return False
    return True


def add(apps, schema_editor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or not _extension(connection):
        return
    for statement in index_sql():
        schema_editor.execute(statement)


def remove(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')
