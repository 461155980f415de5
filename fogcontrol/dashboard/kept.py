"""Counts kept for the staff home (issue 16): the figures that would otherwise count the whole town.

The staff home counted every establishment, device, permit and a year of manifests on each request,
so it took ten times as long at 100,000 establishments as at 1,000. The counts it needs from those
tables are kept instead, in one small table (`FigureCount`: a figure, a bucket, a number), by
database triggers on the counted tables: every write, by a service, a bulk load, a sweep's UPDATE or
the admin, moves the count in the same transaction. A figure is therefore never stale and always
agrees with the list it links to (`dashboard/tests/test_figures_match_lists.py` follows every link
on the demo town, which is written in bulk). The home reads them in one query, whatever the size of
the town.

Figures that move with the date are kept by day (or month) and summed over a bounded range: the
permits ending in the next 30, 31-60 and 61-90 days are the issued permits kept by their last day
(at most 91 rows); the manifest trend is the manifests kept by the month of their service (13).

`recount` rebuilds every count from the tables, set-based (one DELETE and one INSERT ... SELECT per
figure): after every `migrate` (SQLite rebuilds a table to alter it, dropping its triggers, so they
are installed again then) and as the nightly sweep's last step, which reports any count it had to
correct (none, while the triggers hold).

Since 2026-12-01 every figure of the home that counted a table is kept (the work waiting on staff,
this month's inspections, this week's hearings, open and delinquent invoices with what they owe in
cents, the payments' and inspections' trends, the active haulers): only the open cases by stage (a
state of five related tables) and the spills (by the day in the Town's time zone) are counted live.

The kept counts cover every record: they stand for a list only where the user's scope is the whole
town (program staff); anyone else is counted live, as before (`covers`).

The same counts give the whole-table lists' pagers their total for staff (`figure_total`,
registered in apps.py with core/kept_totals.py): the manifests by month, a total each of the
establishments, devices and permits; a few dozen rows read instead of a `COUNT(*)` that
PostgreSQL answers by reading every row of the table.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from fogcontrol.core.kept_totals import sees_everything

TABLE = "dashboard_figurecount"
NO_BUCKET = ""
DEVICES = "registry_greasecontroldevice"
STATES = "servicing_deviceservicestate"
PERMIT_ISSUED = "permit:issued"
MANIFESTS = "manifest"
HAULERS = "registry_haulercompany"
INSPECTIONS = "inspections_inspection"
INVOICES = "billing_invoice"
ALLOCATIONS = "billing_allocation"
INSPECTION_DUE = "inspection_due"
INSPECTION_DONE = "inspection_done"
HEARINGS = "hearing"
PAYMENT_CENTS = "payment_cents"
FSE_TOTAL, DEVICE_TOTAL, PERMIT_TOTAL = "fse_total", "device_total", "permit_total"
# The figures kept by day and by month, and how far from today each is read (kept_counts).
BY_DAY = (PERMIT_ISSUED, HEARINGS)
BY_MONTH = (MANIFESTS, INSPECTION_DUE, INSPECTION_DONE, PAYMENT_CENTS)


@dataclasses.dataclass(frozen=True)
class Kept:
    """One family of kept counts: rows of `table` for which `where` holds, counted by `figure` (and
    `bucket`). Each is an SQL expression over one row, `R` standing for the row (NEW or OLD in a
    trigger, the table itself in a recount); `vendor` overrides one for a database vendor."""

    table: str
    figure: str
    where: str = "1 = 1"
    bucket: str = "''"
    columns: tuple[str, ...] = ()  # the columns read from the row: an UPDATE of others moves nothing
    vendor: dict = dataclasses.field(default_factory=dict)  # {vendor: {"where"/"bucket": sql}}
    recounted: bool = True  # False: it only moves a count another family recounts
    value: str = "1"  # what one row adds: 1 (a count), or an amount in cents (a sum)

    def sql(self, part: str, vendor: str, row: str) -> str:
        text = self.vendor.get(vendor, {}).get(part, getattr(self, part))
        return re.sub(r"\bR\.", f"{row}.", text)


def _month(column: str) -> dict:
    """A date column's month as the bucket ('YYYY-MM'), on each vendor."""
    return {
        "bucket": f"substr(R.{column}, 1, 7)",
        "vendor": {"postgresql": {"bucket": f"to_char(R.{column}, 'YYYY-MM')"}},
    }


