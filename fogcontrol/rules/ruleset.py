"""The program's policy values: every bold number of Chapter 10.02, as data.

A ``Ruleset`` is one version of the Town's rules. The database keeps each version with the
date it takes effect (``fogcontrol.program.models.RulesetVersion``); the rules functions take
the ``Ruleset`` in force on the day being judged, so a decision made under last year's numbers
is still judged by last year's numbers.

Nothing here reads the database or the clock: ``Ruleset`` is plain, frozen data.
Money is ``Decimal`` (whole dollars in the ordinance); ratios are ``Decimal`` too, so that
25% is exactly 0.25.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

from fogcontrol.rules.explain import say

# (drainage fixture units, interceptor gallons): California Plumbing Code Table 1014.3.6,
# gravity grease interceptor sizing. Codes change, so the table is ruleset data (A4).
CPC_GRAVITY_INTERCEPTOR_TABLE: tuple[tuple[int, int], ...] = (
    (8, 500),
    (21, 750),
    (35, 1000),
    (90, 1250),
    (172, 1500),
    (216, 2000),
    (307, 2500),
    (342, 3000),
    (428, 4000),
    (576, 5000),
    (720, 7500),
    (2112, 10000),
    (2640, 15000),
)


# Drainage fixture unit (DFU) values of the plumbing fixtures found in food service kitchens:
# California Plumbing Code Table 702.1 (2022 CPC, from the 2021 UPC), "public" column: a food
# service kitchen is public use. The gravity interceptor is sized from the sum of the DFU of the
# fixtures that drain to it (A4, CPC 1014.3.6). Keys are the fixture kinds of a permit application
# (fogcontrol.permits). Appliances that Table 702.1 does not list (commercial dishwashers, kettles,
# skillets, wok ranges, combination ovens) are all rated the same way: by their trap size, CPC
# Table 702.2(1) (the DFU a trap of that size may carry). Indirect-waste receptors (floor sinks) are
# not here: Table 702.1 note 1 sizes a receptor by what drains into it, and those fixtures are
# counted on their own lines. Appliances with no drain (fryers, ranges, ovens) carry no load. Codes change, so the values are ruleset data; docs/rules.md lists
# what a Town must confirm against its adopted CPC edition.
CPC_FIXTURE_DFU: dict[str, int] = {
    "sink_three_compartment": 3,  # Table 702.1: sink, commercial, with food waste (1-1/2 in), public
    "sink_two_compartment": 3,  # Table 702.1: sink, commercial, with food waste (1-1/2 in), public
    "sink_one_compartment": 3,  # Table 702.1: sink, commercial, with food waste (1-1/2 in), public
    "hand_sink": 1,  # Table 702.1: lavatory, single (1-1/4 in), public
    "bar_sink": 2,  # Table 702.1: sink, bar (1-1/2 in), public (1 is the private column)
    "mop_sink": 3,  # Table 702.1: service or mop basin (2 in), public
    "floor_drain": 2,  # Table 702.1: floor drain (2 in), public
    "food_grinder": 3,  # Table 702.1: food-waste disposer, commercial (2 in), public (K1: none new)
    "dishwasher": 4,  # not in Table 702.1: by its 2 in trap, Table 702.2(1)
    "steam_kettle": 4,  # not in Table 702.1: by its 2 in trap, Table 702.2(1)
    "tilt_skillet": 4,  # not in Table 702.1: by its 2 in trap, Table 702.2(1)
    "wok_range": 4,  # not in Table 702.1: by its 2 in trap, Table 702.2(1)
    "combi_oven": 1,  # not in Table 702.1: by its 1-1/4 in trap, Table 702.2(1)
}

# Where each default DFU value comes from, for the working shown to the reviewer (said again in the
# reader's language, issue 18).
CPC_FIXTURE_DFU_SOURCES: dict[str, str] = {
    "sink_three_compartment": say("CPC Table 702.1, sink, commercial, with food waste"),
    "sink_two_compartment": say("CPC Table 702.1, sink, commercial, with food waste"),
    "sink_one_compartment": say("CPC Table 702.1, sink, commercial, with food waste"),
    "hand_sink": say("CPC Table 702.1, lavatory"),
    "bar_sink": say("CPC Table 702.1, sink, bar, public use"),
    "mop_sink": say("CPC Table 702.1, service or mop basin"),
    "floor_drain": say("CPC Table 702.1, floor drain"),
    "food_grinder": say("CPC Table 702.1, food-waste disposer, commercial"),
    "dishwasher": say("by its 2 in trap, CPC Table 702.2(1)"),
    "steam_kettle": say("by its 2 in trap, CPC Table 702.2(1)"),
    "tilt_skillet": say("by its 2 in trap, CPC Table 702.2(1)"),
    "wok_range": say("by its 2 in trap, CPC Table 702.2(1)"),
    "combi_oven": say("by its 1-1/4 in trap, CPC Table 702.2(1)"),
}

# The most drainage fixture units a horizontal drainage pipe of each size may carry: CPC Table 703.2
# (drainage piping, horizontal). Keys are pipe sizes in inches as text ("2.5" for 2-1/2 in). Where
# the fixtures' DFUs are unknown, a gravity interceptor is sized by the pipe connected to its inlet
# (CPC 1014.3.6). Ruleset data: a Town confirms it against its adopted CPC edition.
CPC_INLET_PIPE_MAX_DFU: dict[str, int] = {
    "1.25": 1,
    "1.5": 1,
    "2": 8,
    "2.5": 14,
    "3": 35,
    "4": 216,
    "5": 428,
    "6": 720,
    "8": 2640,
}


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """One version of the program's numbers. Field comments name the provision."""

    # A4: grease interceptor construction minimums.
    interceptor_min_compartments: int = 2
    interceptor_min_manhole_inches: int = 20

    # B6: permit term, renewed with the business licence.
    permit_term_years: int = 1
    # B7: notice before a change of cleaning (service) frequency takes effect. A minimum: never moves.
    frequency_change_notice_days: int = 10

    # C4: employee BMP training interval.
    training_interval_years: int = 1
    # C4 "at the time of hiring": days after the hire date by which a new employee is trained
    # (0: on the hire date itself; moved off a weekend or holiday, never by a closure day).
    new_hire_training_days: int = 0
    # D7, E9 program setting: days the FSE is given to submit what the FOG Manager requests (plans,
    # monitoring facilities, frequency data) when the request names no date. The ordinance gives none.
    record_request_days: int = 30
    # D7 program setting: days the FSE is given to build the monitoring, metering or sampling
    # facilities the FOG Manager requires. The ordinance gives none.
    monitoring_facility_days: int = 90
    # C4, C5, D7, E9, F2, F3, F6 program setting: an obligation shows "due" this many days before its
    # due date (before that, "upcoming"). The ordinance gives none.
    obligation_due_soon_days: int = 14
    # D8: device inspection by the FOG Manager or an AEO.
    device_inspection_interval_years: int = 1

    # E1: the frequencies the FOG Manager may assign.
    allowed_frequencies_days: tuple[int, ...] = (30, 60, 90, 120, 180)
    # E2 / E4: defaults until the FOG Manager sets one ("3 months" is read as 90 days).
    default_frequency_interceptor_days: int = 90
    default_frequency_trap_days: int = 30
    # E3: the 25% rule: FOG + solids may not exceed this share of total design hydraulic depth.
    fill_limit_ratio: Decimal = Decimal("0.25")
    # E8: the trap frequency beyond which an interceptor is required.
    trap_interceptor_threshold_days: int = 30
    # E8 program setting: the service intervals of accumulation data needed before "requires more
    # frequent maintenance" is found (one late pump-out over the limit is an E6 matter, not E8).
    interceptor_min_intervals: int = 2

    # Program settings that carry E1-E6 in practice; not numbers of the ordinance itself.
    # Days before a due date at which a device shows "due soon".
    service_due_soon_days: int = 14
    # Days after a due date before a device shows "overdue". The ordinance gives none.
    service_grace_days: int = 0
    # E4: pump-out observations needed before a frequency is set from data.
    min_observations_for_frequency: int = 3
    # ADVICE ONLY: a margin on the average accumulation rate (1.25 = "what if it fills 25% faster"),
    # shown beside a frequency finding. E3 and E5 test the average itself; this is never a ground for
    # a recommendation, a refusal (E5) or a requirement (E8).
    frequency_safety_factor: Decimal = Decimal("1.25")
    # Gallons removed may exceed the device's capacity by this share before a manifest is flagged.
    manifest_capacity_tolerance: Decimal = Decimal("0.10")
    # A "full pump-out" that removed less than this share of capacity is flagged for review.
    manifest_low_volume_ratio: Decimal = Decimal("0.50")
    # F7: one vehicle recorded at two sites closer together than this is flagged (a copied ticket).
    manifest_vehicle_conflict_minutes: int = 45
    # E6 "immediately": a pump-out this many days or more after an over-limit reading is flagged late.
    immediate_service_days: int = 1
    # F7: a manifest within this many days of an over-limit inspection that reports the device
    # within the limit contradicts the inspection and is flagged.
    inspection_contradiction_days: int = 2

    # F5: records kept at least this long.
    record_retention_years: int = 2

    # G1: written notice before an expansion, remodel or process change.
    remodel_notice_days: int = 60

    # J2: written spill report, in working days.
    spill_report_working_days: int = 5

    # K1: existing food grinders removed within this many days of the chapter's effective date.
    grinder_removal_days: int = 180
    # Ord. No. 564 adopted 2023-02-28; an ordinance takes effect 30 days later (Gov. Code 36937).
    chapter_effective_date: dt.date = dt.date(2023, 3, 30)
    # K4: hottest discharge into a GCD, degrees Fahrenheit.
    max_discharge_temperature_f: int = 140

    # L2: hearing window after mailing of the notice (calendar days). The floor never moves.
    revocation_hearing_min_days: int = 15
    revocation_hearing_max_days: int = 45
    # L3: total continuance of a hearing.
    hearing_continuance_max_days: int = 60
    # L4: written decision after the hearing ends.
    hearing_decision_days: int = 30

    # M3: emergency suspension hearing and decision, business days.
    emergency_hearing_business_days: int = 5
    emergency_decision_business_days: int = 2

    # N1: clean-up and repair costs paid within this many days of invoicing.
    cost_recovery_payment_days: int = 45

    # P5: hearing on an administrative complaint within this many days of service.
    complaint_hearing_days: int = 60
    # P6: appeal to the Town Council within this many days of notice of the decision.
    appeal_days: int = 15
    # P7: administrative civil penalty caps.
    penalty_cap_no_permit_per_day: Decimal = Decimal("1000")
    penalty_cap_records_per_day: Decimal = Decimal("2000")
    penalty_cap_maintenance_per_day: Decimal = Decimal("3000")
    penalty_cap_per_sso: Decimal = Decimal("5000")
    penalty_cap_per_sso_under_order: Decimal = Decimal("10000")
    # P8: penalty payment.
    penalty_payment_days: int = 30
    # P9: days delinquent before a penalty may be recorded as a lien.
    lien_delinquency_days: int = 60
    # P11: judicial civil penalty cap.
    judicial_penalty_cap_per_day: Decimal = Decimal("25000")

    # Q1: fees delinquent when unpaid this many days after the notice date.
    fee_delinquency_days: int = 45

    # A4/A5 sizing: CPC table (DFU, gallons), hydromechanical drainage load and drain times.
    cpc_gravity_interceptor_table: tuple[tuple[int, int], ...] = CPC_GRAVITY_INTERCEPTOR_TABLE
    cpc_fixture_drainage_load_ratio: Decimal = Decimal("0.75")
    cpc_cubic_inches_per_gallon: int = 231
    cpc_drain_minutes: tuple[int, ...] = (1, 2)
    # A5: standard rated flows of hydromechanical interceptors (grease traps), gallons per minute.
    hydromechanical_standard_sizes_gpm: tuple[int, ...] = (10, 15, 20, 25, 35, 50, 75, 100)

    # E1 / E4 / E5 program setting: a frequency set from data may go at most this many steps of the E1
    # list beyond the longest pump-out interval actually observed ("never longer than the data supports").
    frequency_extrapolation_steps: int = 1
    # E2 program setting: default for a GCD that is neither an interceptor nor a trap. The ordinance
    # gives none, so the most frequent default (the trap's 30 days) is used until the FOG Manager sets one.
    default_frequency_other_days: int = 30
    # A4 sizing: CPC Table 702.1 drainage fixture units by fixture kind (see CPC_FIXTURE_DFU). A dict, so a
    # Town's amendment may name any fixture kind; stored as a JSON object.
    cpc_fixture_dfu: dict[str, int] = dataclasses.field(default_factory=lambda: dict(CPC_FIXTURE_DFU))
    # B6 program setting: a permit shows "renewal due soon", and its renewal reminder goes out, this many
    # days before its renewal date. The ordinance gives none.
    permit_renewal_window_days: int = 60
    # E1 program setting: the e-mail reminder that a device's service is due goes out this many days
    # before its due date (messaging). The ordinance gives none.
    service_reminder_days: int = 14
    # C4, F program setting: the e-mail reminder that training or a report is due goes out this many
    # days before its due date (messaging). The ordinance gives none.
    records_reminder_days: int = 14
    # A4 sizing: CPC Table 703.2 (horizontal drainage piping), the most DFU each inlet pipe size may carry;
    # a gravity interceptor is sized by it where the fixtures' DFUs are unknown (CPC 1014.3.6).
    cpc_inlet_pipe_max_dfu: dict[str, int] = dataclasses.field(
        default_factory=lambda: dict(CPC_INLET_PIPE_MAX_DFU)
    )
    # A4 sizing: CPC Table 1014.3.6 note 3, a directly connected appliance with no DFU value adds its flow
    # (gpm) times this many minutes of interceptor volume.
    cpc_direct_appliance_minutes: int = 30
    # A5 sizing: CPC 1014.2.1, the fixtures draining to a hydromechanical interceptor may hold at most this
    # many times its rated flow (gpm), in gallons.
    cpc_hydromechanical_capacity_ratio: Decimal = Decimal("2.5")

    # D8 program setting: the risk score that orders the inspection-due list. Points per item counted;
    # the ordinance gives no weights, so a Town sets its own. Size counts per 100 meals a day, time per
    # 30 days since the last inspection; an establishment never inspected gets the flat amount.
    risk_weight_device_overdue: int = 10
    risk_weight_device_over_limit: int = 15
    risk_weight_manifest_missed: int = 8
    risk_weight_manifest_flagged: int = 4
    risk_weight_open_requirement: int = 6
    risk_weight_open_finding: int = 8
    risk_weight_past_finding: int = 2
    risk_weight_spill: int = 20
    risk_weight_per_100_meals: int = 1
    risk_weight_per_30_days_since_inspection: int = 2
    risk_weight_never_inspected: int = 25

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values: Decimals and dates as strings, tuples as lists."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            out[field.name] = _to_json(getattr(self, field.name))
        return out

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> Ruleset:
        """Build a ruleset from stored values; a missing key takes the Chapter 10.02 default.

        Unknown keys are refused so that a typo in a Town's edit cannot pass unnoticed.
        """
        known = {field.name: field for field in dataclasses.fields(cls)}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(f"Unknown ruleset values: {', '.join(unknown)}")
        kwargs = {}
        defaults = cls()
        for name, raw in values.items():
            kwargs[name] = _from_json(raw, getattr(defaults, name))
        return cls(**kwargs)

    def replace(self, **changes: Any) -> Ruleset:
        return dataclasses.replace(self, **changes)


def _to_json(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _from_json(raw: Any, default: Any) -> Any:
    """Convert a stored value to the type of the field's default."""
    if isinstance(default, Decimal):
        return Decimal(str(raw))
    if isinstance(default, dt.date):
        return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(raw)
    if isinstance(default, tuple):
        if default and isinstance(default[0], tuple):
            return tuple(tuple(int(x) for x in pair) for pair in raw)
        return tuple(int(x) for x in raw)
    if isinstance(default, bool):
        return bool(raw)
    if isinstance(default, int):
        if isinstance(raw, bool) or int(raw) != raw:
            raise ValueError(f"Expected a whole number, got {raw!r}")
        return int(raw)
    return raw


CHAPTER_10_02 = Ruleset()
"""The numbers of Chapter 10.02 as adopted: the ruleset installed by the first migration."""
