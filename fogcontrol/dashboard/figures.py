"""The figures of the "today" dashboard (issue #17): what is waiting, counted in the database.

Each figure counts the rows of one list page and links to that list with the filters that select
them (`Figure.url`): a person who follows the link sees the same number at the top of the list
(`dashboard/tests/test_figures_match_lists.py` follows every link). The base of each count is the
list's own selector, so the count is scoped to the user exactly as the list is.

One query per source, whatever the size of the town: each source's figures are conditional
aggregates (`Count(..., filter=Q(...))`) over that selector; cases are grouped by stage in one
GROUP BY. Where they stand for the user's list (staff, who see the whole town), every figure but
the open cases by stage and this year's spills is read from the counts the database keeps (kept.py:
service states, expiry bands, flags, requests, applications, inspections, hearings, invoices and
what they owe), all in one query, so that the page does not count the town on each request (issue
16); a narrower scope is counted live as before. A panel the user's role does not
see is not counted at all (`panels.py`).
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
import functools
from decimal import Decimal
from urllib.parse import urlencode

from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils import timezone

from fogcontrol.billing.models import Invoice
from fogcontrol.billing.selectors import invoice_list
from fogcontrol.core.kept_totals import sees_everything
from fogcontrol.core.navigation import known_url
from fogcontrol.dashboard import kept
from fogcontrol.dashboard import panels as p
from fogcontrol.enforcement.models import Case, Hearing
from fogcontrol.enforcement.querysets import CASE_STAGE_CHOICES
from fogcontrol.enforcement.selectors.cases import cases_visible_to
from fogcontrol.enforcement.selectors.orders import hearing_list
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.selectors import inspection_list
from fogcontrol.permits.filters import WAITING_ON_TOWN
from fogcontrol.permits.models import Permit, PermitApplication, PermitStatus
from fogcontrol.permits.selectors import application_list, permit_list
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules import devices as device_rules
from fogcontrol.servicing.models import FrequencyChangeRequest, ManifestFlag
from fogcontrol.servicing.selectors import flags_to_review, frequency_requests_visible_to, service_status_list
from fogcontrol.spills.selectors import spill_list

# The windows of the permits panel, in days from today: not ordinance numbers, the Town's planning
# horizon (30, 60 and 90 days ahead), each band starting the day after the one before.
EXPIRY_BANDS = ((0, 30), (31, 60), (61, 90))


@dataclasses.dataclass(frozen=True)
class Figure:
    key: str
    label: str
    count: int
    url: str
    amount: Decimal | None = None  # money panels: the sum the count stands for
    tone: str = ""  # "warn" or "bad" when the figure asks for action and is not zero
    provision: str = ""

    @property
    def alert(self) -> str:
        return self.tone if self.count else ""


@dataclasses.dataclass(frozen=True)
class Panel:
    key: str
    title: str
    figures: list[Figure]


@dataclasses.dataclass(frozen=True)
class Period:
    """The days the figures are counted over, in the Town's calendar."""

    today: dt.date
    month_start: dt.date
    month_end: dt.date
    week_start: dt.date  # Monday
    week_end: dt.date  # Sunday
    year_start: dt.date

    @classmethod
    def around(cls, today: dt.date) -> Period:
        last = calendar.monthrange(today.year, today.month)[1]
        monday = today - dt.timedelta(days=today.weekday())
        return cls(
            today=today,
            month_start=today.replace(day=1),
            month_end=today.replace(day=last),
            week_start=monday,
            week_end=monday + dt.timedelta(days=6),
            year_start=dt.date(today.year, 1, 1),
        )


def link(url_name: str, **params) -> str:
    query = urlencode({key: _param(value) for key, value in params.items()})
    url = known_url(url_name)
    return f"{url}?{query}" if query else url


