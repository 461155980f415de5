"""The words of the "Counting days" working (``fogcontrol.rules.counting``): the kinds of limit, their
labels and the sentences every deadline's explanation shares, each said with ``say`` so a page can
say it again in the reader's language (issue 18). ``counting`` imports them from here."""

from __future__ import annotations

import datetime as dt

from fogcontrol.rules.explain import Sentence, fmt_date, say

# Which of the "Counting days" readings produced a date (``Deadline.counting``).
LIMIT_OWED = "owed"  # kind 1: what a person owes the Town; moves to the next business day
LIMIT_TOWN_MAXIMUM = "town_maximum"  # kind 2: the Town's own maximum; never moves later
LIMIT_MINIMUM = "minimum"  # kind 3: a minimum; never moves earlier
LIMIT_MAINTENANCE = "maintenance"  # E1 / E2: calendar days at the establishment; never moves
LIMIT_BUSINESS_DAYS = "business_days"  # J2 / M3: counted in days the offices are open

LIMIT_LABELS = {
    LIMIT_OWED: say("What a person owes the Town: a last day on a closed day moves to the next business day"),
    LIMIT_TOWN_MAXIMUM: say(
        "The Town's own maximum: never moves later; the last business day on or before it"
    ),
    LIMIT_MINIMUM: say("A minimum: never moves earlier; the first business day on or after it"),
    LIMIT_MAINTENANCE: say("A maintenance frequency: calendar days, never moved"),
    LIMIT_BUSINESS_DAYS: say("Counted in business days: only days the offices are open count"),
}

CCP_12A = say("Code of Civil Procedure §12a")
CCP_12B = say("Code of Civil Procedure §12b")


# --- the sentence that says which kind of limit applied ----------------------------------------


def owed_kind_line(what: str, *, at_office: bool) -> Sentence:
    """Counting days, kind 1: what a person owes the Town (CCP §12a; §12b for acts at the office)."""
    if at_office:
        return say(
            "Kind of limit: what a person owes the Town (%(what)s, done at the Town's office). A last day "
            "that falls on a weekend or a Town holiday moves to the next business day (%(ccp_12a)s); so "
            "does one on a day the Town closes its offices, such as a 9/80 Friday (%(ccp_12b)s).",
            what=what,
            ccp_12a=CCP_12A,
            ccp_12b=CCP_12B,
        )
    return say(
        "Kind of limit: what a person owes the Town (%(what)s, done at the establishment, not at the "
        "Town's office). A last day that falls on a weekend or a Town holiday moves to the next day "
        "that is neither (%(ccp_12a)s); a Town closure day such as a 9/80 Friday does not move it, "
        "since %(ccp_12b)s applies only to acts done at the office.",
        what=what,
        ccp_12a=CCP_12A,
        ccp_12b=CCP_12B,
    )


def town_maximum_kind_line() -> Sentence:
    """Counting days, kind 2: a maximum the Town itself must meet (L2, L3, L4, P5, D8)."""
    return say(
        "Kind of limit: a maximum the Town itself must meet. It never moves later: when its last day "
        "falls on a day the offices are closed, the latest date the Town may use is the last business "
        "day before it."
    )


def minimum_kind_line() -> Sentence:
    """Counting days, kind 3: a minimum period (L2's floor, B7, F5, G1)."""
    return say(
        "Kind of limit: a minimum. It never moves earlier: when it ends on a day the offices are "
        "closed, the earliest usable date is the first business day after it."
    )


def maintenance_kind_line() -> Sentence:
    """Counting days: a maintenance frequency (E1, E2) is not one of the three kinds that move."""
    return say(
        "Kind of limit: a maintenance frequency (E1, E2), a physical duty done at the establishment "
        "and counted in calendar days. The due date does not move for weekends, holidays or Town "
        "closures."
    )


def business_days_kind_line() -> Sentence:
    """Counting days: J2 and M3 count business (working) days, not calendar days."""
    return say(
        "Counted in business (working) days, not calendar days: only days the Town's offices are open "
        "count, so the date needs no move."
    )


def on_time_line(act: str, due: dt.date) -> Sentence:
    """Counting days: the act on or before its last day is on time."""
    return say("%(act)s on or before %(day)s is on time.", act=act, day=fmt_date(due))


def within_limit_line(act: str, latest: dt.date) -> Sentence:
    """Counting days, kind 2: the Town's act on or before its latest date is within the limit."""
    return say("%(act)s on or before %(day)s is within the limit.", act=act, day=fmt_date(latest))


def days_counted_line(unit: str, days: str) -> Sentence:
    """Counting days (J2, M3): the business or working days counted, listed."""
    if unit == "business day":
        return say("The business days counted are: %(days)s.", days=days)
    if unit == "working day":
        return say("The working days counted are: %(days)s.", days=days)
    return say("The %(unit)ss counted are: %(days)s.", unit=unit, days=days)
