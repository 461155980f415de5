"""Every deadline of Chapter 10.02, read by the "Counting days" conventions.

- "N days after X" / "within N days of X": the deadline is X + N calendar days; an act done on that
  day is on time. Status changes (late, delinquent, expired, lien-eligible) take effect the day
  after the deadline.
- A calendar-day deadline for an act that falls on a weekend or Town holiday moves to the next
  business day (Code of Civil Procedure §12a).
- Minimums (L2's 15-day floor, B7's 10-day notice, F5's retention, G1's advance notice) never move.
- Business / working days count only days the Town's offices are open; the start day is not counted.
- Annual duties fall on the anniversary of the last occurrence (February 29 -> February 28).

One function per deadline kind, all ``(start, *, ruleset, calendar) -> Deadline``, and the registry
``DEADLINE_RULES`` that the API and the staff calculator list and call through ``compute_deadline``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar, add_years
from fogcontrol.rules.counting import (
    CCP_12A,
    KIND_DEADLINE,
    KIND_MINIMUM,
    KIND_WINDOW,
    Deadline,
    anniversary_deadline,
    business_days_deadline,
    calendar_days_deadline,
    make_deadline,
    roll_forward_deadline,
    start_line,
)
from fogcontrol.rules.explain import explain, fmt_date, fmt_days
from fogcontrol.rules.ruleset import Ruleset

__all__ = [
    "CCP_12A",
    "DEADLINE_RULES",
    "KIND_DEADLINE",
    "KIND_MINIMUM",
    "KIND_WINDOW",
    "Deadline",
    "DeadlineRule",
    "UnknownProvision",
    "calendar_days_deadline",
    "compute_deadline",
]


class UnknownProvision(LookupError):
    """Raised by ``compute_deadline`` for a slug that is not in ``DEADLINE_RULES``."""

    def __init__(self, slug: str) -> None:
        known = ", ".join(DEADLINE_RULES)
        super().__init__(f"Unknown deadline provision {slug!r}; known provisions: {known}")
        self.slug = slug


# --- one function per deadline kind ------------------------------------------------------------


def permit_expiry(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """B6: a permit runs ``permit_term_years`` from issue (or last renewal); renewal is due on the
    anniversary, moved to the next business day if the offices are closed (CCP §12a).

    ``due`` is the last day to renew; ``lapses_on`` is the day the permit expires if not renewed.
    """
    return anniversary_deadline(
        slug="B6",
        provision="B6",
        title="Permit renewal due / permit expiry",
        start=start,
        start_what="the date the permit was issued or last renewed",
        years=ruleset.permit_term_years,
        act="Renewing the permit",
        lapse_label="Unless renewed, the permit is expired",
        calendar=calendar,
    )


def frequency_change_effective(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """B7: a change of cleaning frequency takes effect no sooner than ``frequency_change_notice_days``
    after the permittee is told. A minimum: the earliest effective date never moves.
    """
    days = ruleset.frequency_change_notice_days
    earliest = start + dt.timedelta(days=days)
    steps = [
        start_line(start, "the date the permittee was given notice of the proposed frequency change"),
        f"B7 requires notice at least {fmt_days(days)} before the change takes effect; "
        f"the notice day is not counted, so the earliest effective date is {fmt_date(earliest)}.",
        "This is a minimum notice period: it is not moved for weekends or holidays "
        "(Counting days). Any later date may be chosen.",
    ]
    return make_deadline(
        slug="B7",
        provisions=("B7", "Counting days"),
        title="Frequency change: earliest effective date",
        kind=KIND_MINIMUM,
        start=start,
        steps=steps,
        earliest=earliest,
    )


def training_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """C4: employee BMP training is repeated at least every ``training_interval_years``, on the
    anniversary of the last training (moved under CCP §12a)."""
    return anniversary_deadline(
        slug="C4",
        provision="C4",
        title="Employee BMP training due",
        start=start,
        start_what="the date of the last employee training",
        years=ruleset.training_interval_years,
        act="Holding the training",
        lapse_label="Training is overdue",
        calendar=calendar,
    )


def device_inspection_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """D8: each GCD is inspected by the FOG Manager or an AEO at least every
    ``device_inspection_interval_years``, on the anniversary of the last inspection."""
    return anniversary_deadline(
        slug="D8",
        provision="D8",
        title="Annual device inspection due",
        start=start,
        start_what="the date of the last Town inspection of the device",
        years=ruleset.device_inspection_interval_years,
        act="Inspecting the device",
        lapse_label="The inspection is overdue",
        calendar=calendar,
    )


def record_retention_end(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """F5: records are kept at least ``record_retention_years``. A minimum: kept through the
    anniversary of the record's date; the earliest purge date is the day after. Never moved."""
    years = ruleset.record_retention_years
    keep_until, leap = add_years(start, years)
    purge = keep_until + ONE_DAY
    span = "1 year" if years == 1 else f"{years} years"
    steps = [
        start_line(start, "the date of the manifest, receipt, invoice or record"),
        f"F5 requires the record to be kept at least {span}: through {fmt_date(keep_until)}.",
    ]
    if leap:
        steps.append(
            f"The record is dated February 29 and {keep_until.year} is not a leap year, "
            f"so the anniversary is taken as February 28, {keep_until.year}."
        )
    steps.append(
        f"The earliest date the record may be destroyed is {fmt_date(purge)}. This is a minimum "
        "period: it is not moved for weekends or holidays."
    )
    return make_deadline(
        slug="F5",
        provisions=("F5", "Counting days"),
        title="Record retention: earliest purge date",
        kind=KIND_MINIMUM,
        start=start,
        steps=steps,
        earliest=purge,
        latest=keep_until,
    )


