"""Servicing rules the app needs that the maintenance rules do not carry yet (D4, E1-E7, F5, F7).

Pure functions, no ORM, no clock: the servicing app hands in dates, readings and the ``Ruleset``.

- ``status_window``: the set-based form of ``maintenance.device_status`` for the nightly sweep.
- ``observations_from_history``: turns a device's pump-outs and readings into the E4 / E5
  observations that ``recommend_frequency`` and ``assess_frequency_request`` take.
- ``latest_measurement``: the reading that describes the device now (D4, E3).
- The review flags: facts on a manifest that are possible but suspicious (E6, E7, F7). A flag
  never refuses a manifest; it puts it in front of staff.
- ``purge_allowed``: F5 retention with a litigation hold, and the Town's approval (Gov. Code §34090).

The program settings below are not numbers of the ordinance (PROVISIONS.md has none for them);
they are how far apart two facts must be before staff are asked to look.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import operator
from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.deadlines import record_retention_end
from fogcontrol.rules.devices import Measurement, Observation
from fogcontrol.rules.explain import fmt_date, fmt_percent, say
from fogcontrol.rules.ruleset import Ruleset

FLAG_OVER_CAPACITY = "over_capacity"
FLAG_LOW_VOLUME = "low_volume"
FLAG_OVER_LIMIT = "over_limit"
FLAG_VEHICLE_CONFLICT = "vehicle_conflict"
FLAG_CONTRADICTS_INSPECTION = "contradicts_inspection"
FLAG_LATE_AFTER_OVER_LIMIT = "late_after_over_limit"
FLAG_BAFFLES_NOT_CLEANED = "baffles_not_cleaned"
FLAG_SERVICED_LATE = "serviced_late"
FLAG_DEVICE_REMOVED = "device_removed"
FLAG_NO_DESIGN_DEPTH = "no_design_depth"
FLAG_NO_RECEIVING_FACILITY = "no_receiving_facility"
FLAG_NEEDS_MORE_FREQUENT = "needs_more_frequent_than_allowed"
FLAG_INTERCEPTOR_PLANS = "interceptor_plans_required"
FLAG_NUMBER_SHARED = "manifest_number_shared"

# What each flag means, with the provision it rests on: shown to staff beside the manifest.
FLAG_TITLES = {
    FLAG_OVER_CAPACITY: ("E6", "More gallons removed than the device holds (beyond the tolerance)"),
    FLAG_LOW_VOLUME: ("E7", "A full pump-out that removed far less than the device holds"),
    FLAG_OVER_LIMIT: ("E3", "FOG and solids over the 25% limit before pumping"),
    FLAG_VEHICLE_CONFLICT: ("F7", "The same vehicle at two sites at the same time"),
    FLAG_CONTRADICTS_INSPECTION: ("F7", "The reading contradicts a recent inspection"),
    FLAG_LATE_AFTER_OVER_LIMIT: ("E6", "Service came late after the device was found over the limit"),
    FLAG_BAFFLES_NOT_CLEANED: ("E7", "A full pump-out without the baffles cleaned"),
    FLAG_SERVICED_LATE: ("E1", "Serviced after the due date"),
    FLAG_DEVICE_REMOVED: ("A3", "The device is recorded as removed from service"),
    FLAG_NO_DESIGN_DEPTH: ("E3", "The device has no design depth on record: the 25% rule cannot be checked"),
    FLAG_NO_RECEIVING_FACILITY: ("E7", "No receiving facility named for the removed material"),
    FLAG_NEEDS_MORE_FREQUENT: ("E8", "Needs service more often than the shortest allowed frequency"),
    FLAG_INTERCEPTOR_PLANS: ("E8", "A grease trap that needs an interceptor"),
    FLAG_NUMBER_SHARED: ("F7", "A manifest filed by the FSE or owner shares the hauler's manifest number"),
}


@dataclasses.dataclass(frozen=True)
class Flag:
    """One reason for staff to look at a manifest."""

    code: str
    provision: str
    message: str


def flag(code: str, message: str) -> Flag:
    """A review flag with the provision its code stands for (E6, E7, F7: see ``FLAG_TITLES``)."""
    return Flag(code=code, provision=FLAG_TITLES[code][0], message=message)


# --- status by date ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StatusWindow:
    """The due dates that separate the statuses on ``on`` (D4, E1).

    A device with a due date BEFORE ``overdue_if_due_before`` is overdue; one due on or before
    ``due_soon_if_due_by`` (and not overdue) is due soon; anything later is compliant. Over the
    limit and never serviced do not depend on the date. This is exactly the date part of
    ``maintenance.device_status``, in a form one UPDATE statement can apply to every device.
    """

    on: dt.date
    overdue_if_due_before: dt.date
    due_soon_if_due_by: dt.date


def status_window(on: dt.date, ruleset: Ruleset) -> StatusWindow:
    """The due dates that separate overdue, due soon and compliant on ``on`` (D4, E1), with the
    ruleset's grace period and due-soon notice."""
    return StatusWindow(
        on=on,
        overdue_if_due_before=on - dt.timedelta(days=ruleset.service_grace_days),
        due_soon_if_due_by=on + dt.timedelta(days=ruleset.service_due_soon_days),
    )


