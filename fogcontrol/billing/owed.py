"""Billing's answer to "is anything owed?" (fogcontrol.core.owed), registered in AppConfig.ready():
everything the establishment owes the Town, whether or not billing has got to it yet (H3, Q1, Q2):

- every open invoice with what it still owes, delinquent from its delinquency date (Q1, P8, N1);
- every charge picked up but not yet invoiced;
- every producer record owed and not yet picked up by the nightly pass (a penalty order issued this
  afternoon blocks a compliance schedule agreement tonight, H3), read through the source adapters;
  and a record whose invoice was cancelled or written off when its producer has it owed again
  (permit fees, D6 charges: ``on_released``).

Each amount names the provision it is billed under (Q1, P8, N1), its label the one it is owed
under (B6, D6, O2, ...). Amounts not yet on an invoice are counted from the day they were assessed (for a penalty, the day
its order became final), as their invoice would be (Q1, P8, N1). A fixed number of queries: one that
asks which of the invoices, the charges and each source hold anything for the establishment (most
establishments owe nothing: issue 16), then one for each that does; the ruleset and calendar once
when needed, none when the caller passes them (the obligations list).
Enforcement asks it before a CSA (H3), permits before a renewal (B6, Q2), records for the FSE's
obligations list (Q1)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.db.models import Exists, Q, QuerySet

from fogcontrol.billing.amounts import with_invoice_amounts
from fogcontrol.billing.models import Charge, Invoice
from fogcontrol.billing.sources import sources
from fogcontrol.core.owed import OwedAmount
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.billing import invoice_dates
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.explain import explain, say
from fogcontrol.rules.ruleset import Ruleset


def _invoice_text(invoice: Invoice) -> str:
    return (invoice.explanation or {}).get("text", "")


class _Dating:
    """The invoice dates of amounts not yet invoiced, with the rules read once."""

    def __init__(self, on: dt.date, ruleset: Ruleset | None = None, calendar: TownCalendar | None = None):
        self.on = on
        self._rules = (ruleset, calendar) if ruleset is not None and calendar is not None else None

    def owed(
        self, *, label: str, amount: Decimal, provision: str, kind: str, assessed_on: dt.date
    ) -> OwedAmount:
        if self._rules is None:
            self._rules = (ruleset_on(self.on), town_calendar())
        ruleset, calendar = self._rules
        dates = invoice_dates(kind=kind, notice_date=assessed_on, ruleset=ruleset, calendar=calendar)
        delinquent = self.on >= dates.delinquent_from
        steps = [
            say(
                "Not yet on an invoice: counted from the day it was assessed (%(on)s).",
                on=assessed_on.isoformat(),
            ),
            *dates.explanation.steps,
        ]
        if delinquent:
            steps.append(
                say(
                    "Delinquent: the amount is a debt to the Town, may be assessed on the business licence, and "
                    "no business licence is issued or renewed until it is paid (Q2)."
                )
            )
        working = explain(dates.explanation.provisions, steps)
        return OwedAmount(
            label=label,
            amount=amount,
            provision=provision,
            delinquent=delinquent,
            delinquent_since=dates.delinquent_from if delinquent else None,
            due_on=dates.last_day_to_pay,
            explanation=working.text(),
            working=working,
        )


def _pending_records(adapter, establishment_id: int) -> QuerySet:
    """The source's records owed by the establishment and not on a live charge: not picked up yet,
    or released back to a producer that keeps them owed."""
    released = (Invoice.Status.CANCELLED, Invoice.Status.WRITTEN_OFF)
    live = Charge.objects.filter(source=adapter.key, source_id__isnull=False)
    if adapter.on_released is not None:
        live = live.filter(Q(invoice__isnull=True) | ~Q(invoice__status__in=released))
    records = adapter.uncharged().filter(**{adapter.establishment_field: establishment_id})
    return records.exclude(pk__in=live.values("source_id"))


def _pending(adapter, records: QuerySet, dating: _Dating) -> list[OwedAmount]:
    owed = []
    for record in records:
        row = adapter.to_row(record)
        label = adapter.owed_label(record) if adapter.owed_label else row.description
        owed.append(dating.owed(label=label, amount=row.amount, provision=row.invoice_kind,
                                kind=row.invoice_kind, assessed_on=row.assessed_on))  # fmt: skip
    return owed


# The query that asks which parts hold anything, compiled once per database and set of sources (the
# adapters themselves, so a source registered again is compiled again): its
# SQL is the same for every establishment but the id, and building it through the ORM (seven
# subqueries) cost more CPU than running it (issue 16). The id goes where this sentinel went.
# So a source's ``uncharged()`` must not depend on the day or the user (billing/sources.py):
# its SQL is kept.
_SENTINEL = -7_312_019_457
_compiled: dict[tuple, tuple[str, tuple, tuple[int, ...]]] = {}


def _parts(establishment_id: int) -> dict[str, QuerySet]:
    """What the establishment may owe, each part a queryset: open invoices, charges not on an
    invoice, and each source's records not on a live charge (in the order the amounts are listed)."""
    return {
        "invoices": Invoice.objects.filter(establishment_id=establishment_id, status=Invoice.Status.OPEN),
        "charges": Charge.objects.filter(establishment_id=establishment_id, invoice__isnull=True),
        **{f"source_{i}": _pending_records(adapter, establishment_id) for i, adapter in enumerate(sources())},
    }


