"""A requirement's reports as the rules compute them (C5, D7, E9, F2, F3, F6): the model's fields
handed to ``fogcontrol.rules.records``, so services, selectors and the sweep read one schedule."""

from __future__ import annotations

import datetime as dt

from fogcontrol.records.models import RecordRequirement
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.records import ReportPeriod, report_period, report_periods


def requirement_periods(
    requirement: RecordRequirement, *, through: dt.date, calendar: TownCalendar
) -> list[ReportPeriod]:
    """Every report of the requirement scheduled on or before ``through``, then the next one."""
    return report_periods(
        kind=requirement.kind,
        first_due_on=requirement.first_due_on,
        every=requirement.every,
        unit=requirement.unit,
        through=through,
        calendar=calendar,
        ends_on=requirement.ends_on,
    )


def requirement_period(
    requirement: RecordRequirement, number: int, *, calendar: TownCalendar
) -> ReportPeriod:
    """Report ``number`` of the requirement (ValueError when the schedule has no such report)."""
    return report_period(
        kind=requirement.kind,
        first_due_on=requirement.first_due_on,
        every=requirement.every,
        unit=requirement.unit,
        number=number,
        calendar=calendar,
    )