# --- history -> observations -------------------------------------------------------------------


class ServiceEvent(NamedTuple):
    """One thing that happened to a device: a manifest (service) or a reading (inspection,
    self-monitoring). Depths are measured BEFORE any pumping (E3, D4).

    A named tuple, not a frozen dataclass: the sweep's first run builds one for each of a
    program's recent manifests (22,000 at 1,000 FSEs), and a frozen dataclass takes three times as
    long to make (issue 16). Immutable either way."""

    on: dt.date
    full_pumpout: bool
    fog_depth_in: Decimal | None
    solids_depth_in: Decimal | None
    source: str = ""

    @property
    def has_reading(self) -> bool:
        return self.fog_depth_in is not None and self.solids_depth_in is not None


# On one day a reading without pumping comes before a pump-out, so it counts from the previous
# pump-out, not from the one that emptied the device that day. A stable sort: events of one day and
# kind keep the order they were given in.
_BY_DAY = operator.attrgetter("on", "full_pumpout")


def _ordered(events: Iterable[ServiceEvent]) -> list[ServiceEvent]:
    return sorted(events, key=_BY_DAY)


@dataclasses.dataclass(frozen=True)
class HistoryFacts:
    """What a device's history says, read in one pass over its events in order (D4, E1-E5, E9):
    ``last_full_pumpout``, ``latest_measurement`` and ``observations_from_history`` at once, and
    the day of the latest manifest (``source == "manifest"``). The sweep's first run judges every
    device of the program this way (issue 16)."""

    last_full_pumpout: dt.date | None
    latest_measurement: Measurement | None
    observations: tuple[Observation, ...]
    last_service_on: dt.date | None


def history_facts(events: Iterable[ServiceEvent]) -> HistoryFacts:
    """D4 / E1-E5: the three readings of a history below, and the latest manifest's day, from one sort.

    In day order the last full pump-out is the latest, the last reading is the latest measurement
    (on one day, the one given last), and the last manifest is on the latest manifest day."""
    observations: list[Observation] = []
    last_pumpout: dt.date | None = None
    last_reading: ServiceEvent | None = None
    last_service_on: dt.date | None = None
    for event in _ordered(events):
        on, full_pumpout, fog, solids, source = event  # a tuple unpacked: five attribute reads a event fewer
        if fog is not None and solids is not None:  # has_reading
            last_reading = event
            if last_pumpout is not None:
                days = (on - last_pumpout).days
                if days > 0:
                    observations.append(Observation(days, fog, solids, last_pumpout))
        if full_pumpout:
            last_pumpout = on
        if source == "manifest":
            last_service_on = on
    return HistoryFacts(
        last_full_pumpout=last_pumpout,
        latest_measurement=_measurement(last_reading) if last_reading is not None else None,
        observations=tuple(observations),
        last_service_on=last_service_on,
    )


def _measurement(event: ServiceEvent) -> Measurement:
    return Measurement(
        on=event.on,
        fog_depth_in=event.fog_depth_in,
        solids_depth_in=event.solids_depth_in,
        pumped_out=event.full_pumpout,
        source=event.source,
    )


def observations_from_history(events: Iterable[ServiceEvent]) -> tuple[Observation, ...]:
    """E4 / E5 / E8 / E9: every reading taken after a full pump-out, as (days since that pump-out,
    FOG, solids, the pump-out's date). A pump-out's own reading (taken before pumping) counts from the previous pump-out.
    Readings before the first pump-out on record say nothing about the rate and are left out.
    """
    return history_facts(events).observations


def last_full_pumpout(events: Iterable[ServiceEvent]) -> dt.date | None:
    """The day of the last full pump-out, from which the next service falls due (E1, E2)."""
    return max((e.on for e in events if e.full_pumpout), default=None)


def latest_measurement(events: Iterable[ServiceEvent]) -> Measurement | None:
    """The most recent reading, as the ``Measurement`` that ``device_status`` takes (D4, E3)."""
    return history_facts(events).latest_measurement


# --- review flags ------------------------------------------------------------------------------


