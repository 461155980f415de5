"""The shared working of every deadline: the "Counting days" conventions as code (revised 2026-11-30).

- "N days after X": X + N calendar days; the start day is not counted; an act on that day is on time.
- Status changes (late, delinquent, expired, lien-eligible) take effect the day after the deadline.
- Three kinds of calendar-day limits, read differently:
  1. What a person owes the Town (a payment, a filing, a report, an appeal, training): a last day
     on a weekend or Town holiday moves to the next business day (Code of Civil Procedure §12a);
     Town closure days (9/80 Fridays) move only acts done at the Town's office (CCP §12b).
  2. What the Town itself must do by a maximum (L2's 45 days, L3, L4, P5, D8): never moves later;
     the latest date the Town may use is the last business day on or before the limit.
  3. Minimums (L2's 15-day floor, B7, G1): never move earlier; the earliest usable date is the
     first business day on or after the floor.
- Maintenance frequencies (E1, E2) are calendar days at the establishment and never move; a grace
  period (ruleset ``service_grace_days``, default 0) only delays "overdue".
- Business / working days (J2, M3) count only days the Town's offices are open.
- Annual duties fall on the anniversary of the last occurrence (February 29 -> February 28).

``fogcontrol.rules.deadlines`` builds one function per provision on these helpers. Every
explanation says which kind of limit applied.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar, add_years
from fogcontrol.rules.counting_words import (  # noqa: F401  (the kinds of limit and their lines: callers import them from here)
    CCP_12A,
    CCP_12B,
    LIMIT_BUSINESS_DAYS,
    LIMIT_LABELS,
    LIMIT_MAINTENANCE,
    LIMIT_MINIMUM,
    LIMIT_OWED,
    LIMIT_TOWN_MAXIMUM,
    business_days_kind_line,
    days_counted_line,
    maintenance_kind_line,
    minimum_kind_line,
    on_time_line,
    owed_kind_line,
    town_maximum_kind_line,
    within_limit_line,
)
from fogcontrol.rules.explain import Explanation, Sentence, explain, fmt_date, fmt_days, joined, say

KIND_DEADLINE = "deadline"  # the last day an act is on time
KIND_MINIMUM = "minimum"  # a minimum period: an earliest date (or a latest notice date) that never moves
KIND_WINDOW = "window"  # a range of permitted dates (L2)


@dataclasses.dataclass(frozen=True)
class Deadline:
    """One computed deadline with the working that produced it.

    ``due`` is the last day the act is on time, after any move (``nominal_due`` is before the
    move): moved later for what a person owes (CCP §12a, §12b), moved earlier to the last business
    day for the Town's own maximum, never moved for a maintenance frequency. ``lapses_on`` is the
    first day the status changes, the day after ``due`` (plus ``grace_days`` for maintenance): for
    B6 the day the permit expires unless renewed; for N1, P8, Q1 the first day of delinquency; for
    P9 the first day a lien may be recorded; for E1 the first day the device is overdue.
    ``earliest`` / ``latest`` bound windows and minimums (L2, B7, F5, G1); ``earliest`` is the floor
    itself and ``earliest_business_day`` the first business day on or after it, the earliest usable
    date. ``counting`` names the kinds of limit applied (``LIMIT_*``); ``office_act`` is True when
    the act is done at the Town's office, so closure days move it too (CCP §12b).
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
    counting: tuple[str, ...] = ()
    office_act: bool = False
    grace_days: int = 0

    @property
    def key_date(self) -> dt.date:
        """The one date to show in a list: ``due``, else ``earliest``, else ``latest``."""
        for value in (self.due, self.earliest, self.latest):
            if value is not None:
                return value
        raise ValueError("deadline without any date")  # pragma: no cover - every rule sets one

    @property
    def counting_labels(self) -> tuple[str, ...]:
        """The kinds of limit applied, in a clerk's words (Counting days)."""
        return tuple(LIMIT_LABELS[name] for name in self.counting)


# --- shared working ----------------------------------------------------------------------------


