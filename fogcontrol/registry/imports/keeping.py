"""Keeping an uploaded file beside the row that records it, without holding the write lock.

SQLite has one write lock, and the embedded default takes it when a transaction begins
(`transaction_mode=IMMEDIATE`). So an upload is read and checked, and its file written to
storage, outside any transaction; then the row is inserted in one short transaction. If that
transaction does not commit, the file is deleted: a refused upload leaves nothing on disk.

Callers must not wrap these calls in a transaction of their own: the file would be written while
the caller holds the lock, and a rollback of the caller's transaction would leave the file behind.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import models, transaction


def save_with_file(
    instance: models.Model,
    *,
    field: str,
    name: str,
    content,
    then: Callable[[models.Model], None] | None = None,
) -> None:
    """Write `content` to `instance.<field>`, then save the instance (and run `then`) in one
    transaction; the stored file is deleted if that transaction fails."""
    field_file = getattr(instance, field)
    field_file.save(name, content, save=False)
    try:
        with transaction.atomic():
            instance.save()
            if then is not None:
                then(instance)
    except BaseException:
        field_file.delete(save=False)
        instance.pk = None
        raise