def _day(column: str) -> dict:
    """A date column's day as the bucket ('YYYY-MM-DD'), on each vendor."""
    return {
        "bucket": f"R.{column}",
        "vendor": {"postgresql": {"bucket": f"to_char(R.{column}, 'YYYY-MM-DD')"}},
    }


def _cents(amount: str) -> str:
    """An amount in dollars (a decimal column or expression) as whole cents, on both databases."""
    return f"CAST(ROUND(({amount}) * 100) AS BIGINT)"


_DEVICE_ACTIVE = f"(SELECT d.status FROM {DEVICES} d WHERE d.id = R.device_id) = 'active'"  # nosec B608: SQL of this module's constants only, no user input
_STATE_OF_DEVICE = f"(SELECT s.status FROM {STATES} s WHERE s.device_id = R.id)"  # nosec B608: SQL of this module's constants only, no user input
_INVOICE_OPEN = "R.status = 'open'"
_INVOICE_DELINQUENT = "R.status = 'open' AND R.delinquent_on IS NOT NULL"
_ALLOCATED = f"(SELECT COALESCE(SUM({_cents('a.amount')}), 0) FROM {ALLOCATIONS} a WHERE a.invoice_id = R.id)"  # nosec B608: SQL of this module's constants only, no user input


def _of_invoice(where: str) -> str:
    """`where` (over an invoice) said of an allocation's invoice."""
    return f"EXISTS (SELECT 1 FROM {INVOICES} i WHERE i.id = R.invoice_id AND {where.replace('R.', 'i.')})"  # nosec B608: SQL of this module's constants only, no user input