def start_line(start: dt.date, what: str) -> Sentence:
    """The first line of every explanation: the start date and what it is (Counting days)."""
    return say("Start: %(start)s, %(what)s.", start=fmt_date(start), what=what)


def roll_forward_deadline(
    day: dt.date, calendar: TownCalendar, counted: str, steps: list[str], *, at_office: bool = True
) -> tuple[dt.date, bool]:
    """Counting days, kind 1: move the last day of an act off a holiday (CCP §12a) and, for an act
    at the Town's office, off a closure day (CCP §12b); record why it moved."""
    rolled, reasons = calendar.roll_forward(day, at_office=at_office)
    if not reasons:
        closure = None if at_office else calendar.closure_reason(day)
        if closure is not None:
            steps.append(
                say(
                    "%(counted)s is %(day)s, %(closure)s; a closure moves only acts done at the Town's "
                    "office (%(ccp_12b)s), so no move is needed.",
                    counted=counted,
                    day=fmt_date(day),
                    closure=closure,
                    ccp_12b=CCP_12B,
                )
            )
        else:
            steps.append(
                say(
                    "%(counted)s is %(day)s, a business day: no move is needed.",
                    counted=counted,
                    day=fmt_date(day),
                )
            )
        return day, False
    steps.append(say("%(counted)s is %(day)s.", counted=counted, day=fmt_date(day)))
    steps.extend(reasons)
    cited = CCP_12A
    if at_office and any(calendar.closure_reason(day + ONE_DAY * n) for n in range(len(reasons))):
        cited = joined([CCP_12A, CCP_12B], ", ")
    landing = (
        say("the next business day")
        if at_office
        else say("the next day that is not a weekend day or holiday")
    )
    steps.append(
        say(
            "The last day therefore moves to %(landing)s (%(cited)s): %(day)s.",
            landing=landing,
            cited=cited,
            day=fmt_date(rolled),
        )
    )
    closure = None if at_office else calendar.closure_reason(rolled)
    if closure is not None:
        steps.append(
            say(
                "%(day)s is %(closure)s; that does not move it again, since the act is not done "
                "at the Town's office (%(ccp_12b)s).",
                day=fmt_date(rolled),
                closure=closure,
                ccp_12b=CCP_12B,
            )
        )
    return rolled, True


def roll_back_limit(
    day: dt.date, calendar: TownCalendar, counted: str, steps: list[str], *, after: dt.date | None = None
) -> tuple[dt.date, bool]:
    """Counting days, kind 2: the latest date the Town may use is the last business day on or
    before its maximum; record why it is earlier. Never later than ``day``. When no business day
    lies after ``after`` (the start) and on or before the limit, the limit itself stands: the
    Town must act by then even though its offices are closed."""
    latest, reasons = calendar.roll_back(day)
    if not reasons:
        steps.append(
            say(
                "%(counted)s is %(day)s, a business day: the Town may use it.",
                counted=counted,
                day=fmt_date(day),
            )
        )
        return day, False
    steps.append(say("%(counted)s is %(day)s.", counted=counted, day=fmt_date(day)))
    steps.extend(reasons)
    if after is not None and latest <= after:
        steps.append(
            say(
                "No business day lies between %(after)s and %(day)s: the limit itself, "
                "%(day)s, is the latest date; it never moves later.",
                after=fmt_date(after),
                day=fmt_date(day),
            )
        )
        return day, False
    steps.append(
        say(
            "The limit never moves later: the latest date the Town may use is the last business day "
            "before it, %(latest)s.",
            latest=fmt_date(latest),
        )
    )
    return latest, True