def _param(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _device_states(user, period: Period) -> dict[str, int]:
    """Active devices overdue and over the limit: kept counts (kept.py) for staff, else counted."""
    if kept.covers(user, GreaseControlDevice):
        counts = kept.kept_counts(user, period.today)
        return {
            "overdue": counts.get(f"service:{device_rules.STATUS_OVERDUE}"),
            "over_limit": counts.get(f"service:{device_rules.STATUS_OVER_LIMIT}"),
        }
    return service_status_list(user).aggregate(
        overdue=Count("pk", filter=Q(service_state__status=device_rules.STATUS_OVERDUE)),
        over_limit=Count("pk", filter=Q(service_state__status=device_rules.STATUS_OVER_LIMIT)),
    )


def _servicing_work(user, period: Period) -> tuple[int, int]:
    """Open flags (F4) and pending frequency requests (E5): kept counts for staff, else counted."""
    flag, request = ManifestFlag.Review.OPEN, FrequencyChangeRequest.Status.PENDING
    if kept.covers(user, ManifestFlag, FrequencyChangeRequest):
        counts = kept.kept_counts(user, period.today)
        return counts.get(f"flag:{flag}"), counts.get(f"frequency_request:{request}")
    return (
        flags_to_review(user).filter(review=flag).count(),
        frequency_requests_visible_to(user).filter(status=request).count(),
    )


def servicing_panel(user, period: Period) -> Panel:
    devices = _device_states(user, period)
    flags, requests = _servicing_work(user, period)
    return Panel(
        p.SERVICING,
        "Servicing",
        [
            Figure(
                "services_overdue",
                "devices overdue for service",
                devices["overdue"],
                link("servicing:home", status=device_rules.STATUS_OVERDUE),
                tone="bad",
                provision="E1",
            ),
            Figure(
                "devices_over_limit",
                "devices over the 25% rule at their last pump-out",
                devices["over_limit"],
                link("servicing:home", status=device_rules.STATUS_OVER_LIMIT),
                tone="bad",
                provision="E3",
            ),
            Figure(
                "flags_open",
                "manifest flags to review",
                flags,
                link("servicing:flag_list", review=ManifestFlag.Review.OPEN),
                tone="warn",
                provision="F4",
            ),
            Figure(
                "frequency_requests",
                "frequency requests to decide",
                requests,
                link("servicing:request_list", status=FrequencyChangeRequest.Status.PENDING),
                tone="warn",
                provision="E5",
            ),
        ],
    )


def _expiring(user, period: Period, bands) -> dict[str, int]:
    """Issued permits ending in each band: sums of the kept counts by day for staff, else counted."""
    if kept.covers(user, Permit):
        counts = kept.kept_counts(user, period.today)
        return {
            f"expiring_{last}": counts.between(kept.PERMIT_ISSUED, start.isoformat(), end.isoformat())
            for (_first, last), (start, end) in bands.items()
        }
    return permit_list(user).aggregate(
        **{
            f"expiring_{last}": Count(
                "pk",
                filter=Q(status=PermitStatus.ISSUED, valid_until__gte=start, valid_until__lte=end),
            )
            for (_first, last), (start, end) in bands.items()
        }
    )


def permits_panel(user, period: Period) -> Panel:
    today = period.today
    bands = {}
    for first, last in EXPIRY_BANDS:
        bands[(first, last)] = (today + dt.timedelta(days=first), today + dt.timedelta(days=last))
    counts = _expiring(user, period, bands)
    if kept.covers(user, PermitApplication):
        known = kept.kept_counts(user, today)
        waiting = sum(known.get(f"application:{status}") for status in WAITING_ON_TOWN)
    else:
        waiting = application_list(user).filter(status__in=WAITING_ON_TOWN).count()
    figures = []
    for (first, last), (start, end) in bands.items():
        words = f"in the next {last} days" if first == 0 else f"in {first}–{last} days"
        figures.append(
            Figure(
                f"permits_expiring_{last}",
                f"permits ending {words}",
                counts[f"expiring_{last}"],
                link(
                    "permits:permit_list",
                    status=PermitStatus.ISSUED,
                    valid_until_after=start,
                    valid_until_before=end,
                ),
                tone="warn" if first == 0 else "",
                provision="B6",
            )
        )
    figures.append(
        Figure(
            "applications_waiting",
            "applications waiting for the Town",
            waiting,
            link("permits:application_list", waiting=True),
            tone="warn",
            provision="B5",
        )
    )
    return Panel(p.PERMITS, "Permits", figures)


def _inspections(user, period: Period, rows, mine: dict) -> dict[str, int]:
    """This month's drafts and visits (D8): the kept counts by month for staff who see every
    inspection (not an inspector's own), else counted."""
    if not mine and kept.covers(user, Inspection):
        counts = kept.kept_counts(user, period.today)
        month = kept.month_of(period.today)
        return {
            "due": counts.buckets(kept.INSPECTION_DUE).get(month, 0),
            "done": counts.buckets(kept.INSPECTION_DONE).get(month, 0),
        }
    month = {"scheduled_on__gte": period.month_start, "scheduled_on__lte": period.month_end}
    visited = {"visited_on__gte": period.month_start, "visited_on__lte": period.month_end}
    return rows.aggregate(
        due=Count("pk", filter=Q(status=Inspection.Status.DRAFT, **month)),
        done=Count("pk", filter=Q(status=Inspection.Status.COMPLETED, **visited)),
    )


def inspections_panel(user, period: Period) -> Panel:
    mine = {"inspector": user.pk} if p.own_inspections_only(user) else {}
    rows = inspection_list(user)
    if mine:
        rows = rows.filter(inspector_id=user.pk)
    counts = _inspections(user, period, rows, mine)
    whose = "your " if mine else ""
    return Panel(
        p.INSPECTIONS,
        "Your inspections" if mine else "Inspections",
        [
            Figure(
                "inspections_due",
                f"{whose}inspections scheduled this month, not yet done",
                counts["due"],
                link(
                    "inspections:list",
                    status=Inspection.Status.DRAFT,
                    scheduled_from=period.month_start,
                    scheduled_to=period.month_end,
                    **mine,
                ),
                tone="warn",
                provision="D8",
            ),
            Figure(
                "inspections_done",
                f"{whose}inspections done this month",
                counts["done"],
                link(
                    "inspections:list",
                    status=Inspection.Status.COMPLETED,
                    visited_from=period.month_start,
                    visited_to=period.month_end,
                    **mine,
                ),
                provision="D8",
            ),
        ],
    )


def _open_cases_by_stage(cases):
    return cases.open().with_stage().order_by().values_list("stage").annotate(n=Count("pk"))


@functools.cache
def _whole_town_stage_sql(vendor: str) -> tuple[str, tuple]:
    """The statement counting every open case by stage, compiled once a process: building the
    stage's CASE of five EXISTS took about 2 ms of the ORM's Python on every staff home, whatever the
    size of the town, for a statement that never changes."""
    return _open_cases_by_stage(Case.objects.all()).query.sql_with_params()


def open_cases_by_stage(user) -> dict[str, int]:
    """{stage: open cases} of the cases `user` sees: the same statement for anyone who sees them all
    (run as compiled once), the user's scope added to it for anyone else."""
    if not sees_everything(user, Case):
        return dict(_open_cases_by_stage(cases_visible_to(user)))
    sql, params = _whole_town_stage_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall())


