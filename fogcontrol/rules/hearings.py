"""The hearing deadlines of suspension, revocation and enforcement (L2, L3, L4, M3, P5).

The Town's own maxima (L2's ceiling, L3, L4, P5) never move later: the latest date the Town may use
is the last business day on or before the limit. L2's floor is a minimum: it never moves earlier,
and the first hearing day is the first business day on or after it. M3 counts business days.
``fogcontrol.rules.deadlines`` registers these with the other deadlines (Counting days).
"""

from __future__ import annotations

import datetime as dt

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import (
    KIND_WINDOW,
    LIMIT_MINIMUM,
    LIMIT_TOWN_MAXIMUM,
    Deadline,
    business_days_deadline,
    first_usable_day,
    make_deadline,
    roll_back_limit,
    start_line,
    town_maximum_deadline,
)
from fogcontrol.rules.explain import fmt_date, fmt_days, say
from fogcontrol.rules.ruleset import Ruleset


def revocation_hearing_window(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """L2: the suspension or revocation hearing is held 15 to 45 calendar days after the notice is
    mailed. The floor (``earliest``) is a minimum: it never moves earlier, and the first day a
    hearing can be held is the first business day on or after it (``earliest_business_day``). The
    ceiling is the Town's own maximum: it never moves later, and the latest hearing date
    (``latest`` = ``due``) is the last business day on or before day 45.
    """
    low, high = ruleset.revocation_hearing_min_days, ruleset.revocation_hearing_max_days
    earliest = start + dt.timedelta(days=low)
    limit = start + dt.timedelta(days=high)
    steps = [
        start_line(start, say("the date the notice was mailed by certified mail")),
        say(
            "L2: the hearing must be not less than %(low)s and not more than %(high)s after mailing; "
            "the mailing day is not counted.",
            low=fmt_days(low),
            high=fmt_days(high),
        ),
        say(
            "Kind of limit for the floor, day %(low)s: a minimum. It never moves earlier: when it falls on a "
            "day the offices are closed, the earliest usable date is the first business day after it.",
            low=low,
        ),
        say(
            "Kind of limit for the ceiling, day %(high)s: a maximum the Town itself must meet. It never "
            "moves later: when it falls on a day the offices are closed, the latest date the Town may use "
            "is the last business day before it.",
            high=high,
        ),
    ]
    first_open = first_usable_day(
        earliest, calendar, say("Earliest hearing date: day %(low)s", low=low), steps
    )
    latest, moved = roll_back_limit(
        limit, calendar, say("Latest hearing date: day %(high)s", high=high), steps, after=start
    )
    if first_open <= latest:
        steps.append(
            say(
                "The hearing may be set on any business day from %(first)s to %(latest)s.",
                first=fmt_date(first_open),
                latest=fmt_date(latest),
            )
        )
    else:
        steps.append(say("No business day falls within the window: check the Town's holiday calendar."))
    return make_deadline(
        slug="L2",
        provisions=("L2", "Counting days"),
        title="Suspension / revocation hearing window",
        kind=KIND_WINDOW,
        start=start,
        steps=steps,
        due=latest,
        nominal_due=limit,
        moved=moved,
        lapse_label=say("The window for the hearing has closed"),
        earliest=earliest,
        earliest_business_day=first_open,
        latest=latest,
        counting=(LIMIT_MINIMUM, LIMIT_TOWN_MAXIMUM),
    )


def continuance_limit(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """L3: continuances may not total more than ``hearing_continuance_max_days``: the continued
    hearing is held no later than the original hearing date + N days. The Town's own maximum: the
    latest date is the last business day on or before it; it never moves later."""
    return town_maximum_deadline(
        slug="L3",
        provision="L3",
        title="Latest date for a continued hearing",
        start=start,
        start_what=say("the date first set for the hearing"),
        days=ruleset.hearing_continuance_max_days,
        act=say("Holding the continued hearing"),
        lapse_label=say("Continuances beyond the limit are not allowed"),
        calendar=calendar,
    )


def revocation_decision_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """L4: written decision and order within ``hearing_decision_days`` calendar days after the
    hearing ends. The Town's own maximum: the last business day on or before day N."""
    return town_maximum_deadline(
        slug="L4",
        provision="L4",
        title="Written decision after a suspension / revocation hearing",
        start=start,
        start_what=say("the date the hearing concluded"),
        days=ruleset.hearing_decision_days,
        act=say("Issuing the written decision"),
        lapse_label=say("The decision is late"),
        calendar=calendar,
    )


def emergency_hearing_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """M3: hearing on an emergency suspension order no more than
    ``emergency_hearing_business_days`` business days after the order."""
    return business_days_deadline(
        slug="M3-hearing",
        provision="M3",
        title="Emergency suspension: hearing",
        start=start,
        start_what=say("the date the emergency suspension order was issued"),
        days=ruleset.emergency_hearing_business_days,
        unit="business day",
        act=say("Holding the hearing"),
        lapse_label=say("The hearing is late"),
        calendar=calendar,
    )


def emergency_decision_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """M3: written decision within ``emergency_decision_business_days`` business days of the
    emergency hearing."""
    return business_days_deadline(
        slug="M3-decision",
        provision="M3",
        title="Emergency suspension: written decision",
        start=start,
        start_what=say("the date of the emergency hearing"),
        days=ruleset.emergency_decision_business_days,
        unit="business day",
        act=say("Issuing the written decision"),
        lapse_label=say("The decision is late"),
        calendar=calendar,
    )


def complaint_hearing_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P5: hearing on an administrative complaint within ``complaint_hearing_days`` after service.
    The Town's own maximum: the last business day on or before day N; it never moves later."""
    return town_maximum_deadline(
        slug="P5",
        provision="P5",
        title="Administrative complaint hearing",
        start=start,
        start_what=say("the date the administrative complaint was served"),
        days=ruleset.complaint_hearing_days,
        act=say("Holding the hearing"),
        lapse_label=say("The hearing is late"),
        calendar=calendar,
    )
