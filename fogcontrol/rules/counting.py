"""The shared working of every deadline: the "Counting days" conventions as code.

- "N days after X": X + N calendar days; the start day is not counted; an act on that day is on time.
- Status changes (late, delinquent, expired, lien-eligible) take effect the day after the deadline.
- A calendar-day deadline for an act that falls on a closed day moves to the next business day
  (Code of Civil Procedure §12a). Minimums never move.
- Business / working days count only days the Town's offices are open.
- Annual duties fall on the anniversary of the last occurrence (February 29 -> February 28).

``fogcontrol.rules.deadlines`` builds one function per provision on these helpers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar, add_years
from fogcontrol.rules.explain import Explanation, explain, fmt_date, fmt_days

KIND_DEADLINE = "deadline"  # the last day an act is on time (moves under CCP §12a)
KIND_MINIMUM = "minimum"  # a minimum period: an earliest or latest date that never moves
KIND_WINDOW = "window"  # a range of permitted dates (L2)

CCP_12A = "Code of Civil Procedure §12a"


@dataclasses.dataclass(frozen=True)
class Deadline:
    """One computed deadline with the working that produced it.

    ``due`` is the last day the act is on time, after any §12a move (``nominal_due`` is before the
    move). ``lapses_on`` is the first day the status changes, the day after ``due``: for B6 it is
    the day the permit expires unless renewed; for N1, P8, Q1 the first day of delinquency; for P9
    the first day a lien may be recorded. ``earliest`` / ``latest`` bound windows and minimums
    (L2, B7, F5, G1); ``earliest_business_day`` is the first day within the window the offices are
    open (L2).
    """

    slug: str
    provision: str
    title: str
    kind: str
    start: dt.date
    due: dt.date | None
    nominal_due: dt.date | None
    moved: bool
    lapses_on: dt.date | None
    lapse_label: str
    earliest: dt.date | None
    earliest_business_day: dt.date | None
    latest: dt.date | None
    explanation: Explanation

    @property
    def key_date(self) -> dt.date:
        """The one date to show in a list: ``due``, else ``earliest``, else ``latest``."""
        for value in (self.due, self.earliest, self.latest):
            if value is not None:
                return value
        raise ValueError("deadline without any date")  # pragma: no cover - every rule sets one


# --- shared working ----------------------------------------------------------------------------


def start_line(start: dt.date, what: str) -> str:
    """The first line of every explanation: the start date and what it is (Counting days)."""
    return f"Start: {fmt_date(start)}, {what}."


def roll_forward_deadline(
    day: dt.date, calendar: TownCalendar, counted: str, steps: list[str]
) -> tuple[dt.date, bool]:
    """Apply CCP §12a to a calendar-day deadline and record why it moved (Counting days)."""
    rolled, reasons = calendar.roll_forward(day)
    if not reasons:
        steps.append(f"{counted} is {fmt_date(day)}, a business day: no move is needed.")
        return day, False
    steps.append(f"{counted} is {fmt_date(day)}.")
    steps.extend(reasons)
    steps.append(
        f"A deadline for an act that falls on a day the offices are closed moves to the next "
        f"business day ({CCP_12A}): {fmt_date(rolled)}."
    )
    return rolled, True


def make_deadline(
    *,
    slug: str,
    provisions: tuple[str, ...],
    title: str,
    start: dt.date,
    steps: list[str],
    kind: str = KIND_DEADLINE,
    due: dt.date | None = None,
    nominal_due: dt.date | None = None,
    moved: bool = False,
    lapse_label: str = "",
    lapses: bool = True,
    earliest: dt.date | None = None,
    earliest_business_day: dt.date | None = None,
    latest: dt.date | None = None,
) -> Deadline:
    """Assemble a ``Deadline``; ``lapses_on`` is the day after ``due`` (Counting days: status
    changes take effect the day after the deadline)."""
    lapses_on = due + ONE_DAY if (due is not None and lapses) else None
    if lapses_on is not None and lapse_label:
        steps.append(f"{lapse_label} from {fmt_date(lapses_on)}, the day after the deadline.")
    return Deadline(
        slug=slug,
        provision=provisions[0],
        title=title,
        kind=kind,
        start=start,
        due=due,
        nominal_due=nominal_due,
        moved=moved,
        lapses_on=lapses_on,
        lapse_label=lapse_label,
        earliest=earliest,
        earliest_business_day=earliest_business_day,
        latest=latest,
        explanation=explain(provisions, steps),
    )


def calendar_days_deadline(
    *,
    slug: str,
    provision: str,
    title: str,
    start: dt.date,
    start_what: str,
    days: int,
    act: str,
    lapse_label: str,
    calendar: TownCalendar,
) -> Deadline:
    """ "N days after X": X + N calendar days, moved under CCP §12a (Counting days)."""
    steps = [start_line(start, start_what)]
    nominal = start + dt.timedelta(days=days)
    steps.append(
        f"{provision} allows {fmt_days(days)}; the start day is not counted, so day {days} is {fmt_date(nominal)}."
    )
    due, moved = roll_forward_deadline(nominal, calendar, f"Day {days}", steps)
    steps.append(f"{act} on or before {fmt_date(due)} is on time.")
    return make_deadline(
        slug=slug,
        provisions=(provision, "Counting days"),
        title=title,
        start=start,
        steps=steps,
        due=due,
        nominal_due=nominal,
        moved=moved,
        lapse_label=lapse_label,
    )


def business_days_deadline(
    *,
    slug: str,
    provision: str,
    title: str,
    start: dt.date,
    start_what: str,
    days: int,
    unit: str,
    act: str,
    lapse_label: str,
    calendar: TownCalendar,
) -> Deadline:
    """N business (working) days after X: only days the offices are open count (Counting days)."""
    steps = [start_line(start, start_what)]
    counted = calendar.business_days_after(start, days)
    due = counted[-1] if counted else start
    steps.append(
        f"{provision} allows {fmt_days(days, unit)}: only days the Town's offices are open count, "
        f"and the start day is not counted."
    )
    skipped = []
    day = start + ONE_DAY
    while day < due:
        reason = calendar.closed_reason(day)
        if reason is not None:
            skipped.append(f"{fmt_date(day)} ({reason})")
        day += ONE_DAY
    if skipped:
        steps.append("Not counted: " + "; ".join(skipped) + ".")
    if counted:
        steps.append(f"The {unit}s counted are: " + "; ".join(fmt_date(d) for d in counted) + ".")
    steps.append(f"{act} on or before {fmt_date(due)} is on time.")
    return make_deadline(
        slug=slug,
        provisions=(provision, "Counting days"),
        title=title,
        start=start,
        steps=steps,
        due=due,
        nominal_due=due,
        lapse_label=lapse_label,
    )


def anniversary_deadline(
    *,
    slug: str,
    provision: str,
    title: str,
    start: dt.date,
    start_what: str,
    years: int,
    act: str,
    lapse_label: str,
    calendar: TownCalendar,
) -> Deadline:
    """An annual duty: due on the anniversary of the last occurrence, moved under CCP §12a."""
    steps = [start_line(start, start_what)]
    nominal, leap = add_years(start, years)
    span = "1 year" if years == 1 else f"{years} years"
    steps.append(
        f"{provision}: {span}; an annual duty falls due on the anniversary of the last occurrence, "
        f"{fmt_date(nominal)}."
    )
    if leap:
        steps.append(
            f"The start date is February 29 and {nominal.year} is not a leap year, "
            f"so the anniversary is taken as February 28, {nominal.year}."
        )
    due, moved = roll_forward_deadline(nominal, calendar, "The anniversary", steps)
    steps.append(f"{act} on or before {fmt_date(due)} is on time.")
    return make_deadline(
        slug=slug,
        provisions=(provision, "Counting days"),
        title=title,
        start=start,
        steps=steps,
        due=due,
        nominal_due=nominal,
        moved=moved,
        lapse_label=lapse_label,
    )