def enforcement_panel(user, period: Period) -> Panel:
    by_stage = open_cases_by_stage(user)
    if kept.covers(user, Hearing):
        week = (period.week_start.isoformat(), period.week_end.isoformat())
        hearings = kept.kept_counts(user, period.today).between(kept.HEARINGS, *week)
    else:
        hearings = (
            hearing_list(user)
            .filter(scheduled_on__gte=period.week_start, scheduled_on__lte=period.week_end)
            .count()
        )
    figures = [
        Figure(
            "cases_open",
            "open enforcement cases",
            sum(by_stage.values()),
            link("enforcement:case_list", open=True),
        )
    ]
    for stage, label in CASE_STAGE_CHOICES:
        figures.append(
            Figure(
                f"cases_{stage}",
                f"open cases at: {str(label)[0].lower()}{str(label)[1:]}",
                by_stage.get(stage, 0),
                link("enforcement:case_list", open=True, stage=stage),
            )
        )
    figures.append(
        Figure(
            "hearings_this_week",
            "hearings this week",
            hearings,
            link("enforcement:hearing_list", scheduled_from=period.week_start, scheduled_to=period.week_end),
            tone="warn",
        )
    )
    return Panel(p.ENFORCEMENT, "Enforcement", figures)


def _invoices(user, period: Period) -> dict:
    """Open and delinquent invoices and what they owe: kept counts and cents for staff, else summed."""
    if kept.covers(user, Invoice):
        counts = kept.kept_counts(user, period.today)
        return {
            f"{name}_{part}": value
            for name in ("open", "delinquent")
            for part, value in (
                ("n", counts.get(f"invoice_{name}")),
                ("amount", kept.dollars(counts.get(f"invoice_{name}_cents"))),
            )
        }
    is_open = Q(status=Invoice.Status.OPEN)
    delinquent = is_open & Q(delinquent_on__isnull=False)
    return invoice_list(user).aggregate(
        open_n=Count("pk", filter=is_open),
        open_amount=Sum("outstanding", filter=is_open),
        delinquent_n=Count("pk", filter=delinquent),
        delinquent_amount=Sum("outstanding", filter=delinquent),
    )


def money_panel(user, period: Period) -> Panel:
    sums = _invoices(user, period)
    return Panel(
        p.MONEY,
        "Money owed to the Town",
        [
            Figure(
                "invoices_outstanding",
                "open invoices",
                sums["open_n"],
                link("billing:invoices", status=Invoice.Status.OPEN),
                amount=sums["open_amount"] or Decimal("0.00"),
                provision="Q1",
            ),
            Figure(
                "invoices_delinquent",
                "delinquent invoices",
                sums["delinquent_n"],
                link("billing:invoices", status=Invoice.Status.OPEN, delinquent=True),
                amount=sums["delinquent_amount"] or Decimal("0.00"),
                tone="bad",
                provision="P8",
            ),
        ],
    )


def midnight(day: dt.date) -> dt.datetime:
    """The moment `day` begins in the Town's time zone (the request's): `started_at >= midnight(d)`
    selects what `started_at__date__gte=d` does, off the column's index, with no function of each
    row (SQLite called one in Python for every spill)."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def spills_panel(user, period: Period) -> Panel:
    next_day = period.today + dt.timedelta(days=1)
    count = (
        spill_list(user)
        .filter(started_at__gte=midnight(period.year_start), started_at__lt=midnight(next_day))
        .count()
    )
    return Panel(
        p.SPILLS,
        "Spills",
        [
            Figure(
                "spills_this_year",
                f"spills in {period.today.year}",
                count,
                link("spills:list", started_from=period.year_start, started_to=period.today),
                provision="I1",
            )
        ],
    )


BUILDERS = {
    p.SERVICING: servicing_panel,
    p.PERMITS: permits_panel,
    p.INSPECTIONS: inspections_panel,
    p.ENFORCEMENT: enforcement_panel,
    p.MONEY: money_panel,
    p.SPILLS: spills_panel,
}


def dashboard_panels(user, today: dt.date) -> list[Panel]:
    """The panels `user`'s role sees, counted on `today` (the Town's date)."""
    period = Period.around(today)
    return [BUILDERS[key](user, period) for key in p.panels_for(user)]