def vehicle_conflict_flag(
    *, plate: str, serviced_at: dt.datetime, other_site: str, other_serviced_at: dt.datetime, ruleset: Ruleset
) -> Flag:
    """F7: one truck cannot be at two sites at once; the other visit is named so staff can check."""
    minutes = abs(int((serviced_at - other_serviced_at).total_seconds() // 60))
    return flag(
        FLAG_VEHICLE_CONFLICT,
        say(
            "Vehicle %(plate)s is also recorded at %(site)s %(minutes)s minute(s) apart (less than %(least)s minutes).",
            plate=plate,
            site=other_site,
            minutes=minutes,
            least=ruleset.manifest_vehicle_conflict_minutes,
        ),
    )


def inspection_flags(
    *,
    service_date: dt.date,
    full_pumpout: bool,
    manifest_ratio: Decimal | None,
    over_limit_reading_on: dt.date | None,
    over_limit_reading_ratio: Decimal | None,
    ruleset: Ruleset,
) -> list[Flag]:
    """E6 / F7: a manifest after a reading that found the device over the limit.

    - The pump-out came ``ruleset.immediate_service_days`` or more after that reading: E6 asks for
      immediate service.
    - The manifest's own reading, within ``ruleset.inspection_contradiction_days`` of the over-limit
      reading, shows the device within the limit: one of the two is wrong (F7).
    """
    if over_limit_reading_on is None or over_limit_reading_on > service_date:
        return []
    flags: list[Flag] = []
    gap = (service_date - over_limit_reading_on).days
    found = (
        say("found %(ratio)s full", ratio=fmt_percent(over_limit_reading_ratio))
        if over_limit_reading_ratio
        else say("found over")
    )
    if full_pumpout and gap >= ruleset.immediate_service_days:
        flags.append(
            flag(
                FLAG_LATE_AFTER_OVER_LIMIT,
                say(
                    "The device was %(found)s on %(on)s and must be serviced immediately (E6); this pump-out "
                    "came %(gap)s day(s) later.",
                    found=found,
                    on=fmt_date(over_limit_reading_on),
                    gap=gap,
                ),
            )
        )
    if (
        manifest_ratio is not None
        and gap <= ruleset.inspection_contradiction_days
        and manifest_ratio <= ruleset.fill_limit_ratio
    ):
        flags.append(
            flag(
                FLAG_CONTRADICTS_INSPECTION,
                say(
                    "An inspection on %(on)s %(found)s; this manifest reports %(ratio)s before pumping %(gap)s "
                    "day(s) later.",
                    on=fmt_date(over_limit_reading_on),
                    found=found,
                    ratio=fmt_percent(manifest_ratio),
                    gap=gap,
                ),
            )
        )
    return flags


def serviced_late_flag(*, service_date: dt.date, due: dt.date | None, grace_days: int = 0) -> Flag | None:
    """E1: a full pump-out after the due date and the ruleset's grace period, when the device was
    overdue (the maintenance schedule was not followed, P7(3)). The due date is in calendar days."""
    if due is None or service_date <= due + dt.timedelta(days=grace_days):
        return None
    late = (service_date - due).days
    return flag(
        FLAG_SERVICED_LATE,
        say(
            "The pump-out was due %(due)s; it was done %(late)s day(s) late, after a grace period of %(grace)s day(s).",
            due=fmt_date(due),
            late=late,
            grace=grace_days,
        )
        if grace_days
        else say(
            "The pump-out was due %(due)s; it was done %(late)s day(s) late.", due=fmt_date(due), late=late
        ),
    )


# --- retention ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PurgeDecision:
    allowed: bool
    earliest_purge: dt.date
    reason: str


def purge_allowed(
    *,
    record_date: dt.date,
    today: dt.date,
    held: bool,
    ruleset: Ruleset,
    calendar: TownCalendar,
    town_approval: str | None = None,
) -> PurgeDecision:
    """F5: a record may be destroyed only after its retention period, and never under a
    litigation hold (which keeps it as long as the hold lasts).

    F5 is the permittee's minimum. The Town's own copy of record also falls under its
    records-retention schedule (California Government Code §34090): it is destroyed only with the
    approval of the Town Council and the written consent of the city attorney. `town_approval`
    names that approval when one covers the record; without it the record is kept."""
    retention = record_retention_end(record_date, ruleset=ruleset, calendar=calendar)
    earliest = retention.earliest
    assert earliest is not None
    if held:
        return PurgeDecision(
            False, earliest, say("A litigation hold keeps this record until the hold is released.")
        )
    if today < earliest:
        return PurgeDecision(
            False,
            earliest,
            say(
                "F5 keeps this record at least %(years)s year(s): it may not be destroyed before %(earliest)s.",
                years=ruleset.record_retention_years,
                earliest=fmt_date(earliest),
            ),
        )
    if not town_approval:
        return PurgeDecision(
            False,
            earliest,
            say(
                "F5's %(years)s year(s) ended on %(ended)s, but F5 is the permittee's minimum: this is the Town's "
                "copy of record, kept under the Town's records-retention schedule until the Town Council approves "
                "its destruction and the city attorney consents in writing (Gov. Code §34090). Record that "
                "approval, then purge.",
                years=ruleset.record_retention_years,
                ended=fmt_date(earliest - dt.timedelta(days=1)),
            ),
        )
    return PurgeDecision(
        True,
        earliest,
        say(
            "Retention ended; destroyable since %(earliest)s (F5), with the Town's approval: %(approval)s "
            "(Gov. Code §34090).",
            earliest=fmt_date(earliest),
            approval=town_approval,
        ),
    )
