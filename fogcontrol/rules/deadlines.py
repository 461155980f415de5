"""Every deadline of Chapter 10.02, read by the "Counting days" conventions (revised 2026-11-30).

- "N days after X" / "within N days of X": the deadline is X + N calendar days; an act done on that
  day is on time. Status changes (late, delinquent, expired, lien-eligible) take effect the day
  after the deadline.
- What a person owes the Town (B6, C4, K1, N1, P6, P8, P9, Q1): a last day on a weekend or Town
  holiday moves to the next business day (Code of Civil Procedure §12a); a Town closure day moves
  it too only for an act done at the Town's office, a filing or a payment (CCP §12b).
- What the Town itself must do by a maximum (L2's ceiling, L3, L4, P5, D8): never moves later;
  the latest date is the last business day on or before the limit.
- Minimums (L2's 15-day floor, B7's 10-day notice, F5's retention, G1's advance notice): never
  move earlier; the earliest usable date is the first business day on or after the floor.
- Maintenance (E1, E2): calendar days, never moved; a grace period only delays "overdue".
- Business / working days count only days the Town's offices are open; the start day is not counted.
- Annual duties fall on the anniversary of the last occurrence (February 29 -> February 28).

One function per deadline kind, all ``(start, *, ruleset, calendar) -> Deadline`` (E1 also takes
``frequency_days``), and the registry ``DEADLINE_RULES`` that the API and the staff calculator list
and call through ``compute_deadline``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

from fogcontrol.rules.calendar import ONE_DAY, TownCalendar, add_years
from fogcontrol.rules.counting import (
    CCP_12A,
    CCP_12B,
    KIND_DEADLINE,
    KIND_MINIMUM,
    KIND_WINDOW,
    LIMIT_MINIMUM,
    LIMIT_OWED,
    LIMIT_TOWN_MAXIMUM,
    Deadline,
    anniversary_deadline,
    business_days_deadline,
    calendar_days_deadline,
    first_usable_day,
    maintenance_due_deadline,
    make_deadline,
    minimum_kind_line,
    owed_kind_line,
    roll_forward_deadline,
    start_line,
)
from fogcontrol.rules.explain import explain, fmt_date, fmt_days, say
from fogcontrol.rules.hearings import (
    complaint_hearing_due,
    continuance_limit,
    emergency_decision_due,
    emergency_hearing_due,
    revocation_decision_due,
    revocation_hearing_window,
)
from fogcontrol.rules.ruleset import Ruleset

__all__ = [
    "CCP_12A",
    "CCP_12B",
    "DEADLINE_RULES",
    "KIND_DEADLINE",
    "KIND_MINIMUM",
    "KIND_WINDOW",
    "Deadline",
    "DeadlineRule",
    "MissingParameter",
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


class MissingParameter(ValueError):
    """Raised by ``compute_deadline`` when a rule needs more than a start date (E1: the frequency).

    The message starts with the parameter's name ("frequency_days: ..."), as every engine refusal does.
    """

    def __init__(self, slug: str, name: str, description: str) -> None:
        super().__init__(f"{name}: {slug} needs {description}; give {name}")
        self.slug = slug
        self.name = name


# --- one function per deadline kind ------------------------------------------------------------


def permit_expiry(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """B6: a permit runs ``permit_term_years`` from issue (or last renewal); renewal is due on the
    anniversary. What a person owes the Town, filed at its office: moved to the next business day
    if the offices are closed (CCP §12a, §12b).

    ``due`` is the last day to renew; ``lapses_on`` is the day the permit expires if not renewed.
    """
    return anniversary_deadline(
        slug="B6",
        provision="B6",
        title="Permit renewal due / permit expiry",
        start=start,
        start_what=say("the date the permit was issued or last renewed"),
        years=ruleset.permit_term_years,
        act=say("Renewing the permit"),
        lapse_label=say("Unless renewed, the permit is expired"),
        calendar=calendar,
        what=say("a permit renewal"),
        office_act=True,
    )


def frequency_change_effective(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """B7: a change of cleaning frequency takes effect no sooner than ``frequency_change_notice_days``
    after the permittee is told. A minimum: the floor (``earliest``) never moves earlier; the earliest
    usable date (``earliest_business_day``) is the first business day on or after it.
    """
    days = ruleset.frequency_change_notice_days
    earliest = start + dt.timedelta(days=days)
    steps = [
        start_line(start, say("the date the permittee was given notice of the proposed frequency change")),
        say(
            "B7 requires notice at least %(days)s before the change takes effect; "
            "the notice day is not counted, so the change may not take effect before %(earliest)s.",
            days=fmt_days(days),
            earliest=fmt_date(earliest),
        ),
        minimum_kind_line(),
    ]
    first_open = first_usable_day(earliest, calendar, say("Day %(days)s", days=days), steps)
    steps.append(say("Any later date may be chosen."))
    return make_deadline(
        slug="B7",
        provisions=("B7", "Counting days"),
        title="Frequency change: earliest effective date",
        kind=KIND_MINIMUM,
        start=start,
        steps=steps,
        earliest=earliest,
        earliest_business_day=first_open,
        counting=(LIMIT_MINIMUM,),
    )


def training_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """C4: employee BMP training is repeated at least every ``training_interval_years``, on the
    anniversary of the last training. What a person owes the Town, done in the kitchen: moved off a
    weekend or holiday (CCP §12a), never by a Town closure day (CCP §12b is for acts at the office)."""
    return anniversary_deadline(
        slug="C4",
        provision="C4",
        title="Employee BMP training due",
        start=start,
        start_what=say("the date of the last employee training"),
        years=ruleset.training_interval_years,
        act=say("Holding the training"),
        lapse_label=say("Training is overdue"),
        calendar=calendar,
        what=say("employee training"),
        office_act=False,
    )


def device_inspection_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """D8: each GCD is inspected by the FOG Manager or an AEO at least every
    ``device_inspection_interval_years``. The Town's own maximum: the latest date is the last
    business day on or before the anniversary of the last inspection; it never moves later."""
    return anniversary_deadline(
        slug="D8",
        provision="D8",
        title="Annual device inspection due",
        start=start,
        start_what=say("the date of the last Town inspection of the device"),
        years=ruleset.device_inspection_interval_years,
        act=say("Inspecting the device"),
        lapse_label=say("The inspection is overdue"),
        calendar=calendar,
        limit=LIMIT_TOWN_MAXIMUM,
    )


def record_retention_end(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """F5: records are kept at least ``record_retention_years``. A minimum: kept through the
    anniversary of the record's date; the earliest purge date is the day after and never moves
    earlier (``earliest_business_day``: the first business day on or after it)."""
    years = ruleset.record_retention_years
    keep_until, leap = add_years(start, years)
    purge = keep_until + ONE_DAY
    span = say("1 year") if years == 1 else say("%(years)s years", years=years)
    steps = [
        start_line(start, say("the date of the manifest, receipt, invoice or record")),
        say(
            "F5 requires the record to be kept at least %(span)s: through %(keep_until)s.",
            span=span,
            keep_until=fmt_date(keep_until),
        ),
    ]
    if leap:
        steps.append(
            say(
                "The record is dated February 29 and %(year)s is not a leap year, "
                "so the anniversary is taken as February 28, %(year)s.",
                year=keep_until.year,
            )
        )
    steps.append(say("The record may not be destroyed before %(purge)s.", purge=fmt_date(purge)))
    steps.append(minimum_kind_line())
    first_open = first_usable_day(purge, calendar, say("The earliest purge date"), steps)
    return make_deadline(
        slug="F5",
        provisions=("F5", "Counting days"),
        title="Record retention: earliest purge date",
        kind=KIND_MINIMUM,
        start=start,
        steps=steps,
        earliest=purge,
        earliest_business_day=first_open,
        latest=keep_until,
        counting=(LIMIT_MINIMUM,),
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
        start_line(start, say("the planned start of the expansion, remodel or process change")),
        say(
            "G1 requires written notice at least %(days)s before the work starts; "
            "the latest notice date is %(latest)s (%(days)s before the start).",
            days=fmt_days(days),
            latest=fmt_date(latest),
        ),
        say(
            "Kind of limit: a minimum notice period, counted backwards. It is not moved for weekends or "
            "holidays, since moving the notice date later would shorten the notice (Counting days)."
        ),
    ]
    reason = calendar.closed_reason(latest)
    if reason is not None:
        previous = latest - ONE_DAY
        while not calendar.is_business_day(previous):
            previous -= ONE_DAY
        steps.append(
            say(
                "%(latest)s is %(reason)s; notice delivered in person at the offices must be "
                "given by %(previous)s, the business day before.",
                latest=fmt_date(latest),
                reason=reason,
                previous=fmt_date(previous),
            )
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
        lapse_label=say("Notice given now is late (less than the minimum)"),
        counting=(LIMIT_MINIMUM,),
    )


def remodel_earliest_start(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """G1: after written notice on ``start``, the expansion, remodel or process change may not start
    before ``remodel_notice_days`` have passed. A minimum: the floor (``earliest``) never moves
    earlier; the earliest usable date (``earliest_business_day``) is the first business day on or
    after it."""
    days = ruleset.remodel_notice_days
    floor = start + dt.timedelta(days=days)
    steps = [
        start_line(
            start, say("the date written notice of the expansion, remodel or process change was given")
        ),
        say(
            "G1 requires the notice at least %(days)s before the work starts; the notice day is not "
            "counted, so the work may not start before %(floor)s.",
            days=fmt_days(days),
            floor=fmt_date(floor),
        ),
        minimum_kind_line(),
    ]
    first_open = first_usable_day(floor, calendar, say("Day %(days)s", days=days), steps)
    return make_deadline(
        slug="G1-start",
        provisions=("G1", "Counting days"),
        title="Remodel / process change: earliest start after notice",
        kind=KIND_MINIMUM,
        start=start,
        steps=steps,
        earliest=floor,
        earliest_business_day=first_open,
        counting=(LIMIT_MINIMUM,),
    )


def spill_report_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """J2: written spill or upset report within ``spill_report_working_days`` working days of the
    incident (only business days count)."""
    return business_days_deadline(
        slug="J2",
        provision="J2",
        title="Written spill / upset report due",
        start=start,
        start_what=say("the date of the incident"),
        days=ruleset.spill_report_working_days,
        unit="working day",
        act=say("Delivering the written report"),
        lapse_label=say("The written report is late"),
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
        start_what=say("the date Chapter 10.02 took effect"),
        days=ruleset.grinder_removal_days,
        act=say("Removing the grinder"),
        lapse_label=say("A remaining grinder is a violation"),
        calendar=calendar,
        what=say("removing a food grinder"),
        office_act=False,
    )


def cost_recovery_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """N1: clean-up and repair costs paid within ``cost_recovery_payment_days`` of invoicing. A
    payment to the Town: moved to the next business day (CCP §12a, §12b)."""
    return calendar_days_deadline(
        slug="N1",
        provision="N1",
        title="Clean-up and repair costs payment",
        start=start,
        start_what=say("the date the Town invoiced the costs"),
        days=ruleset.cost_recovery_payment_days,
        act=say("Paying the invoice"),
        lapse_label=say("Unpaid costs are delinquent"),
        calendar=calendar,
        what=say("a payment"),
    )


def appeal_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P6: appeal to the Town Council within ``appeal_days`` of notice of the hearing officer's
    decision. A filing with the Town Clerk: moved to the next business day (CCP §12a, §12b)."""
    return calendar_days_deadline(
        slug="P6",
        provision="P6",
        title="Appeal to the Town Council",
        start=start,
        start_what=say("the date of notice of the hearing officer's decision"),
        days=ruleset.appeal_days,
        act=say("Filing the written appeal with the Town Clerk"),
        lapse_label=say("An appeal filed now is late"),
        calendar=calendar,
        what=say("an appeal, filed with the Town Clerk"),
    )