def _holding(establishment_id: int) -> set[str]:
    """Which of ``_parts`` hold a row: one query (an EXISTS each), however many parts."""
    key = (connection.alias, connection.vendor, tuple(sources()))
    if key not in _compiled:
        parts = _parts(_SENTINEL)
        query = (
            FoodServiceEstablishment.objects.filter(pk=_SENTINEL)
            .order_by()
            .values(**{name: Exists(queryset) for name, queryset in parts.items()})
        )
        sql, params = query.query.sql_with_params()
        _compiled[key] = (sql, tuple(params), tuple(i for i, p in enumerate(params) if p == _SENTINEL))
    sql, params, at = _compiled[key]
    params = [establishment_id if i in at else param for i, param in enumerate(params)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        names = [column[0] for column in cursor.description]
    return {name for name, holds in zip(names, row or (), strict=False) if holds}


def owed_by_establishment(
    establishment_id: int,
    on: dt.date,
    *,
    ruleset: Ruleset | None = None,
    calendar: TownCalendar | None = None,
) -> list[OwedAmount]:
    """Everything the establishment owes on ``on``: open invoices, charges not invoiced, and the
    producers' records not yet picked up; oldest first within each. ``ruleset`` (in force on ``on``)
    and ``calendar``, when the caller has them, are not read again."""
    owed = []
    # The ORM took an establishment for its id; the compiled query takes the id itself.
    establishment_id = getattr(establishment_id, "pk", establishment_id)
    holding = _holding(establishment_id)
    if not holding:
        return owed
    parts = _parts(establishment_id)
    invoices = (
        with_invoice_amounts(parts["invoices"]).order_by("notice_date", "pk") if "invoices" in holding else []
    )
    for invoice in invoices:
        if invoice.outstanding <= 0:
            continue
        delinquent = on >= invoice.delinquent_from
        owed.append(
            OwedAmount(
                label=f"Invoice {invoice.number}",
                amount=invoice.outstanding,
                provision=invoice.kind,
                delinquent=delinquent,
                delinquent_since=invoice.delinquent_from if delinquent else None,
                due_on=invoice.last_day_to_pay,
                explanation=_invoice_text(invoice),
                working=invoice.explanation or None,
            )
        )
    dating = _Dating(on, ruleset, calendar)
    for charge in parts["charges"].order_by("assessed_on", "pk") if "charges" in holding else []:
        owed.append(dating.owed(label=charge.description, amount=charge.amount, provision=charge.invoice_kind,
                                kind=charge.invoice_kind, assessed_on=charge.assessed_on))  # fmt: skip
    for i, adapter in enumerate(sources()):
        if f"source_{i}" in holding:
            owed.extend(_pending(adapter, parts[f"source_{i}"], dating))
    return owed