KEPT: tuple[Kept, ...] = (
    # The registry's tiles.
    Kept("registry_foodserviceestablishment", "'fse:' || R.status", columns=("status",)),
    Kept(DEVICES, "'device:' || R.status", columns=("status",)),
    Kept(
        DEVICES,
        "'device_flagged'",
        where="R.status = 'active' AND R.a4_flags <> '[]'",
        columns=("status", "a4_flags"),
        vendor={"postgresql": {"where": "R.status = 'active' AND R.a4_flags <> '[]'::jsonb"}},
    ),
    Kept("registry_parcel", "'parcel'", columns=("id",)),
    # Every row of the tables whose lists staff page through whole: the pagers' totals, one row
    # each read through the index (core/kept_totals.py).
    *(
        Kept(table, f"'{figure}'", columns=("id",))
        for table, figure in (
            ("registry_foodserviceestablishment", FSE_TOTAL),
            (DEVICES, DEVICE_TOTAL),
            ("permits_permit", PERMIT_TOTAL),
        )
    ),
    Kept("registry_shareddevice", "'device_shared'", columns=("device_id",)),
    # Servicing: the active devices by the status of their service state (E1, E3). A device's
    # status moves its state's count too.
    Kept(STATES, "'service:' || R.status", where=_DEVICE_ACTIVE, columns=("status", "device_id")),
    Kept(
        DEVICES,
        f"'service:' || {_STATE_OF_DEVICE}",
        where=f"R.status = 'active' AND {_STATE_OF_DEVICE} IS NOT NULL",
        columns=("status",),
        recounted=False,
    ),
    # Permits by status and last day (B6): the expiry bands are sums over a range of days.
    Kept(
        "permits_permit",
        "'permit:' || R.status",
        bucket="R.valid_until",
        columns=("status", "valid_until"),
        vendor={"postgresql": {"bucket": "to_char(R.valid_until, 'YYYY-MM-DD')"}},
    ),
    # Manifests by the month of their service (the trend).
    Kept("servicing_manifest", "'manifest'", columns=("service_date",), **_month("service_date")),
    # The work waiting on staff, by status: flags to review (F4), frequency requests (E5),
    # applications (B5); the active haulers (a registry tile).
    Kept("servicing_manifestflag", "'flag:' || R.review", columns=("review",)),
    Kept("servicing_frequencychangerequest", "'frequency_request:' || R.status", columns=("status",)),
    Kept("permits_permitapplication", "'application:' || R.status", columns=("status",)),
    Kept(HAULERS, "'hauler_active'", where="R.active", columns=("active",)),
    # Inspections (D8): drafts by the month they are scheduled, completed ones by the month of the
    # visit (this month's figures and the twelve months' trend).
    Kept(
        INSPECTIONS,
        f"'{INSPECTION_DUE}'",
        where="R.status = 'draft'",
        columns=("status", "scheduled_on"),
        **_month("scheduled_on"),
    ),
    Kept(
        INSPECTIONS,
        f"'{INSPECTION_DONE}'",
        where="R.status = 'completed' AND R.visited_on IS NOT NULL",
        columns=("status", "visited_on"),
        **_month("visited_on"),
    ),
    # Hearings by their day (this week's figure sums seven).
    Kept("enforcement_hearing", f"'{HEARINGS}'", columns=("scheduled_on",), **_day("scheduled_on")),
    # Payments received, in cents, by month (the trend).
    Kept(
        "billing_payment",
        f"'{PAYMENT_CENTS}'",
        value=_cents("R.amount"),
        columns=("received_on", "amount"),
        **_month("received_on"),
    ),
    # Open and delinquent invoices (Q1, P8): how many, and what they still owe in cents (their total
    # less every allocation to them). An allocation moves what its invoice owes.
    *(
        family
        for figure, where, columns in (
            ("invoice_open", _INVOICE_OPEN, ("status",)),
            ("invoice_delinquent", _INVOICE_DELINQUENT, ("status", "delinquent_on")),
        )
        for family in (
            Kept(INVOICES, f"'{figure}'", where=where, columns=columns),
            Kept(
                INVOICES,
                f"'{figure}_cents'",
                where=where,
                value=f"{_cents('R.total')} - {_ALLOCATED}",
                columns=(*columns, "total"),
            ),
            Kept(
                ALLOCATIONS,
                f"'{figure}_cents'",
                where=_of_invoice(where),
                value=f"-{_cents('R.amount')}",
                columns=("invoice_id", "amount"),
                recounted=False,
            ),
        )
    ),
)

# Devices serving more than one FSE (A2): the registry keeps one row per shared device
# (`registry.shared_links`, its triggers on the links), which is counted here like any table.
SHARED = "device_shared"


def _upsert(figure: str, bucket: str, delta: str, where: str) -> str:
    return (
        f'INSERT INTO {TABLE} ("figure", "bucket", "n") SELECT {figure}, {bucket}, {delta} WHERE {where} '  # nosec B608: SQL of this module's constants only, no user input
        f'ON CONFLICT ("figure", "bucket") DO UPDATE SET "n" = {TABLE}."n" + excluded."n";'
    )


def _moves(kept: list[Kept], vendor: str, row: str, delta: int) -> list[str]:
    return [
        _upsert(
            k.sql("figure", vendor, row),
            k.sql("bucket", vendor, row),
            f"{delta} * ({k.sql('value', vendor, row)})",
            k.sql("where", vendor, row),
        )
        for k in kept
    ]


def _tables() -> dict[str, list[Kept]]:
    tables: dict[str, list[Kept]] = {}
    for kept in KEPT:
        tables.setdefault(kept.table, []).append(kept)
    return tables