def penalty_payment_due(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P8: an administrative civil penalty order is final on issuance (unless appealed) and paid
    within ``penalty_payment_days``; unpaid, it is delinquent from the day after. A payment to the
    Town: moved to the next business day (CCP §12a, §12b)."""
    return calendar_days_deadline(
        slug="P8",
        provision="P8",
        title="Administrative civil penalty payment",
        start=start,
        start_what=say("the date the penalty order was issued (became final)"),
        days=ruleset.penalty_payment_days,
        act=say("Paying the penalty"),
        lapse_label=say("An unpaid penalty is delinquent"),
        calendar=calendar,
        what=say("a payment"),
    )


def penalty_lien_eligible(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """P9 (with P8): a penalty delinquent ``lien_delinquency_days`` may be recorded as a lien.

    Reading: the payment deadline D is fixed by P8 (moved under §12a); delinquency starts D + 1.
    The penalty has been delinquent for N full days at the end of day D + N, so the last day to pay
    and avoid a lien is D + N (moved under §12a and §12b, since paying is an act at the Town's
    office), and the lien may be recorded from the day after (``lapses_on``).
    """
    payment = penalty_payment_due(start, ruleset=ruleset, calendar=calendar)
    assert payment.due is not None and payment.lapses_on is not None
    days = ruleset.lien_delinquency_days
    steps = list(payment.explanation.steps)
    nominal = payment.due + dt.timedelta(days=days)
    steps.append(
        say(
            "P9: a penalty that has remained delinquent for %(days)s becomes a lien. "
            "Delinquency began %(began)s; %(days)s of delinquency are "
            "complete at the end of %(nominal)s (the payment deadline + %(count)s).",
            days=fmt_days(days),
            began=fmt_date(payment.lapses_on),
            nominal=fmt_date(nominal),
            count=days,
        )
    )
    steps.append(owed_kind_line(say("a payment"), at_office=True))
    due, moved = roll_forward_deadline(nominal, calendar, say("The last day to pay before a lien"), steps)
    steps.append(say("Paying on or before %(due)s avoids the lien.", due=fmt_date(due)))
    return make_deadline(
        slug="P9",
        provisions=("P9", "P8", "Counting days"),
        title="Penalty lien eligibility",
        start=start,
        steps=steps,
        due=due,
        nominal_due=nominal,
        moved=moved,
        lapse_label=say("The unpaid penalty may be recorded as a lien with the County Recorder"),
        earliest=payment.lapses_on,
        counting=(LIMIT_OWED,),
        office_act=True,
    )


def fee_delinquency(start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """Q1: fees, charges and penalties are due on receipt of notice and delinquent if unpaid
    ``fee_delinquency_days`` after the notice date. A payment to the Town: moved to the next
    business day (CCP §12a, §12b)."""
    deadline = calendar_days_deadline(
        slug="Q1",
        provision="Q1",
        title="Fee delinquency",
        start=start,
        start_what=say("the date of the notice of the fee, charge or penalty (due on receipt)"),
        days=ruleset.fee_delinquency_days,
        act=say("Paying the amount"),
        lapse_label=say("Unpaid, the amount is delinquent and a debt to the Town (Q2)"),
        calendar=calendar,
        what=say("a payment"),
    )
    return dataclasses.replace(
        deadline, explanation=explain(("Q1", "Q2", "Counting days"), deadline.explanation.steps)
    )


def next_service_deadline(
    start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar, frequency_days: int
) -> Deadline:
    """E1 / E2: the next full pump-out is due ``frequency_days`` calendar days after the last one. A
    maintenance duty at the establishment: never moved for weekends, holidays or closures (Counting
    days). The ruleset's ``service_grace_days`` only delays the day the device shows overdue."""
    return maintenance_due_deadline(
        slug="E1",
        provisions=("E1", "E2"),
        title="Next full pump-out due",
        start=start,
        start_what=say("the date of the last full pump-out"),
        days=frequency_days,
        act=say("Pumping out the device"),
        lapse_label=say("The device is overdue for service"),
        grace_days=ruleset.service_grace_days,
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
    # What the rule needs besides a start date, name -> description (E1: the service frequency).
    parameters: tuple[tuple[str, str], ...] = ()


def _rule(
    slug: str,
    provisions: tuple[str, ...],
    title: str,
    start: str,
    fn: DeadlineFunction,
    parameters: tuple[tuple[str, str], ...] = (),
):
    return slug, DeadlineRule(slug, provisions, title, start, fn, parameters)


FREQUENCY_PARAMETER = ("frequency_days", "the device's service frequency in days (E1)")


DEADLINE_RULES: dict[str, DeadlineRule] = dict(
    [
        _rule("B6", ("B6",), "Permit renewal due / expiry", "Date the permit was issued or last renewed", permit_expiry),
        _rule("B7", ("B7",), "Frequency change: earliest effective date", "Date notice of the change was given", frequency_change_effective),
        _rule("C4", ("C4",), "Employee BMP training due", "Date of the last employee training", training_due),
        _rule("D8", ("D8",), "Annual device inspection due", "Date of the last Town inspection of the device", device_inspection_due),
        _rule("E1", ("E1", "E2"), "Next full pump-out due", "Date of the last full pump-out", next_service_deadline, (FREQUENCY_PARAMETER,)),
        _rule("F5", ("F5",), "Record retention: earliest purge date", "Date of the manifest, receipt or record", record_retention_end),
        _rule("G1", ("G1",), "Remodel / process change: latest notice date", "Planned start date of the work", remodel_notice_latest),
        _rule("G1-start", ("G1",), "Remodel / process change: earliest start after notice", "Date the written notice was given", remodel_earliest_start),
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


def compute_deadline(
    slug: str, start: dt.date, *, ruleset: Ruleset, calendar: TownCalendar, **parameters: int | None
) -> Deadline:
    """Compute the deadline registered under ``slug``: B6, B7, C4, D8, E1, F5, G1, G1-start, J2, K1,
    L2, L3, L4, M3-hearing, M3-decision, N1, P5, P6, P8, P9, Q1 (Counting days).

    ``parameters`` carries what a rule needs besides the start (E1: ``frequency_days``); a rule
    ignores parameters it does not take. Raises ``UnknownProvision`` for a slug that is not
    registered and ``MissingParameter`` when a parameter the rule needs is missing.
    """
    rule = DEADLINE_RULES.get(slug)
    if rule is None:
        raise UnknownProvision(slug)
    given = {}
    for name, description in rule.parameters:
        if parameters.get(name) is None:
            raise MissingParameter(slug, name, description)
        given[name] = parameters[name]
    return rule.function(start, ruleset=ruleset, calendar=calendar, **given)