def remodel_notice_latest(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """G1: written notice at least ``remodel_notice_days`` before an expansion, remodel or process
    change. ``start`` is the planned start of the work; the latest notice date is start - N days.

    A minimum notice period counted backwards: it is never moved. Moving it forward would shorten
    the notice below the minimum; moving it back is not what §12a does. When the latest day falls
    on a closed day, the explanation says so, because notice delivered in person must then be given
    on an earlier business day.
    """
    days = ruleset.remodel_notice_days
    latest = start - dt.timedelta(days=days)
    steps = [
        start_line(start, "the planned start of the expansion, remodel or process change"),
        f"G1 requires written notice at least {fmt_days(days)} before the work starts; "
        f"the latest notice date is {fmt_date(latest)} ({fmt_days(days)} before the start).",
        "This is a minimum notice period counted backwards: it is not moved for weekends or "
        "holidays, since moving it later would shorten the notice (Counting days).",
    ]
    reason = calendar.closed_reason(latest)
    if reason is not None:
        previous = latest - ONE_DAY
        while not calendar.is_business_day(previous):
            previous -= ONE_DAY
        steps.append(
            f"{fmt_date(latest)} is {reason}; notice delivered in person at the offices must be "
            f"given by {fmt_date(previous)}, the business day before."
        )
    return make_deadline(
        slug="G1",
        provisions=("G1", "Counting days"),
        title="Remodel / process change: latest notice date",
        kind=KIND_MINIMUM,
        start=start,
        steps=steps,
        due=latest,
        nominal_due=latest,
        latest=latest,
        lapse_label="Notice given now is late (less than the minimum)",
    )


def spill_report_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """J2: written spill or upset report within ``spill_report_working_days`` working days of the
    incident (only business days count)."""
    return business_days_deadline(
        slug="J2",
        provision="J2",
        title="Written spill / upset report due",
        start=start,
        start_what="the date of the incident",
        days=ruleset.spill_report_working_days,
        unit="working day",
        act="Delivering the written report",
        lapse_label="The written report is late",
        calendar=calendar,
    )


def grinder_removal_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """K1: existing food grinders removed within ``grinder_removal_days`` of the chapter's effective
    date (``ruleset.chapter_effective_date`` is the usual start)."""
    return calendar_days_deadline(
        slug="K1",
        provision="K1",
        title="Existing food grinders removed",
        start=start,
        start_what="the date Chapter 10.02 took effect",
        days=ruleset.grinder_removal_days,
        act="Removing the grinder",
        lapse_label="A remaining grinder is a violation",
        calendar=calendar,
    )


def revocation_hearing_window(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """L2: the suspension or revocation hearing is held 15 to 45 calendar days after the notice is
    mailed. The floor (``earliest``) is a minimum and never moves; when it falls on a closed day the
    first day a hearing can be held is the next business day (``earliest_business_day``). The
    ceiling (``latest`` = ``due``) moves to the next business day under CCP §12a.
    """
    low, high = ruleset.revocation_hearing_min_days, ruleset.revocation_hearing_max_days
    earliest = start + dt.timedelta(days=low)
    nominal_latest = start + dt.timedelta(days=high)
    steps = [
        start_line(start, "the date the notice was mailed by certified mail"),
        f"L2: the hearing must be not less than {fmt_days(low)} and not more than {fmt_days(high)} "
        "after mailing; the mailing day is not counted.",
        f"Earliest hearing date: day {low}, {fmt_date(earliest)}. This floor is a minimum and is "
        "never moved.",
    ]
    first_open, reasons = calendar.roll_forward(earliest)
    if reasons:
        steps.extend(reasons)
        steps.append(
            f"The first day within the window on which a hearing can be held is {fmt_date(first_open)}."
        )
    latest, moved = roll_forward_deadline(nominal_latest, calendar, f"Latest hearing date: day {high}", steps)
    steps.append(
        f"The hearing may be set on any business day from {fmt_date(first_open)} to {fmt_date(latest)}."
    )
    return make_deadline(
        slug="L2",
        provisions=("L2", "Counting days"),
        title="Suspension / revocation hearing window",
        kind=KIND_WINDOW,
        start=start,
        steps=steps,
        due=latest,
        nominal_due=nominal_latest,
        moved=moved,
        lapse_label="The window for the hearing has closed",
        earliest=earliest,
        earliest_business_day=first_open,
        latest=latest,
    )


def continuance_limit(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """L3: continuances may not total more than ``hearing_continuance_max_days``: the continued
    hearing is held no later than the original hearing date + N days (moved under CCP §12a)."""
    return calendar_days_deadline(
        slug="L3",
        provision="L3",
        title="Latest date for a continued hearing",
        start=start,
        start_what="the date first set for the hearing",
        days=ruleset.hearing_continuance_max_days,
        act="Holding the continued hearing",
        lapse_label="Continuances beyond the limit are not allowed",
        calendar=calendar,
    )


def revocation_decision_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """L4: written decision and order within ``hearing_decision_days`` calendar days after the
    hearing ends."""
    return calendar_days_deadline(
        slug="L4",
        provision="L4",
        title="Written decision after a suspension / revocation hearing",
        start=start,
        start_what="the date the hearing concluded",
        days=ruleset.hearing_decision_days,
        act="Issuing the written decision",
        lapse_label="The decision is late",
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
        start_what="the date the emergency suspension order was issued",
        days=ruleset.emergency_hearing_business_days,
        unit="business day",
        act="Holding the hearing",
        lapse_label="The hearing is late",
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
        start_what="the date of the emergency hearing",
        days=ruleset.emergency_decision_business_days,
        unit="business day",
        act="Issuing the written decision",
        lapse_label="The decision is late",
        calendar=calendar,
    )


def cost_recovery_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """N1: clean-up and repair costs paid within ``cost_recovery_payment_days`` of invoicing."""
    return calendar_days_deadline(
        slug="N1",
        provision="N1",
        title="Clean-up and repair costs payment",
        start=start,
        start_what="the date the Town invoiced the costs",
        days=ruleset.cost_recovery_payment_days,
        act="Paying the invoice",
        lapse_label="Unpaid costs are delinquent",
        calendar=calendar,
    )


def complaint_hearing_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P5: hearing on an administrative complaint within ``complaint_hearing_days`` after service."""
    return calendar_days_deadline(
        slug="P5",
        provision="P5",
        title="Administrative complaint hearing",
        start=start,
        start_what="the date the administrative complaint was served",
        days=ruleset.complaint_hearing_days,
        act="Holding the hearing",
        lapse_label="The hearing is late",
        calendar=calendar,
    )


def appeal_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P6: appeal to the Town Council within ``appeal_days`` of notice of the hearing officer's
    decision."""
    return calendar_days_deadline(
        slug="P6",
        provision="P6",
        title="Appeal to the Town Council",
        start=start,
        start_what="the date of notice of the hearing officer's decision",
        days=ruleset.appeal_days,
        act="Filing the written appeal with the Town Clerk",
        lapse_label="An appeal filed now is late",
        calendar=calendar,
    )


def penalty_payment_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P8: an administrative civil penalty order is final on issuance (unless appealed) and paid
    within ``penalty_payment_days``; unpaid, it is delinquent from the day after."""
    return calendar_days_deadline(
        slug="P8",
        provision="P8",
        title="Administrative civil penalty payment",
        start=start,
        start_what="the date the penalty order was issued (became final)",
        days=ruleset.penalty_payment_days,
        act="Paying the penalty",
        lapse_label="An unpaid penalty is delinquent",
        calendar=calendar,
    )


def penalty_lien_eligible(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P9 (with P8): a penalty delinquent ``lien_delinquency_days`` may be recorded as a lien.

    Reading: the payment deadline D is fixed by P8 (moved under §12a); delinquency starts D + 1.
    The penalty has been delinquent for N full days at the end of day D + N, so the last day to pay
    and avoid a lien is D + N (moved under §12a, since paying is an act), and the lien may be
    recorded from the day after (``lapses_on``).
    """
    payment = penalty_payment_due(start, ruleset=ruleset, calendar=calendar)
    assert payment.due is not None and payment.lapses_on is not None
    days = ruleset.lien_delinquency_days
    steps = list(payment.explanation.steps)
    nominal = payment.due + dt.timedelta(days=days)
    steps.append(
        f"P9: a penalty that has remained delinquent for {fmt_days(days)} becomes a lien. "
        f"Delinquency began {fmt_date(payment.lapses_on)}; {fmt_days(days)} of delinquency are "
        f"complete at the end of {fmt_date(nominal)} (the payment deadline + {days})."
    )
    due, moved = roll_forward_deadline(nominal, calendar, "The last day to pay before a lien", steps)
    steps.append(f"Paying on or before {fmt_date(due)} avoids the lien.")
    return make_deadline(
        slug="P9",
        provisions=("P9", "P8", "Counting days"),
        title="Penalty lien eligibility",
        start=start,
        steps=steps,
        due=due,
        nominal_due=nominal,
        moved=moved,
        lapse_label="The unpaid penalty may be recorded as a lien with the County Recorder",
        earliest=payment.lapses_on,
    )


def fee_delinquency(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """Q1: fees, charges and penalties are due on receipt of notice and delinquent if unpaid
    ``fee_delinquency_days`` after the notice date (moved under CCP §12a)."""
    deadline = calendar_days_deadline(
        slug="Q1",
        provision="Q1",
        title="Fee delinquency",
        start=start,
        start_what="the date of the notice of the fee, charge or penalty (due on receipt)",
        days=ruleset.fee_delinquency_days,
        act="Paying the amount",
        lapse_label="Unpaid, the amount is delinquent and a debt to the Town (Q2)",
        calendar=calendar,
    )
    return dataclasses.replace(
        deadline, explanation=explain(("Q1", "Q2", "Counting days"), deadline.explanation.steps)
    )


# --- registry ----------------------------------------------------------------------------------

DeadlineFunction = Callable[..., Deadline]


@dataclasses.dataclass(frozen=True)
class DeadlineRule:
    """One entry of the deadline registry: what it is, what its start date is, how to compute it."""

    slug: str
    provisions: tuple[str, ...]
    title: str
    start_description: str
    function: DeadlineFunction


def _rule(slug: str, provisions: tuple[str, ...], title: str, start: str, fn: DeadlineFunction):
    return slug, DeadlineRule(slug, provisions, title, start, fn)


DEADLINE_RULES: dict[str, DeadlineRule] = dict(
    [
        _rule("B6", ("B6",), "Permit renewal due / expiry", "Date the permit was issued or last renewed", permit_expiry),
        _rule("B7", ("B7",), "Frequency change: earliest effective date", "Date notice of the change was given", frequency_change_effective),
        _rule("C4", ("C4",), "Employee BMP training due", "Date of the last employee training", training_due),
        _rule("D8", ("D8",), "Annual device inspection due", "Date of the last Town inspection of the device", device_inspection_due),
        _rule("F5", ("F5",), "Record retention: earliest purge date", "Date of the manifest, receipt or record", record_retention_end),
        _rule("G1", ("G1",), "Remodel / process change: latest notice date", "Planned start date of the work", remodel_notice_latest),
        _rule("J2", ("J2",), "Written spill report due", "Date of the spill or upset", spill_report_due),
        _rule("K1", ("K1",), "Existing food grinders removed", "Date Chapter 10.02 took effect", grinder_removal_due),
        _rule("L2", ("L2",), "Suspension / revocation hearing window", "Date the notice was mailed", revocation_hearing_window),
        _rule("L3", ("L3",), "Latest continued hearing date", "Date first set for the hearing", continuance_limit),
        _rule("L4", ("L4",), "Hearing decision due", "Date the hearing concluded", revocation_decision_due),
        _rule("M3-hearing", ("M3",), "Emergency suspension hearing", "Date the emergency suspension order was issued", emergency_hearing_due),
        _rule("M3-decision", ("M3",), "Emergency suspension decision", "Date of the emergency hearing", emergency_decision_due),
        _rule("N1", ("N1",), "Clean-up cost payment", "Date the costs were invoiced", cost_recovery_due),
        _rule("P5", ("P5",), "Administrative complaint hearing", "Date the complaint was served", complaint_hearing_due),
        _rule("P6", ("P6",), "Appeal to the Town Council", "Date of notice of the hearing officer's decision", appeal_due),
        _rule("P8", ("P8",), "Penalty payment due", "Date the penalty order was issued", penalty_payment_due),
        _rule("P9", ("P9", "P8"), "Penalty lien eligibility", "Date the penalty order was issued", penalty_lien_eligible),
        _rule("Q1", ("Q1", "Q2"), "Fee delinquency", "Date of the notice of the fee or charge", fee_delinquency),
    ]
)  # fmt: skip


def compute_deadline(slug: str, start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """Compute the deadline registered under ``slug``: B6, B7, C4, D8, F5, G1, J2, K1, L2, L3, L4,
    M3-hearing, M3-decision, N1, P5, P6, P8, P9, Q1 (Counting days).

    Raises ``UnknownProvision`` for a slug that is not registered.
    """
    rule = DEADLINE_RULES.get(slug)
    if rule is None:
        raise UnknownProvision(slug)
    return rule.function(start, ruleset=ruleset, calendar=calendar)
