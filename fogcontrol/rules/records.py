"""The records an FSE owes the Town, and when (C2, C4, C5, D7, E9, F2, F3, F4, F6; "Counting days").

- C4 employee training: at the time of hiring (within ``new_hire_training_days`` of the hire date)
  and again on the anniversary of the last training (``training_interval_years``). Training is done
  in the kitchen: a last day on a weekend or holiday moves to the next day that is neither (CCP §12a);
  a Town closure day does not move it (CCP §12b is for acts at the office).
- Reports the FOG Manager requires (C5 BMP status, F3 self-monitoring, F2 CCTV, F6 cleaning and
  spill records): every N days or N months from a first due date. A report is a filing with the
  Town: a last day on a weekend, holiday or closure day moves to the next business day (CCP §12a,
  §12b). A report not received by its due date is late from the next day (F3, F4).
- What the FOG Manager requests once (D7 monitoring facilities, waste analysis and contingency
  plans; E9 frequency data): due on the date the request names, else ``record_request_days`` after
  the request; moved like any filing.
- Every obligation has one status on a day: done, late (from the day after its due date), due
  (within ``obligation_due_soon_days`` of it) or upcoming.

Pure functions over plain data; today is an argument.
"""

from __future__ import annotations

import calendar as std_calendar
import dataclasses
import datetime as dt

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import (
    LIMIT_OWED,
    Deadline,
    calendar_days_deadline,
    make_deadline,
    owed_kind_line,
    roll_forward_deadline,
    start_line,
)
from fogcontrol.rules.deadlines import training_due
from fogcontrol.rules.explain import fmt_date, fmt_days, say
from fogcontrol.rules.ruleset import Ruleset

UPCOMING = "upcoming"
DUE = "due"
LATE = "late"
DONE = "done"
STATUSES = (LATE, DUE, UPCOMING, DONE)  # the order a list shows them in: late first

EVERY_DAYS = "days"
EVERY_MONTHS = "months"
ONCE = "once"

# What each kind of report or request is, and the provision that lets the FOG Manager require it.
REPORT_KINDS: dict[str, tuple[str, str]] = {
    "bmp_status": ("C5", "BMP status report"),
    "self_monitoring": ("F3", "Self-monitoring report"),
    "cctv": ("F2", "CCTV inspection of the downstream lines"),
    "lateral_cleaning": ("F6", "Lateral cleaning and spill records"),
    "monitoring_facilities": ("D7", "Monitoring, metering or sampling facilities"),
    "waste_analysis_plan": ("D7", "Waste analysis plan"),
    "contingency_plan": ("D7", "Contingency plan"),
    "frequency_data": ("E9", "Data to set the service frequency"),
}
# Kinds the FOG Manager requests once (D7, E9); the others may recur (C5, F2, F3, F6).
REQUEST_KINDS = frozenset(
    {"monitoring_facilities", "waste_analysis_plan", "contingency_plan", "frequency_data"}
)


# --- C4 training --------------------------------------------------------------------------------