def _name(table: str, event: str = "") -> str:
    return f"fogcontrol_count_{table}{'_' + event if event else ''}"


def trigger_sql(vendor: str) -> list[str]:
    """The statements that (re)install every counting trigger."""
    statements = drop_sql(vendor)
    if vendor == "sqlite":
        for table, kept in _tables().items():
            columns = sorted({column for k in kept for column in k.columns})
            of = f"OF {', '.join(columns)} " if columns and all(k.columns for k in kept) else ""
            statements += [
                f"CREATE TRIGGER {_name(table, 'insert')} AFTER INSERT ON {table} BEGIN "
                f"{' '.join(_moves(kept, vendor, 'NEW', 1))} END",
                f"CREATE TRIGGER {_name(table, 'delete')} AFTER DELETE ON {table} BEGIN "
                f"{' '.join(_moves(kept, vendor, 'OLD', -1))} END",
                f"CREATE TRIGGER {_name(table, 'update')} AFTER UPDATE {of}ON {table} BEGIN "
                f"{' '.join(_moves(kept, vendor, 'OLD', -1) + _moves(kept, vendor, 'NEW', 1))} END",
            ]
        return statements
    # PostgreSQL: one trigger a statement, over its transition table, adding each count's moves up
    # before one upsert. A trigger a row would update the same few count rows once per row, and
    # within one transaction every update leaves a version the next must step over: a bulk load of
    # 100,000 establishments took longer than an hour (quadratic), where one statement a load is
    # linear. (PostgreSQL allows transition tables only on single-event triggers without a column
    # list: an UPDATE of other columns moves nothing, as its -1 and +1 cancel.)
    for table, kept in _tables().items():
        for event, moves in (
            ("insert", [(k, NEW_ROWS, 1) for k in kept]),
            ("delete", [(k, OLD_ROWS, -1) for k in kept]),
            ("update", [(k, OLD_ROWS, -1) for k in kept] + [(k, NEW_ROWS, 1) for k in kept]),
        ):
            referencing = {
                "insert": f"NEW TABLE AS {NEW_ROWS}",
                "delete": f"OLD TABLE AS {OLD_ROWS}",
                "update": f"OLD TABLE AS {OLD_ROWS} NEW TABLE AS {NEW_ROWS}",
            }[event]
            statements += [
                f"CREATE OR REPLACE FUNCTION {_name(table, event)}() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN {_statement_moves(moves)} RETURN NULL; END $$",
                f"CREATE TRIGGER {_name(table, event)} AFTER {event.upper()} ON {table} "
                f"REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {_name(table, event)}()",
            ]
    return statements


NEW_ROWS, OLD_ROWS = "fogcontrol_new", "fogcontrol_old"


def _statement_moves(moves: list[tuple[Kept, str, int]]) -> str:
    """One upsert of every count a statement moves: its rows' moves summed by figure and bucket
    (an upsert may touch a row once), the counts that end where they began left alone."""
    selects = " UNION ALL ".join(
        f"SELECT {k.sql('figure', 'postgresql', rows)} AS f, {k.sql('bucket', 'postgresql', rows)} AS b, "  # nosec B608: SQL of this module's constants only, no user input
        f"{delta} * ({k.sql('value', 'postgresql', rows)}) AS d FROM {rows} "
        f"WHERE {k.sql('where', 'postgresql', rows)}"
        for k, rows, delta in moves
    )
    return (
        f'INSERT INTO {TABLE} ("figure", "bucket", "n") SELECT f, b, SUM(d) FROM ({selects}) moves '  # nosec B608: SQL of this module's constants only, no user input
        f"WHERE f IS NOT NULL GROUP BY f, b HAVING SUM(d) <> 0 ORDER BY f, b "
        f'ON CONFLICT ("figure", "bucket") DO UPDATE SET "n" = {TABLE}."n" + excluded."n";'
    )


