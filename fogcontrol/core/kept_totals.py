"""The pager's total from a count kept by the database, where a list is a whole table (issue 16).

A list's pager counts its rows on every request. SQLite answers `SELECT COUNT(*)` of a table from
its smallest index in about a millisecond; PostgreSQL cannot (each row's visibility is in the
table, MVCC), so it reads every row: 53 ms of database time a request for the manifest list at
294,262 manifests, ten times that at a region's 2.9 million. Where the list is the whole table
and the user sees the whole town, the total is read from a count kept instead.

The counts are kept above this layer (fogcontrol/dashboard/kept.py: triggers move them in the
transaction of every write, so they are exact and never stale); that app registers, when it is
ready, a function answering a model's total (`register`). Core asks it only when the queryset is
plainly the whole table (`whole_table`: no condition, no DISTINCT, GROUP BY, UNION, slice, extra
table or join that would repeat rows) and the user's scope is everything (`sees_everything`:
program staff, a job). Every other list (a filter, a search, a hauler's or an FSE's own records)
is counted live, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.db.models.sql.datastructures import Join

from fogcontrol.core.actors import is_job
from fogcontrol.core.scoping import VIEW, is_signed_in

# model -> its whole table's row count on a database alias (filled by the apps that keep counts).
_TOTALS: dict[type[Model], Callable[[str], int | None]] = {}


def register(model: type[Model], total: Callable[[str], int | None]) -> None:
    """`total(using)` is `model`'s whole-table row count, exact in the caller's transaction, or
    None when it has none to give (the table is then counted)."""
    _TOTALS[model] = total


def registered() -> tuple[type[Model], ...]:
    return tuple(_TOTALS)


def whole_table(queryset) -> bool:
    """Is `queryset` every row of its model's table, once each? Answered from its query alone,
    conservatively: anything but a plain select with annotations, select_related and an order is
    "no" (and is then counted)."""
    if not isinstance(queryset, QuerySet):
        return False
    query = queryset.query
    if (
        query.where  # a filter, a scope, .none()
        or query.distinct
        or query.group_by is not None
        or query.combinator
        or query.is_sliced
        or query.extra_tables
    ):
        return False
    # A join in use (an annotation over a reverse relation) could repeat rows; the joins of
    # select_related are made when the SQL is compiled, and a COUNT never carries them.
    return not any(
        isinstance(join, Join) and query.alias_refcount.get(alias, 0)
        for alias, join in query.alias_map.items()
    )


def sees_everything(user, model: type[Model]) -> bool:
    """Is `user`'s scope of `model` every record (fogcontrol.core.scoping)?"""
    if is_job(user):
        return True
    if not is_signed_in(user):
        return False
    return model._default_manager.all().scope(user, VIEW) is None


def kept_total(queryset, user) -> int | None:
    """The row count of `queryset` read from a kept count, or None: count it live."""
    model = getattr(queryset, "model", None)
    total = _TOTALS.get(model)
    if total is None or not whole_table(queryset) or not sees_everything(user, model):
        return None
    return total(queryset.db)


class KeptTotalPaginator(Paginator):
    """Django's paginator, whose count is the kept total where there is one for `user`'s list."""

    def __init__(self, object_list, per_page, *args, user=None, **kwargs):
        super().__init__(object_list, per_page, *args, **kwargs)
        self.user = user

    @cached_property
    def count(self) -> int:
        kept = kept_total(self.object_list, self.user) if self.user is not None else None
        return kept if kept is not None else super().count