def next_training_due(last_training_on: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """C4: the FSE's next annual training, on the anniversary of its last training session (Counting
    days: an annual duty; moved off a weekend or holiday, never by a closure day)."""
    return training_due(last_training_on, ruleset=ruleset, calendar=calendar)


def new_hire_training_due(hire_date: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """C4 "at the time of hiring": a new employee is trained within ``new_hire_training_days`` of the
    hire date (what a person owes the Town, done in the kitchen: CCP §12a moves it, §12b does not)."""
    return calendar_days_deadline(
        slug="C4-new-hire",
        provision="C4",
        title="New employee trained at hiring",
        start=hire_date,
        start_what=say("the employee's hire date"),
        days=ruleset.new_hire_training_days,
        act=say("Training the new employee"),
        lapse_label=say("The new employee's training is late"),
        calendar=calendar,
        what=say("employee training"),
        office_act=False,
    )


def new_hire_trained_late(
    hire_date: dt.date, trained_on: dt.date | None, *, on: dt.date, ruleset: Ruleset, calendar: TownCalendar
) -> bool:
    """C4: is this new employee late for training on ``on``? Trained on or before the due date is on
    time; untrained, late from the day after it; trained after it, late (the record shows it)."""
    deadline = new_hire_training_due(hire_date, ruleset=ruleset, calendar=calendar)
    if trained_on is not None:
        return trained_on > deadline.due
    return on >= deadline.lapses_on


# --- reports (C5, F2, F3, F6) and requests (D7, E9) ---------------------------------------------


def add_months(day: dt.date, months: int) -> tuple[dt.date, bool]:
    """``day`` plus whole months (C5, F3 reports every N months): the same day of the month, or the
    month's last day when it has no such day (January 31 + 1 month = February 28). True when clipped."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    last = std_calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day.day, last)), day.day > last


@dataclasses.dataclass(frozen=True)
class ReportPeriod:
    """One report owed under a requirement: its number (1 for the first), the date the schedule
    names and the deadline after any move (C5, F2, F3, F6, D7, E9)."""

    number: int
    scheduled_on: dt.date
    deadline: Deadline

    @property
    def due_on(self) -> dt.date:
        return self.deadline.due


def _scheduled(first_due_on: dt.date, every: int, unit: str, index: int) -> tuple[dt.date, str]:
    if index == 0:
        return first_due_on, say(
            "The first report is due on %(day)s, as the requirement says.", day=fmt_date(first_due_on)
        )
    if unit == EVERY_MONTHS:
        day, clipped = add_months(first_due_on, every * index)
        months = every * index
        span = say("1 month") if months == 1 else say("%(count)s months", count=months)
        if clipped:
            return day, say(
                "Report %(number)s is due %(span)s after the first due date: %(day)s (that month has no "
                "such day: its last day).",
                number=index + 1,
                span=span,
                day=fmt_date(day),
            )
        return day, say(
            "Report %(number)s is due %(span)s after the first due date: %(day)s.",
            number=index + 1,
            span=span,
            day=fmt_date(day),
        )
    day = first_due_on + dt.timedelta(days=every * index)
    return day, say(
        "Report %(number)s is due %(span)s after the first due date: %(day)s.",
        number=index + 1,
        span=fmt_days(every * index),
        day=fmt_date(day),
    )


def report_period(
    *, kind: str, first_due_on: dt.date, every: int, unit: str, number: int, calendar: TownCalendar
) -> ReportPeriod:
    """Report ``number`` of a requirement (C5, F2, F3, F6; D7, E9 when once): scheduled every ``every``
    days or months from the first due date; a filing with the Town, so a last day on a weekend,
    holiday or closure day moves to the next business day (Counting days; CCP §12a, §12b)."""
    if kind not in REPORT_KINDS:
        raise ValueError(f"unknown kind of report: {kind}")
    if unit not in (EVERY_DAYS, EVERY_MONTHS, ONCE):
        raise ValueError(f"unknown schedule unit: {unit}")
    if unit != ONCE and every < 1:
        raise ValueError("a recurring report is due every 1 or more days or months")
    if number < 1 or (unit == ONCE and number != 1):
        raise ValueError("no such report in this schedule")
    provision, title = REPORT_KINDS[kind]
    scheduled, line = _scheduled(first_due_on, every, unit, number - 1)
    steps = [start_line(first_due_on, say("the first due date the FOG Manager set")), line]
    steps.append(owed_kind_line(say("a report filed with the Town"), at_office=True))
    due, moved = roll_forward_deadline(scheduled, calendar, say("The due date"), steps, at_office=True)
    steps.append(say("A report received on or before %(due)s is on time.", due=fmt_date(due)))
    deadline = make_deadline(
        slug=f"{provision}-{kind}",
        provisions=(provision, "F4", "Counting days"),
        title=title,
        start=first_due_on,
        steps=steps,
        due=due,
        nominal_due=scheduled,
        moved=moved,
        lapse_label=say("The report is late (F3, F4)"),
        counting=(LIMIT_OWED,),
        office_act=True,
    )
    return ReportPeriod(number=number, scheduled_on=scheduled, deadline=deadline)


def report_periods(
    *,
    kind: str,
    first_due_on: dt.date,
    every: int,
    unit: str,
    through: dt.date,
    calendar: TownCalendar,
    ends_on: dt.date | None = None,
) -> list[ReportPeriod]:
    """Every report owed under a requirement whose scheduled date is on or before ``through``, then
    the next one (the one to come), C5, F2, F3, F6; a once-only request (D7, E9) owes one. No report
    is scheduled after ``ends_on`` (the requirement was lifted)."""
    periods: list[ReportPeriod] = []
    number = 1
    while True:
        period = report_period(
            kind=kind, first_due_on=first_due_on, every=every, unit=unit, number=number, calendar=calendar
        )
        if ends_on is not None and period.scheduled_on > ends_on:
            break
        periods.append(period)
        if unit == ONCE or period.scheduled_on > through:
            break
        number += 1
    return periods


def request_first_due(requested_on: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """D7, E9: a plan, facility or data the FOG Manager requests without naming a date is due
    ``record_request_days`` after the request (a filing: CCP §12a, §12b move it)."""
    return calendar_days_deadline(
        slug="D7-request",
        provision="D7",
        title="Requested plan or data due",
        start=requested_on,
        start_what=say("the date of the FOG Manager's request"),
        days=ruleset.record_request_days,
        act=say("Submitting what was requested"),
        lapse_label=say("The submission is late (F4)"),
        calendar=calendar,
        what=say("a submission to the Town"),
        office_act=True,
    )


# --- one status for every obligation -------------------------------------------------------------


def obligation_status(due_on: dt.date, *, done: bool, on: dt.date, ruleset: Ruleset) -> str:
    """C4, C5, D7, E9, F2, F3, F6 (Counting days): done when met; late from the day after the due
    date; due within ``obligation_due_soon_days`` of it (or on it); upcoming before that."""
    if done:
        return DONE
    if on > due_on:
        return LATE
    if (due_on - on).days <= ruleset.obligation_due_soon_days:
        return DUE
    return UPCOMING


def status_order(status: str) -> int:
    """Counting days: the place of a status in the FSE's list, late first, then due, upcoming, done."""
    return STATUSES.index(status)