def first_usable_day(floor: dt.date, calendar: TownCalendar, counted: str, steps: list[str]) -> dt.date:
    """Counting days, kind 3: the first business day on or after a minimum's floor. Never earlier
    than ``floor``; the floor itself does not move."""
    first, reasons = calendar.roll_forward(floor)
    if not reasons:
        steps.append(
            say(
                "%(counted)s is %(day)s, a business day: it is the earliest usable date.",
                counted=counted,
                day=fmt_date(floor),
            )
        )
        return floor
    steps.append(
        say("%(counted)s is %(day)s. The floor never moves earlier.", counted=counted, day=fmt_date(floor))
    )
    steps.extend(reasons)
    steps.append(
        say("The earliest usable date is the first business day after it: %(first)s.", first=fmt_date(first))
    )
    return first


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
    counting: tuple[str, ...] = (),
    office_act: bool = False,
    grace_days: int = 0,
    worded: bool = True,
) -> Deadline:
    """Assemble a ``Deadline``; ``lapses_on`` is the day after ``due``, plus any grace period
    (Counting days: status changes take effect the day after the deadline). ``worded=False``: no
    step is added (a caller that keeps only the dates)."""
    lapses_on = due + ONE_DAY + dt.timedelta(days=grace_days) if (due is not None and lapses) else None
    if lapses_on is not None and lapse_label and worded:
        if grace_days:
            steps.append(
                say(
                    "%(lapse)s from %(day)s, the day after the due date and the grace period of %(grace)s.",
                    lapse=lapse_label,
                    day=fmt_date(lapses_on),
                    grace=fmt_days(grace_days),
                )
            )
        else:
            steps.append(
                say(
                    "%(lapse)s from %(day)s, the day after the deadline.",
                    lapse=lapse_label,
                    day=fmt_date(lapses_on),
                )
            )
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
        counting=counting,
        office_act=office_act,
        grace_days=grace_days,
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
    what: str = "an act",
    office_act: bool = True,
) -> Deadline:
    """Counting days, kind 1: "N days after X" for what a person owes the Town: X + N calendar days,
    moved to the next business day (CCP §12a; closure days too for an act at the office, §12b)."""
    steps = [start_line(start, start_what)]
    nominal = start + dt.timedelta(days=days)
    steps.append(
        say(
            "%(provision)s allows %(allowed)s; the start day is not counted, so day %(days)s is %(day)s.",
            provision=provision,
            allowed=fmt_days(days),
            days=days,
            day=fmt_date(nominal),
        )
    )
    steps.append(owed_kind_line(what, at_office=office_act))
    due, moved = roll_forward_deadline(
        nominal, calendar, say("Day %(days)s", days=days), steps, at_office=office_act
    )
    steps.append(on_time_line(act, due))
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
        counting=(LIMIT_OWED,),
        office_act=office_act,
    )


