"""Where a fee, charge or penalty stands on a day (Q1, Q2, P8, P9).

Q1 is the general rule: due on receipt of notice, delinquent if unpaid 45 days after the notice
date. P8 is the specific rule for administrative civil penalties ("except as otherwise provided"):
payment within 30 days of the order, and P9 makes a penalty delinquent 60 days a lien. Either way,
after delinquency the amount is a debt and the business licence is not issued or renewed (Q2).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.deadlines import fee_delinquency, penalty_lien_eligible, penalty_payment_due
from fogcontrol.rules.explain import Explanation, explain, fmt_date, say
from fogcontrol.rules.ruleset import Ruleset


@dataclasses.dataclass(frozen=True)
class FeeStatus:
    """A fee or charge on ``on`` (Q1, Q2). ``delinquent`` and the licence block are as of ``on``."""

    notice_date: dt.date
    due_on: dt.date
    last_day_to_pay: dt.date
    delinquent_from: dt.date
    paid_on: dt.date | None
    on: dt.date
    paid: bool
    paid_late: bool
    delinquent: bool
    blocks_licence_renewal: bool
    explanation: Explanation


def _paid_by(paid_on: dt.date | None, on: dt.date) -> bool:
    return paid_on is not None and paid_on <= on


def _payment_lines(paid_on: dt.date | None, on: dt.date, delinquent_from: dt.date) -> list[str]:
    if _paid_by(paid_on, on):
        assert paid_on is not None
        late = paid_on >= delinquent_from
        if late:
            return [say("Paid %(day)s, after it became delinquent.", day=fmt_date(paid_on))]
        return [say("Paid %(day)s, on time.", day=fmt_date(paid_on))]
    return [say("Unpaid on %(day)s.", day=fmt_date(on))]


def fee_status(
    *,
    notice_date: dt.date,
    paid_on: dt.date | None,
    on: dt.date,
    ruleset: Ruleset,
    calendar: TownCalendar,
) -> FeeStatus:
    """Q1 / Q2: due on receipt of notice (the notice date); delinquent from the day after the Q1
    deadline (notice + ``fee_delinquency_days``, moved under CCP §12a); while delinquent and unpaid,
    the business licence is not issued or renewed.
    """
    deadline = fee_delinquency(notice_date, ruleset=ruleset, calendar=calendar)
    assert deadline.due is not None and deadline.lapses_on is not None
    paid = _paid_by(paid_on, on)
    delinquent = not paid and on >= deadline.lapses_on
    paid_late = paid and paid_on is not None and paid_on >= deadline.lapses_on
    steps = [say("Due on receipt of the notice dated %(notice)s (Q1).", notice=fmt_date(notice_date))]
    steps.extend(deadline.explanation.steps[1:])
    steps.extend(_payment_lines(paid_on, on, deadline.lapses_on))
    if delinquent:
        steps.append(
            say(
                "Delinquent: the amount is a debt to the Town, may be assessed on the business licence, and "
                "no business licence is issued or renewed until it is paid (Q2)."
            )
        )
    return FeeStatus(
        notice_date=notice_date,
        due_on=notice_date,
        last_day_to_pay=deadline.due,
        delinquent_from=deadline.lapses_on,
        paid_on=paid_on,
        on=on,
        paid=paid,
        paid_late=paid_late,
        delinquent=delinquent,
        blocks_licence_renewal=delinquent,
        explanation=explain(("Q1", "Q2", "Counting days"), steps),
    )


@dataclasses.dataclass(frozen=True)
class PenaltyStatus:
    """An administrative civil penalty on ``on`` (P8, P9, Q2)."""

    issued_on: dt.date
    payment_due: dt.date
    delinquent_from: dt.date
    last_day_before_lien: dt.date
    lien_eligible_from: dt.date
    paid_on: dt.date | None
    on: dt.date
    paid: bool
    paid_late: bool
    delinquent: bool
    lien_eligible: bool
    blocks_licence_renewal: bool
    explanation: Explanation


def penalty_status(
    *,
    issued_on: dt.date,
    paid_on: dt.date | None,
    on: dt.date,
    ruleset: Ruleset,
    calendar: TownCalendar,
) -> PenaltyStatus:
    """P8 / P9 / Q2: payment due ``penalty_payment_days`` after the order is issued (final);
    delinquent from the day after; lien-eligible once delinquent ``lien_delinquency_days``
    (see ``fogcontrol.rules.deadlines.penalty_lien_eligible`` for the reading).

    ``issued_on`` is the day the order became final: an appealed order is final only when the
    appeal is decided, and the caller passes that date.
    """
    payment = penalty_payment_due(issued_on, ruleset=ruleset, calendar=calendar)
    lien = penalty_lien_eligible(issued_on, ruleset=ruleset, calendar=calendar)
    assert payment.due is not None and payment.lapses_on is not None
    assert lien.due is not None and lien.lapses_on is not None
    paid = _paid_by(paid_on, on)
    delinquent = not paid and on >= payment.lapses_on
    lien_eligible = not paid and on >= lien.lapses_on
    paid_late = paid and paid_on is not None and paid_on >= payment.lapses_on
    steps = list(lien.explanation.steps)
    steps.extend(_payment_lines(paid_on, on, payment.lapses_on))
    if lien_eligible:
        steps.append(say("The unpaid penalty may now be recorded as a lien with the County Recorder (P9)."))
    if delinquent:
        steps.append(
            say(
                "Delinquent: a debt to the Town; no business licence is issued or renewed until it is paid (Q2)."
            )
        )
    return PenaltyStatus(
        issued_on=issued_on,
        payment_due=payment.due,
        delinquent_from=payment.lapses_on,
        last_day_before_lien=lien.due,
        lien_eligible_from=lien.lapses_on,
        paid_on=paid_on,
        on=on,
        paid=paid,
        paid_late=paid_late,
        delinquent=delinquent,
        lien_eligible=lien_eligible,
        blocks_licence_renewal=delinquent,
        explanation=explain(("P8", "P9", "Q2", "Counting days"), steps),
    )
