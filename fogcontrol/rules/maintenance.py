"""Device maintenance: due dates, status on a day, and what a reading means (D4, E1-E9, B7).

This module is the public face of the maintenance rules: it re-exports the device basics
(``fogcontrol.rules.devices``) and the frequency rules (``fogcontrol.rules.frequency``), so callers
can import everything from here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from decimal import Decimal

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import maintenance_due_deadline
from fogcontrol.rules.deadlines import Deadline, frequency_change_effective
from fogcontrol.rules.devices import (
    DEVICE_KINDS,
    DEVICE_STATUSES,
    GRAVITY_INTERCEPTOR,
    HYDROMECHANICAL_INTERCEPTOR,
    OTHER,
    STATUS_COMPLIANT,
    STATUS_DUE_SOON,
    STATUS_NEVER_SERVICED,
    STATUS_OVER_LIMIT,
    STATUS_OVERDUE,
    Measurement,
    Observation,
    check_kind,
    default_frequency,
    fill_ratio,
    to_decimal,
)
from fogcontrol.rules.explain import Explanation, explain, fmt_date, fmt_days, fmt_percent, say
from fogcontrol.rules.frequency import (
    FrequencyRecommendation,
    FrequencyRequestDecision,
    InterceptorRequirement,
    accumulation_rate,
    assess_frequency_request,
    interceptor_requirement,
    longest_supported_frequency,
    recommend_frequency,
)
from fogcontrol.rules.ruleset import Ruleset

__all__ = [
    "DEVICE_KINDS",
    "DEVICE_STATUSES",
    "GRAVITY_INTERCEPTOR",
    "HYDROMECHANICAL_INTERCEPTOR",
    "OTHER",
    "STATUS_COMPLIANT",
    "STATUS_DUE_SOON",
    "STATUS_NEVER_SERVICED",
    "STATUS_OVERDUE",
    "STATUS_OVER_LIMIT",
    "DeviceStatus",
    "FrequencyRecommendation",
    "FrequencyRequestDecision",
    "InterceptorRequirement",
    "Measurement",
    "Observation",
    "ReadingConsequences",
    "accumulation_rate",
    "assess_frequency_request",
    "default_frequency",
    "device_status",
    "fill_ratio",
    "interceptor_requirement",
    "longest_supported_frequency",
    "next_service_due",
    "reading_consequences",
    "recommend_frequency",
]


def next_service_due(
    last_full_pumpout: dt.date | None,
    frequency_days: int,
    *,
    calendar: TownCalendar | None = None,
    grace_days: int = 0,
    worded: bool = True,
) -> Deadline | None:
    """E1 / E2: the next full pump-out is due ``frequency_days`` calendar days after the last one.
    A physical duty at the establishment: it does not move over weekends, holidays or closures
    (Counting days), so ``calendar`` is not consulted. ``grace_days`` (the ruleset's
    ``service_grace_days``) only delays "overdue": ``lapses_on`` is due + grace + 1. None when the
    device has never been pumped out (no start to count from). ``worded=False``: the same dates
    without the working.
    """
    if last_full_pumpout is None:
        return None
    return _service_due(last_full_pumpout, frequency_days, grace_days, worded)


@functools.lru_cache(maxsize=4096)
def _service_due(last_full_pumpout: dt.date, frequency_days: int, grace_days: int, worded: bool) -> Deadline:
    # Remembered (issue 16): a pure function of its values (the calendar is not consulted),
    # and a bulk judgement of a town's devices meets the same few hundred days and frequencies
    # thousands of times; ``worded`` keys it, so a result without its working is never handed out
    # to a caller who reads the working.
    # The Deadline is frozen and its steps are immutable, so one instance may be handed out again.
    return maintenance_due_deadline(
        slug="E1",
        provisions=("E1", "E2"),
        title=say("Next full pump-out due"),
        start=last_full_pumpout,
        start_what=say("the date of the last full pump-out") if worded else "",
        days=frequency_days,
        act=say("Pumping out the device") if worded else "",
        lapse_label=say("The device is overdue for service"),
        grace_days=grace_days,
        worded=worded,
    )


@dataclasses.dataclass(frozen=True)
class DeviceStatus:
    """Where a device stands on a day (D4, E1-E3, E6).

    ``next_due`` is the calendar-day due date (never moved); ``grace_days`` is the ruleset's grace
    period and ``overdue_from`` the first day the device shows overdue (due + grace + 1).
    """

    status: str
    on: dt.date
    frequency_days: int
    frequency_is_default: bool
    last_full_pumpout: dt.date | None
    next_due: dt.date | None
    days_until_due: int | None
    fill_ratio: Decimal | None
    fill_limit: Decimal
    explanation: Explanation
    grace_days: int = 0
    overdue_from: dt.date | None = None


def device_status(
    *,
    on: dt.date,
    kind: str,
    assigned_frequency_days: int | None,
    last_full_pumpout: dt.date | None,
    latest_measurement: Measurement | None,
    total_depth_in: Decimal | int | str,
    ruleset: Ruleset,
    calendar: TownCalendar,
    worded: bool = True,
) -> DeviceStatus:
    """D4 / E1-E3 / E6: the device's status on ``on``.

    ``over_limit`` wins when the latest reading taken since the last full pump-out is over the
    E3 limit (a reading taken at that pump-out describes the device before pumping, so it is not
    current). Otherwise ``never_serviced`` without a pump-out on record, ``overdue`` from the day
    after the due date plus ``service_grace_days``, ``due_soon`` within ``service_due_soon_days``
    of the due date, else ``compliant``.

    ``worded=False``: the same status without its working (the explanation keeps its provisions,
    with no steps), for a caller that stores only the figures: the nightly sweep's state rows
    (issue 16). ``_status_working`` says the steps from what is decided here.
    """
    check_kind(kind)
    provisions = ["E1", "E2", "E3", "D4"]
    frequency = assigned_frequency_days or default_frequency(kind, ruleset)
    is_default = not assigned_frequency_days
    ratio = None
    limit = ruleset.fill_limit_ratio
    m = latest_measurement
    current = None  # no reading on or before ``on``; else whether it describes the device now
    if m is not None and m.on <= on:
        current = (
            last_full_pumpout is None
            or m.on > last_full_pumpout
            or (m.on == last_full_pumpout and not m.pumped_out)
        )
        if current:
            ratio = fill_ratio(m.fog_depth_in, m.solids_depth_in, total_depth_in)

    grace = ruleset.service_grace_days
    due = next_service_due(last_full_pumpout, frequency, calendar=calendar, grace_days=grace, worded=worded)
    next_due = due.due if due else None
    overdue_from = due.lapses_on if due else None
    days_until = (next_due - on).days if next_due else None

    if ratio is not None and ratio > limit:
        status = STATUS_OVER_LIMIT
        provisions.append("E6")
    elif last_full_pumpout is None:
        status = STATUS_NEVER_SERVICED
    else:
        assert next_due is not None and days_until is not None and overdue_from is not None
        if on >= overdue_from:
            status = STATUS_OVERDUE
        elif days_until < 0 or days_until <= ruleset.service_due_soon_days:
            status = STATUS_DUE_SOON
        else:
            status = STATUS_COMPLIANT

    steps = (
        _status_working(
            on=on,
            frequency=frequency,
            is_default=is_default,
            measurement=m if current is not None else None,
            current=bool(current),
            ratio=ratio,
            total_depth_in=total_depth_in,
            due=due,
            status=status,
            days_until=days_until,
            ruleset=ruleset,
        )
        if worded
        else []
    )
    return DeviceStatus(
        status=status,
        on=on,
        frequency_days=frequency,
        frequency_is_default=is_default,
        last_full_pumpout=last_full_pumpout,
        next_due=next_due,
        days_until_due=days_until,
        fill_ratio=ratio,
        fill_limit=limit,
        explanation=explain(provisions, steps),
        grace_days=grace,
        overdue_from=overdue_from,
    )


def _status_working(
    *,
    on: dt.date,
    frequency: int,
    is_default: bool,
    measurement: Measurement | None,
    current: bool,
    ratio: Decimal | None,
    total_depth_in,
    due: Deadline | None,
    status: str,
    days_until: int | None,
    ruleset: Ruleset,
) -> list[str]:
    """The steps of ``device_status``'s working, from what it decided (D4, E1-E3, E6)."""
    limit, grace = ruleset.fill_limit_ratio, ruleset.service_grace_days
    steps = [say("Status on %(on)s.", on=fmt_date(on))]
    if is_default:
        steps.append(
            say(
                "No frequency is assigned; the default for this kind of device applies: every %(days)s (E2, E4).",
                days=fmt_days(frequency),
            )
        )
    else:
        steps.append(say("Assigned service frequency: every %(days)s (E1).", days=fmt_days(frequency)))
    m = measurement
    if m is not None and current:
        steps.append(
            say(
                "Latest reading, %(on)s: FOG %(fog)s in + solids %(solids)s in of %(total)s in total depth = "
                "%(ratio)s full (E3 limit %(limit)s).",
                on=fmt_date(m.on),
                fog=m.fog_depth_in,
                solids=m.solids_depth_in,
                total=total_depth_in,
                ratio=fmt_percent(ratio),
                limit=fmt_percent(limit),
            )
        )
    elif m is not None:
        steps.append(
            say(
                "The latest reading (%(on)s) was taken before or at the last full pump-out, so it does not "
                "describe the device now.",
                on=fmt_date(m.on),
            )
        )
    if due is not None:
        steps.extend(due.explanation.steps)
    if status == STATUS_OVER_LIMIT:
        steps.append(
            say(
                "Over the E3 limit of %(limit)s: the device must be serviced immediately, removing all FOG, "
                "sludge and other material (E6).",
                limit=fmt_percent(limit),
            )
        )
        return steps
    if status == STATUS_NEVER_SERVICED:
        steps.append(say("No full pump-out is on record, so no due date can be counted: never serviced."))
        return steps
    assert due is not None and days_until is not None
    next_due, overdue_from = due.due, due.lapses_on
    if status == STATUS_OVERDUE:
        steps.append(
            say(
                "The pump-out was due %(due)s; %(passed)s have passed, more than the grace period of "
                "%(grace)s: overdue.",
                due=fmt_date(next_due),
                passed=fmt_days(-days_until),
                grace=fmt_days(grace),
            )
            if grace
            else say(
                "The pump-out was due %(due)s; %(passed)s have passed: overdue.",
                due=fmt_date(next_due),
                passed=fmt_days(-days_until),
            )
        )
    elif days_until < 0:
        steps.append(
            say(
                "The pump-out was due %(due)s; %(passed)s have passed, within the grace period of %(grace)s: "
                "not yet overdue (overdue from %(overdue_from)s).",
                due=fmt_date(next_due),
                passed=fmt_days(-days_until),
                grace=fmt_days(grace),
                overdue_from=fmt_date(overdue_from),
            )
        )
    elif status == STATUS_DUE_SOON:
        steps.append(
            say(
                "The pump-out is due %(due)s, within %(soon)s: due soon.",
                due=fmt_date(next_due),
                soon=fmt_days(ruleset.service_due_soon_days),
            )
        )
    else:
        steps.append(say("The pump-out is due %(due)s: compliant.", due=fmt_date(next_due)))
    return steps


