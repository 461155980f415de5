"""The last twelve months of the program, month by month, for the dashboard's small charts.

One GROUP BY query per series (`TruncMonth`, in the Town's time zone for date-times), scoped to the
user as the matching list is; a month with nothing shows as zero. The manifests' series is read
from the counts kept by month of service (kept.py, issue 16) where they stand for the user's list. Which series a user sees follows
its panels (`panels.py`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from django.db.models import Count, Sum
from django.db.models.functions import TruncMonth

from fogcontrol.billing.models import Payment
from fogcontrol.billing.selectors import payment_list
from fogcontrol.dashboard import kept
from fogcontrol.dashboard import panels as p
from fogcontrol.dashboard.figures import midnight
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.selectors import inspection_list
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.selectors import manifest_list
from fogcontrol.spills.selectors import spill_list

MONTHS = 12


@dataclasses.dataclass(frozen=True)
class Series:
    key: str
    title: str
    unit: str  # what one is: "manifest", "inspection", "spill", "$"
    months: list[tuple[dt.date, Decimal | int]]  # (first day of the month, value), oldest first

    @property
    def total(self):
        return sum(value for _month, value in self.months)


def month_starts(today: dt.date, count: int = MONTHS) -> list[dt.date]:
    """The first days of the last `count` months, this one last."""
    year, month = today.year, today.month
    starts = []
    for _ in range(count):
        starts.append(dt.date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]


def _series(key, title, unit, rows, starts, value="n") -> Series:
    found = {}
    for row in rows:
        month = row["month"]
        month = month.date() if isinstance(month, dt.datetime) else month
        found[month] = row[value] or 0
    return Series(key, title, unit, [(start, found.get(start, 0)) for start in starts])


def _by_month(queryset, field: str, value=None):
    aggregate = value if value is not None else Count("pk")
    return queryset.annotate(month=TruncMonth(field)).order_by().values("month").annotate(n=aggregate)


def manifests_series(user, starts, today: dt.date) -> Series:
    if kept.covers(user, Manifest):
        # Kept by month of service (kept.py): at most 13 rows, read with the other kept counts.
        values = _kept_months(user, today, kept.MANIFESTS, starts)
        return Series("manifests", "Manifests filed, by service date", "manifest", values)
    rows = _by_month(manifest_list(user).filter(service_date__gte=starts[0]), "service_date")
    return _series("manifests", "Manifests filed, by service date", "manifest", rows, starts)


def _kept_months(user, today: dt.date, figure: str, starts, value=lambda n: n) -> list:
    """A series read from counts kept by month (kept.py): at most 13 rows, read once a request."""
    months = kept.kept_counts(user, today).buckets(figure)
    return [(start, value(months.get(kept.month_of(start), 0))) for start in starts]


def inspections_series(user, starts, today: dt.date) -> Series:
    title = "Inspections done"
    if not p.own_inspections_only(user) and kept.covers(user, Inspection):
        return Series(
            "inspections", title, "inspection", _kept_months(user, today, kept.INSPECTION_DONE, starts)
        )
    rows = inspection_list(user).filter(status=Inspection.Status.COMPLETED, visited_on__gte=starts[0])
    if p.own_inspections_only(user):
        rows = rows.filter(inspector_id=user.pk)
    return _series("inspections", title, "inspection", _by_month(rows, "visited_on"), starts)


def spills_series(user, starts, today: dt.date) -> Series:
    rows = _by_month(spill_list(user).filter(started_at__gte=midnight(starts[0])), "started_at")
    return _series("spills", "Spills, by the day they began", "spill", rows, starts)


def payments_series(user, starts, today: dt.date) -> Series:
    if kept.covers(user, Payment):
        # Kept in cents by month (kept.py); a month with none is 0, as the live sum leaves it.
        values = _kept_months(user, today, kept.PAYMENT_CENTS, starts, lambda n: kept.dollars(n) if n else 0)
        return Series("payments", "Payments received", "$", values)
    rows = _by_month(payment_list(user).filter(received_on__gte=starts[0]), "received_on", Sum("amount"))
    return _series("payments", "Payments received", "$", rows, starts)


SERIES_BY_PANEL = {
    p.SERVICING: manifests_series,
    p.INSPECTIONS: inspections_series,
    p.SPILLS: spills_series,
    p.MONEY: payments_series,
}


def dashboard_trends(user, today: dt.date) -> list[Series]:
    starts = month_starts(today)
    return [SERIES_BY_PANEL[key](user, starts, today) for key in p.panels_for(user) if key in SERIES_BY_PANEL]
