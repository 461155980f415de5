"""B6: the permit runs with the business licence.

"Issued for a one-year period and renewed annually and concurrently with the applicant's business
license." A permit's last day is aligned to the licence's expiry, never later than the end of the B6
term (``permit_term_years`` from the term's start, as ``rules.deadlines.permit_expiry`` reads it). A
permit is not issued or renewed on an expired or missing licence.

Pure: the licence's number and expiry are handed in, and today is an argument.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar, add_years
from fogcontrol.rules.counting import roll_forward_deadline, start_line
from fogcontrol.rules.deadlines import permit_expiry
from fogcontrol.rules.explain import Explanation, explain, fmt_date, say
from fogcontrol.rules.ruleset import Ruleset

LIMITED_BY_LICENCE = "licence"
LIMITED_BY_TERM = "term"


@dataclasses.dataclass(frozen=True)
class LicenceCheck:
    """Whether a permit may be issued or renewed on the licence as recorded (B6), and why not."""

    allowed: bool
    reason: str
    explanation: Explanation


@dataclasses.dataclass(frozen=True)
class PermitTerm:
    """A permit term aligned to the business licence (B6).

    ``valid_until`` is the last day of the term (the last day to renew); ``lapses_on`` the day the
    permit is expired unless renewed. ``limited_by`` says which end applied: the licence's expiry
    (``"licence"``) or the one-year term (``"term"``).
    """

    start: dt.date
    valid_until: dt.date
    lapses_on: dt.date
    licence_number: str
    licence_expires_on: dt.date
    term_ends_on: dt.date
    limited_by: str
    explanation: Explanation


def _term_words(years: int) -> str:
    return say("one year") if years == 1 else say("%(years)s years", years=years)


def licence_check(
    *, licence_number: str, licence_expires_on: dt.date | None, on: dt.date, term_start: dt.date | None = None
) -> LicenceCheck:
    """B6: a permit is not issued or renewed on `on` when the business licence has no expiry on
    record, has expired, or expires before the permit's term would begin (`term_start`).

    The refusal names the licence and its expiry date, and says what to do.
    """
    start = term_start or on
    steps = [
        say(
            "B6: the permit is renewed annually and concurrently with the business licence (%(licence)s).",
            licence=licence_number,
        )
    ]
    if licence_expires_on is None:
        reason = say(
            "Business licence %(licence)s has no expiry date on record: a FOG permit runs with the "
            "business licence and is not issued or renewed without it (B6). Record the licence's expiry "
            "(licence import, or the establishment's record in the registry), then issue again.",
            licence=licence_number,
        )
        return LicenceCheck(False, reason, explain(("B6",), [*steps, reason]))
    if licence_expires_on < on:
        reason = say(
            "Business licence %(licence)s expired on %(expires)s: a FOG permit is "
            "not issued or renewed on an expired licence (B6). Once the licence is renewed and its new "
            "expiry is recorded (licence import, or the establishment's record), issue again.",
            licence=licence_number,
            expires=fmt_date(licence_expires_on),
        )
        return LicenceCheck(False, reason, explain(("B6",), [*steps, reason]))
    if licence_expires_on < start:
        reason = say(
            "Business licence %(licence)s expires on %(expires)s, before the renewed "
            "term would begin on %(start)s: the permit is renewed concurrently with the licence (B6). "
            "Once the licence is renewed and its new expiry is recorded, renew the permit again.",
            licence=licence_number,
            expires=fmt_date(licence_expires_on),
            start=fmt_date(start),
        )
        return LicenceCheck(False, reason, explain(("B6",), [*steps, reason]))
    steps.append(
        say(
            "Licence %(licence)s is in force on %(on)s and expires on %(expires)s.",
            licence=licence_number,
            on=fmt_date(on),
            expires=fmt_date(licence_expires_on),
        )
    )
    return LicenceCheck(True, "", explain(("B6",), steps))


def renewal_opens_on(*, valid_until: dt.date, ruleset: Ruleset) -> dt.date:
    """B6: the first day a permit in force may be renewed: the program's renewal window
    (``permit_renewal_window_days``) before its term ends. The ordinance renews "annually"; a
    renewal opened the day after issue would only start a second application for the same year."""
    return valid_until - dt.timedelta(days=ruleset.permit_renewal_window_days)


def renewal_term_start(
    *, term_start: dt.date, valid_until: dt.date, renewed_on: dt.date, ruleset: Ruleset
) -> tuple[dt.date, str]:
    """B6: where a renewed term starts. Renewed by the last day of the term, it follows on from the
    last term (its anniversary, or the day after a term cut short by the licence); renewed after the
    permit expired, it starts on the day of renewal. Returns the date and the reason in words."""
    if renewed_on > valid_until:
        return renewed_on, say(
            "Renewed on %(renewed)s, after the last term ended on %(until)s: "
            "the new term starts on the day of renewal (B6).",
            renewed=fmt_date(renewed_on),
            until=fmt_date(valid_until),
        )
    anniversary, _leap = add_years(term_start, ruleset.permit_term_years)
    start = min(anniversary, valid_until + ONE_DAY)
    return start, say(
        "Renewed on time (the last term ran to %(until)s): the new term follows on from it, from %(start)s (B6).",
        until=fmt_date(valid_until),
        start=fmt_date(start),
    )


def permit_term(
    start: dt.date,
    *,
    licence_number: str,
    licence_expires_on: dt.date,
    ruleset: Ruleset,
    calendar: TownCalendar,
) -> PermitTerm:
    """B6: the last day of a permit term that starts on `start`: the business licence's expiry (the
    day to renew with it, moved to the next business day under CCP §12a like every B6 renewal
    date), never later than the end of the one-year term (`rules.deadlines.permit_expiry`).

    The explanation says which of the two ends applied (Counting days).
    """
    years = ruleset.permit_term_years
    term = permit_expiry(start, ruleset=ruleset, calendar=calendar)
    assert term.due is not None and term.nominal_due is not None
    steps = [
        start_line(start, say("the first day of the permit's term")),
        say(
            "B6: the permit is issued for %(term)s and renewed annually and concurrently with the "
            "business licence. Licence %(licence)s expires on %(expires)s.",
            term=_term_words(years),
            licence=licence_number,
            expires=fmt_date(licence_expires_on),
        ),
    ]
    if licence_expires_on < start:
        steps.append(
            say(
                "The licence expires before the term began: the permit runs no further than the licence (B6)."
            )
        )
    aligned, _moved = roll_forward_deadline(
        licence_expires_on, calendar, say("Renewing with the licence is due on its expiry, which"), steps
    )
    if term.moved:
        term_end_words = say(
            "%(end)s (%(term)s from the start), the last day to renew moved to %(due)s (CCP §12a)",
            end=fmt_date(term.nominal_due),
            term=_term_words(years),
            due=fmt_date(term.due),
        )
    else:
        term_end_words = say(
            "%(end)s (%(term)s from the start)", end=fmt_date(term.nominal_due), term=_term_words(years)
        )
    if aligned <= term.due:
        limited_by = LIMITED_BY_LICENCE
        valid_until = aligned
        steps.append(
            say(
                "The term may not run past %(term_end)s; the licence ends first, so the permit's term is "
                "aligned to the licence: valid through %(until)s.",
                term_end=term_end_words,
                until=fmt_date(valid_until),
            )
        )
    else:
        limited_by = LIMITED_BY_TERM
        valid_until = term.due
        steps.append(
            say(
                "The licence runs past the end of the %(term)s term, %(term_end)s: the permit is "
                "never issued for longer, so it is valid through %(until)s and is renewed then "
                "(the licence must then still be in force).",
                term=_term_words(years),
                term_end=term_end_words,
                until=fmt_date(valid_until),
            )
        )
    lapses_on = valid_until + ONE_DAY
    steps.append(
        say("Unless renewed, the permit is expired from %(day)s, the day after.", day=fmt_date(lapses_on))
    )
    return PermitTerm(
        start=start,
        valid_until=valid_until,
        lapses_on=lapses_on,
        licence_number=licence_number,
        licence_expires_on=licence_expires_on,
        term_ends_on=term.due,
        limited_by=limited_by,
        explanation=explain(("B6", "Counting days"), steps),
    )