@dataclasses.dataclass(frozen=True)
class ReadingConsequences:
    """What a reading or manifest requires (E6, E8, B7)."""

    over_limit: bool
    over_capacity: bool
    immediate_service_required: bool
    proposed_frequency_days: int | None
    frequency_change_effective_on: dt.date | None
    interceptor_plans_required: bool
    interceptor_exception: str | None
    flags: tuple[str, ...]
    explanation: Explanation


def reading_consequences(
    *,
    fill_ratio: Decimal | None,
    gallons_removed: Decimal | int | None,
    capacity_gallons: Decimal | int | None,
    kind: str,
    current_frequency_days: int,
    recommendation: FrequencyRecommendation | None,
    notice_date: dt.date,
    ruleset: Ruleset,
    calendar: TownCalendar,
    space_exception: bool = False,
    slope_exception: bool = False,
) -> ReadingConsequences:
    """E6 / E8 / B7: the consequences of a reading (fill ratio) or a manifest (gallons removed).

    - Over the E3 limit, or gallons removed above capacity x (1 + ``manifest_capacity_tolerance``):
      immediate full service is required (E6).
    - A higher frequency is proposed when the average accumulation, projected to the current
      frequency, goes past the E3 limit (the data's recommendation), or else when the device is over
      the limit or over capacity (the next shorter allowed frequency). It takes effect no sooner
      than the B7 notice period after ``notice_date``.
    - A grease trap on the E8 frequency (30 days) whose accumulation over at least
      ``interceptor_min_intervals`` intervals projects past the limit within 30 days must submit
      grease interceptor plans, unless an inadequate-space or inadequate-slope exception is
      recorded (E8, see ``frequency.interceptor_requirement``). One reading over the limit is E6.
    """
    check_kind(kind)
    steps: list[str] = []
    provisions = ["E6", "E3"]
    flags: list[str] = []
    limit = ruleset.fill_limit_ratio
    over_limit = fill_ratio is not None and fill_ratio > limit
    if fill_ratio is not None:
        steps.append(
            say(
                "Fill: %(ratio)s of total depth; limit %(limit)s (E3): over the limit.",
                ratio=fmt_percent(fill_ratio),
                limit=fmt_percent(limit),
            )
            if over_limit
            else say(
                "Fill: %(ratio)s of total depth; limit %(limit)s (E3): within the limit.",
                ratio=fmt_percent(fill_ratio),
                limit=fmt_percent(limit),
            )
        )
    over_capacity = False
    if gallons_removed is not None and capacity_gallons is not None:
        removed = to_decimal(gallons_removed, "gallons_removed")
        capacity = to_decimal(capacity_gallons, "capacity_gallons")
        ceiling = capacity * (1 + ruleset.manifest_capacity_tolerance)
        over_capacity = removed > ceiling
        removed_values = {
            "removed": removed,
            "capacity": capacity,
            "ceiling": ceiling,
            "tolerance": fmt_percent(ruleset.manifest_capacity_tolerance),
        }
        steps.append(
            say(
                "Removed %(removed)s gal from a %(capacity)s gal device (flagged above %(ceiling)s gal, "
                "capacity plus %(tolerance)s): over capacity.",
                **removed_values,
            )
            if over_capacity
            else say(
                "Removed %(removed)s gal from a %(capacity)s gal device (flagged above %(ceiling)s gal, "
                "capacity plus %(tolerance)s).",
                **removed_values,
            )
        )
        if over_capacity:
            flags.append("over_capacity")
        if removed < capacity * ruleset.manifest_low_volume_ratio:
            flags.append("low_volume")
            steps.append(
                say(
                    "Less than %(ratio)s of capacity was removed: check that this was a full pump-out.",
                    ratio=fmt_percent(ruleset.manifest_low_volume_ratio),
                )
            )
    if over_limit:
        flags.append("over_limit")
    immediate = over_limit or over_capacity
    if immediate:
        steps.append(
            say("The device must be serviced immediately, removing all FOG, sludge and other material (E6).")
        )

    allowed = sorted(ruleset.allowed_frequencies_days)
    shorter = [days for days in allowed if days < current_frequency_days]
    recommended = None
    if recommendation is not None and recommendation.enough_data:
        recommended = recommendation.recommended_frequency_days
    # E3 / E4: the data calls for a shorter frequency only when its average, projected to the
    # current frequency, goes past the limit (not because a longer one has not been observed).
    projected_now = recommendation.projected_fill_at(current_frequency_days) if recommended else None
    proposed = None
    if (
        recommended is not None
        and recommended < current_frequency_days
        and projected_now is not None
        and projected_now > limit
    ):
        proposed = recommended
        steps.append(
            say(
                "The average accumulation projects %(projected)s at the current %(current)s, over the limit; "
                "the data supports every %(recommended)s (E1, E3, E4).",
                projected=fmt_percent(projected_now),
                current=fmt_days(current_frequency_days),
                recommended=fmt_days(recommended),
            )
        )
    elif immediate and shorter:
        proposed = shorter[-1]
        steps.append(
            say(
                "Proposed: the next shorter allowed frequency, every %(days)s (E1, E6).",
                days=fmt_days(proposed),
            )
        )
    # "Needs more frequent service than E1 allows" is a finding on the data, not on one reading.
    needs_more = recommendation is not None and recommendation.needs_more_frequent_than_allowed
    if needs_more and not shorter:
        flags.append("needs_more_frequent_than_allowed")
        steps.append(
            say(
                "The device is already on the shortest allowed frequency (%(days)s) and its accumulation data "
                "shows it needs more frequent service.",
                days=fmt_days(current_frequency_days),
            )
        )
    effective = None
    if proposed is not None:
        provisions.append("B7")
        notice = frequency_change_effective(notice_date, ruleset=ruleset, calendar=calendar)
        effective = notice.earliest
        steps.extend(notice.explanation.steps[1:])

    e8 = interceptor_requirement(
        kind=kind,
        current_frequency_days=current_frequency_days,
        recommendation=recommendation,
        ruleset=ruleset,
        space_exception=space_exception,
        slope_exception=slope_exception,
    )
    plans_required = e8.required
    exception = e8.exception
    if e8.applies and (e8.needs_more_frequent or immediate):
        provisions.append("E8")
        steps.extend(e8.explanation.steps[1:])
    if plans_required:
        flags.append("interceptor_plans_required")
    if not steps:
        steps.append(say("No consequence: nothing was over the limit or capacity."))
    return ReadingConsequences(
        over_limit=over_limit,
        over_capacity=over_capacity,
        immediate_service_required=immediate,
        proposed_frequency_days=proposed,
        frequency_change_effective_on=effective,
        interceptor_plans_required=plans_required,
        interceptor_exception=exception,
        flags=tuple(flags),
        explanation=explain(provisions, steps),
    )