def drop_sql(vendor: str) -> list[str]:
    tables = list(_tables())
    if vendor == "sqlite":
        return [
            f"DROP TRIGGER IF EXISTS {_name(table, event)}"
            for table in tables
            for event in ("insert", "delete", "update")
        ]
    # The triggers a row of earlier versions (one a table) and those a statement (one an event). A
    # counted table may be gone already (its app migrated back first): drop only where it is.
    return [
        f"DO $$ BEGIN IF to_regclass('{table}') IS NOT NULL THEN "
        + " ".join(
            f"DROP TRIGGER IF EXISTS {name} ON {table}; DROP FUNCTION IF EXISTS {name}();"
            for name in (_name(table), *(_name(table, event) for event in ("insert", "delete", "update")))
        )
        + " END IF; END $$"
        for table in tables
    ]


def _recount_sql(vendor: str) -> list[str]:
    """The true counts, one INSERT ... SELECT a family, into a temporary table."""
    statements = []
    for k in (k for k in KEPT if k.recounted):
        figure, bucket, where, value = (
            k.sql(part, vendor, "R") for part in ("figure", "bucket", "where", "value")
        )
        statements.append(
            f"INSERT INTO fogcontrol_recount (figure, bucket, n) SELECT f, b, SUM(v) FROM "  # nosec B608: SQL of this module's constants only, no user input
            f"(SELECT {figure} AS f, {bucket} AS b, {value} AS v FROM {k.table} R WHERE {where}) t "
            "WHERE f IS NOT NULL GROUP BY f, b"
        )
    return statements


def recount(using: str = DEFAULT_DB_ALIAS) -> int:
    """Rebuild every kept count from the tables, set-based, in one transaction. Returns how many
    counts were wrong (0 while the triggers hold)."""
    connection = connections[using]
    vendor = connection.vendor
    with transaction.atomic(using=using), connection.cursor() as cursor:
        # Writers wait for the recount (their triggers' upserts block), so none is counted twice
        # or lost: PostgreSQL's table lock; on SQLite, the database's one writer taken first.
        if vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {TABLE} IN EXCLUSIVE MODE")
        else:
            cursor.execute(f"DELETE FROM {TABLE} WHERE 1 = 0")  # nosec B608: SQL of this module's constants only, no user input
        cursor.execute("DROP TABLE IF EXISTS fogcontrol_recount")
        cursor.execute("DROP TABLE IF EXISTS fogcontrol_recounted")
        cursor.execute(
            "CREATE TEMPORARY TABLE fogcontrol_recount (figure varchar(40), bucket varchar(10), n bigint)"
        )
        for statement in _recount_sql(vendor):
            cursor.execute(statement)
        # One row a figure and bucket (a family never repeats another's, but be sure).
        cursor.execute(
            "CREATE TEMPORARY TABLE fogcontrol_recounted AS SELECT figure, bucket, SUM(n) AS n "
            "FROM fogcontrol_recount GROUP BY figure, bucket"
        )
        cursor.execute(
            f"SELECT COUNT(*) FROM fogcontrol_recounted r LEFT JOIN {TABLE} k "  # nosec B608: SQL of this module's constants only, no user input
            "ON k.figure = r.figure AND k.bucket = r.bucket WHERE r.n <> 0 AND (k.n IS NULL OR k.n <> r.n)"
        )
        wrong = cursor.fetchone()[0]
        cursor.execute(
            f"SELECT COUNT(*) FROM {TABLE} k WHERE k.n <> 0 AND NOT EXISTS (SELECT 1 FROM "  # nosec B608: SQL of this module's constants only, no user input
            "fogcontrol_recounted r WHERE r.figure = k.figure AND r.bucket = k.bucket)"
        )
        wrong += cursor.fetchone()[0]
        if wrong:
            cursor.execute(f"DELETE FROM {TABLE}")  # nosec B608: SQL of this module's constants only, no user input
            cursor.execute(
                f'INSERT INTO {TABLE} ("figure", "bucket", "n") '  # nosec B608: SQL of this module's constants only, no user input
                "SELECT figure, bucket, n FROM fogcontrol_recounted WHERE n <> 0"
            )
        cursor.execute("DROP TABLE fogcontrol_recount")
        cursor.execute("DROP TABLE fogcontrol_recounted")
    return wrong


