"""Invoice dates and the sums billing makes (Q1, P8, P9, N1, Q2, P12).

An invoice is a notice of amounts due. Its kind decides its dates:

- **Q1** (fees and charges, the general rule): due on receipt of the notice (the notice date);
  delinquent if unpaid ``fee_delinquency_days`` after the notice date;
- **P8** (administrative civil penalties): paid within ``penalty_payment_days`` of the order
  becoming final; delinquent from the day after; a lien may be recorded once delinquent
  ``lien_delinquency_days`` (P9);
- **N1** (clean-up and repair costs, and fines passed on under N2): paid within
  ``cost_recovery_payment_days`` of invoicing.

Each is a payment to the Town, so a last day on a weekend, a Town holiday or a closure day moves
to the next business day (Counting days, kind 1: CCP §12a, §12b). Money is ``Decimal`` throughout,
rounded to the cent half up only where an amount is divided.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.deadlines import (
    cost_recovery_due,
    fee_delinquency,
    penalty_lien_eligible,
    penalty_payment_due,
)
from fogcontrol.rules.explain import Explanation, explain, fmt_date, say
from fogcontrol.rules.ruleset import Ruleset

CENT = Decimal("0.01")

KIND_Q1 = "Q1"
KIND_P8 = "P8"
KIND_N1 = "N1"
INVOICE_KINDS = (KIND_Q1, KIND_P8, KIND_N1)


def cents(amount: Decimal) -> Decimal:
    """An amount rounded to the cent, half up (the only rounding billing does: Q1, N1, P8 amounts)."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def split_evenly(amount: Decimal, parts: int) -> list[Decimal]:
    """``amount`` divided into ``parts`` shares in cents that add up exactly to it (the remainder
    cents go to the first shares). For a cost shared by several debtors (I2, N1)."""
    if parts < 1:
        raise ValueError("split into at least one share")
    total = cents(amount)
    share = (total / parts).quantize(CENT, rounding=ROUND_HALF_UP)
    shares = [share] * parts
    shares[0] += total - share * parts
    return shares


@dataclasses.dataclass(frozen=True)
class InvoiceDates:
    """The dates an invoice states (Q1, P8, N1) and, for a penalty, the first day of a lien (P9)."""

    kind: str
    notice_date: dt.date
    due_on: dt.date  # Q1: on receipt (the notice date); P8, N1: the last day to pay
    last_day_to_pay: dt.date  # the last day a payment is on time (moved to a business day)
    delinquent_from: dt.date  # the first day the unpaid invoice is delinquent (Q2: a debt)
    lien_eligible_from: dt.date | None  # P9, penalties only
    explanation: Explanation


def invoice_dates(
    *, kind: str, notice_date: dt.date, ruleset: Ruleset, calendar: TownCalendar
) -> InvoiceDates:
    """Q1 / P8 / P9 / N1: the due date and the first day of delinquency of an invoice dated
    ``notice_date`` (for a penalty, the day its order became final), counted per "Counting days"
    (a payment owed to the Town: a last day on a closed day moves to the next business day)."""
    lien_from = None
    if kind == KIND_Q1:
        deadline = fee_delinquency(notice_date, ruleset=ruleset, calendar=calendar)
        due_on = notice_date
        steps = [say("Due on receipt of the notice dated %(notice)s (Q1).", notice=fmt_date(notice_date))]
        steps.extend(deadline.explanation.steps[1:])
        provisions: tuple[str, ...] = ("Q1", "Q2", "Counting days")
    elif kind == KIND_P8:
        deadline = penalty_payment_due(notice_date, ruleset=ruleset, calendar=calendar)
        lien = penalty_lien_eligible(notice_date, ruleset=ruleset, calendar=calendar)
        lien_from = lien.lapses_on
        due_on = deadline.due
        steps = list(lien.explanation.steps)
        provisions = ("P8", "P9", "Q2", "Counting days")
    elif kind == KIND_N1:
        deadline = cost_recovery_due(notice_date, ruleset=ruleset, calendar=calendar)
        due_on = deadline.due
        steps = list(deadline.explanation.steps)
        provisions = ("N1", "Q2", "Counting days")
    else:
        raise ValueError(f"Unknown invoice kind {kind!r}: use one of {', '.join(INVOICE_KINDS)}.")
    assert deadline.due is not None and deadline.lapses_on is not None and due_on is not None
    steps.append(
        say("Unpaid, the invoice is delinquent from %(day)s (Q2).", day=fmt_date(deadline.lapses_on))
    )
    return InvoiceDates(
        kind=kind,
        notice_date=notice_date,
        due_on=due_on,
        last_day_to_pay=deadline.due,
        delinquent_from=deadline.lapses_on,
        lien_eligible_from=lien_from,
        explanation=explain(provisions, steps),
    )


@dataclasses.dataclass(frozen=True)
class Allocation:
    """An amount of a payment (or credit) applied to one invoice."""

    invoice: int
    amount: Decimal


def allocate_oldest_first(
    amount: Decimal, open_invoices: Sequence[tuple[int, Decimal]]
) -> tuple[list[Allocation], Decimal]:
    """Q1, P8, N1: apply ``amount`` to ``open_invoices`` ((id, amount outstanding), oldest first), each up to
    what it still owes; returns the allocations and what is left over (held as credit). No
    allocation exceeds its invoice's outstanding amount; the allocations and the remainder add up
    exactly to ``amount``."""
    left = cents(amount)
    allocations = []
    for invoice, outstanding in open_invoices:
        if left <= 0:
            break
        applied = min(left, outstanding)
        if applied > 0:
            allocations.append(Allocation(invoice=invoice, amount=applied))
            left -= applied
    return allocations, left


def aging_buckets(ruleset: Ruleset) -> tuple[tuple[str, int, int | None], ...]:
    """The aging columns of what is owed, in days past the notice date, cut where the ordinance's
    periods end: a penalty's payment period (P8), fees' delinquency (Q1), a lien (P9)."""
    cuts = sorted({ruleset.penalty_payment_days, ruleset.fee_delinquency_days, ruleset.lien_delinquency_days})
    buckets, low = [], 0
    for high in cuts:
        buckets.append((f"{low}-{high}", low, high))
        low = high + 1
    buckets.append((f"over {cuts[-1]}", low, None))
    return tuple(buckets)


def aging_bucket(days_past_notice: int, ruleset: Ruleset) -> str:
    """The aging column of an amount ``days_past_notice`` days after its notice date (Q1, P8, P9)."""
    buckets = aging_buckets(ruleset)
    for label, low, high in buckets:
        if days_past_notice >= low and (high is None or days_past_notice <= high):
            return label
    return buckets[0][0]


def total(amounts: Iterable[Decimal]) -> Decimal:
    """The exact sum of amounts in dollars and cents, never a float (Q1, P12 totals)."""
    return sum((Decimal(amount) for amount in amounts), Decimal("0.00"))
