"""A lock that holds across processes for one transaction, for work that must not run twice at once
(several gunicorn processes and workers against one PostgreSQL: docs/architecture.md, "Several
processes").

    with transaction.atomic():
        transaction_lock("idempotency", f"{user_id}:{key}")
        ...  # one process at a time gets here for that name; the lock ends with the transaction

On PostgreSQL it is an advisory transaction lock on the name (`pg_advisory_xact_lock`). SQLite
needs none: it lets one writer in at a time, and a second process waits for the first to commit.
"""

from __future__ import annotations

import zlib

from django.db import connections, transaction


def transaction_lock(kind: str, name: str, *, using: str = "default") -> None:
    """Wait until no other transaction holds the lock on (`kind`, `name`), then hold it until this
    transaction ends. Call inside `transaction.atomic()`."""
    connection = connections[using]
    if not transaction.get_connection(using).in_atomic_block:
        raise RuntimeError("transaction_lock() holds until the transaction ends: call it inside atomic().")
    if connection.vendor != "postgresql":
        return
    # Two 32-bit keys: the kind's and the name's (a collision only makes two names wait for each other).
    space = zlib.crc32(kind.encode()) - 2**31
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [space, name])