def install(using: str = DEFAULT_DB_ALIAS) -> int:
    """(Re)install the triggers and recount: after every `migrate` (see the module docstring)."""
    connection = connections[using]
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for statement in trigger_sql(connection.vendor):
            cursor.execute(statement)
    return recount(using)


def figure_total(*figures: str):
    """A table's row count as the sum of the kept counts of `figures` over every bucket: the pagers'
    total of a whole-table list (core/kept_totals.py, registered in apps.py). The figures named
    must count each row of the table exactly once (no condition). None while no count is kept
    (the triggers not installed yet, or the table empty): the pager then counts the table."""

    def total(using: str) -> int | None:
        from django.db.models import Sum

        from fogcontrol.dashboard.models import FigureCount

        rows = FigureCount.objects.using(using).filter(figure__in=figures)
        return rows.aggregate(n=Sum("n"))["n"]

    return total


def covers(user, *models) -> bool:
    """Do the kept counts stand for `user`'s lists of `models`? Only where its scope is everything."""
    return all(sees_everything(user, model) for model in models)


# How far ahead the permits' days and how far back the manifests' months are read: the permits
# panel's last band ends 90 days ahead (figures.EXPIRY_BANDS), the trend shows twelve months.
AHEAD_DAYS = 90
BEHIND_DAYS = 6  # this week's hearings: the week began at most six days ago (a Monday)


@dataclasses.dataclass(frozen=True)
class KeptCounts:
    rows: dict[tuple[str, str], int]

    def get(self, figure: str) -> int:
        return self.rows.get((figure, NO_BUCKET), 0)

    def between(self, figure: str, first: str, last: str) -> int:
        """The sum of `figure`'s buckets from `first` to `last` (ISO text, both included)."""
        return sum(n for (f, bucket), n in self.rows.items() if f == figure and first <= bucket <= last)

    def buckets(self, figure: str) -> dict[str, int]:
        return {bucket: n for (f, bucket), n in self.rows.items() if f == figure and bucket}


def month_of(day: dt.date) -> str:
    """The bucket of `day`'s month."""
    return f"{day.year:04d}-{day.month:02d}"


def dollars(cents: int) -> Decimal:
    """Kept cents as the amount in dollars the live sum gives (Decimal, two places)."""
    return Decimal(cents).scaleb(-2)


def kept_counts(user, today: dt.date) -> KeptCounts:
    """Every kept count the staff home shows on `today`, in one query (at most about 120 rows,
    whatever the size of the town), read once a request: kept on the request's user."""
    from django.db.models import Q

    from fogcontrol.dashboard.models import FigureCount

    cache = user.__dict__.setdefault("_kept_counts", {})
    if today not in cache:
        first_day = today - dt.timedelta(days=BEHIND_DAYS)
        last_day = today + dt.timedelta(days=AHEAD_DAYS)
        rows = FigureCount.objects.filter(
            Q(bucket=NO_BUCKET)
            | Q(figure__in=BY_DAY, bucket__gte=first_day.isoformat(), bucket__lte=last_day.isoformat())
            | Q(
                figure__in=BY_MONTH,
                bucket__gte=month_of(today.replace(year=today.year - 1, day=1)),
                bucket__lte=month_of(today),
            )
        ).values_list("figure", "bucket", "n")
        cache[today] = KeptCounts({(figure, bucket): n for figure, bucket, n in rows})
    return cache[today]