def town_maximum_deadline(
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
    """Counting days, kind 2: "no more than N days after X" for what the Town itself must do:
    the limit is X + N calendar days and ``due`` is the last business day on or before it."""
    steps = [start_line(start, start_what)]
    limit = start + dt.timedelta(days=days)
    steps.append(
        say(
            "%(provision)s allows no more than %(allowed)s; the start day is not counted, so day %(days)s "
            "is %(day)s.",
            provision=provision,
            allowed=fmt_days(days),
            days=days,
            day=fmt_date(limit),
        )
    )
    steps.append(town_maximum_kind_line())
    latest, moved = roll_back_limit(limit, calendar, say("Day %(days)s", days=days), steps, after=start)
    steps.append(within_limit_line(act, latest))
    return make_deadline(
        slug=slug,
        provisions=(provision, "Counting days"),
        title=title,
        start=start,
        steps=steps,
        due=latest,
        nominal_due=limit,
        moved=moved,
        lapse_label=lapse_label,
        latest=latest,
        counting=(LIMIT_TOWN_MAXIMUM,),
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
        say(
            "%(provision)s allows %(allowed)s: only days the Town's offices are open count, "
            "and the start day is not counted.",
            provision=provision,
            allowed=fmt_days(days, unit),
        )
    )
    steps.append(business_days_kind_line())
    skipped = []
    day = start + ONE_DAY
    while day < due:
        reason = calendar.closed_reason(day)
        if reason is not None:
            skipped.append(say("%(day)s (%(reason)s)", day=fmt_date(day), reason=reason))
        day += ONE_DAY
    if skipped:
        steps.append(say("Not counted: %(days)s.", days=joined(skipped)))
    if counted:
        steps.append(days_counted_line(unit, joined([fmt_date(d) for d in counted])))
    steps.append(on_time_line(act, due))
    return make_deadline(
        slug=slug,
        provisions=(provision, "Counting days"),
        title=title,
        start=start,
        steps=steps,
        due=due,
        nominal_due=due,
        lapse_label=lapse_label,
        counting=(LIMIT_BUSINESS_DAYS,),
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
    limit: str = LIMIT_OWED,
    what: str = "an act",
    office_act: bool = True,
) -> Deadline:
    """An annual duty: due on the anniversary of the last occurrence. What a person owes (B6, C4)
    moves later under CCP §12a (and §12b at the office); the Town's own maximum (D8) never moves
    later: its latest date is the last business day on or before the anniversary."""
    steps = [start_line(start, start_what)]
    nominal, leap = add_years(start, years)
    span = say("1 year") if years == 1 else say("%(years)s years", years=years)
    steps.append(
        say(
            "%(provision)s: %(span)s; an annual duty falls due on the anniversary of the last occurrence, "
            "%(day)s.",
            provision=provision,
            span=span,
            day=fmt_date(nominal),
        )
    )
    if leap:
        steps.append(
            say(
                "The start date is February 29 and %(year)s is not a leap year, "
                "so the anniversary is taken as February 28, %(year)s.",
                year=nominal.year,
            )
        )
    if limit == LIMIT_TOWN_MAXIMUM:
        steps.append(town_maximum_kind_line())
        due, moved = roll_back_limit(nominal, calendar, say("The anniversary"), steps, after=start)
        steps.append(within_limit_line(act, due))
        office_act = False
    else:
        steps.append(owed_kind_line(what, at_office=office_act))
        due, moved = roll_forward_deadline(
            nominal, calendar, say("The anniversary"), steps, at_office=office_act
        )
        steps.append(on_time_line(act, due))
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
        latest=due if limit == LIMIT_TOWN_MAXIMUM else None,
        counting=(limit,),
        office_act=office_act,
    )


def maintenance_due_deadline(
    *,
    slug: str,
    provisions: tuple[str, ...],
    title: str,
    start: dt.date,
    start_what: str,
    days: int,
    act: str,
    lapse_label: str,
    grace_days: int = 0,
    worded: bool = True,
) -> Deadline:
    """E1 / E2: a maintenance duty falls due ``days`` calendar days after the last service and never
    moves (Counting days). ``grace_days`` (ruleset ``service_grace_days``) only delays the first day
    the device shows overdue: due + grace + 1. ``worded=False``: the same dates, with no steps."""
    if days < 1:
        raise ValueError("frequency_days: a service frequency must be 1 day or more")
    if grace_days < 0:
        raise ValueError("service_grace_days: a grace period cannot be negative")
    due = start + dt.timedelta(days=days)
    steps = _maintenance_steps(start, start_what, days, due, act, grace_days) if worded else []
    return make_deadline(
        slug=slug,
        provisions=(*provisions, "Counting days"),
        title=title,
        start=start,
        steps=steps,
        due=due,
        nominal_due=due,
        lapse_label=lapse_label,
        counting=(LIMIT_MAINTENANCE,),
        grace_days=grace_days,
        worded=worded,
    )


def _maintenance_steps(
    start: dt.date, start_what: str, days: int, due: dt.date, act: str, grace_days: int
) -> list[str]:
    """The working of ``maintenance_due_deadline`` (E1, E2, Counting days)."""
    steps = [start_line(start, start_what)]
    steps.append(
        say(
            "Service every %(every)s; the start day is not counted, so day %(days)s is %(day)s.",
            every=fmt_days(days),
            days=days,
            day=fmt_date(due),
        )
    )
    steps.append(maintenance_kind_line())
    steps.append(on_time_line(act, due))
    if grace_days:
        steps.append(
            say(
                "The Town's ruleset allows a grace period of %(grace)s before a device shows "
                "overdue; the due date itself does not change.",
                grace=fmt_days(grace_days),
            )
        )
    else:
        steps.append(say("The Town's ruleset sets no grace period (0 days)."))
    return steps
