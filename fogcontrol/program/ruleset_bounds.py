"""The sensible range of every value of a ruleset, declared once, beside the value's name.

A Town amends its numbers by ordinance or resolution, and a ruleset version records them; a typo
("400" for a 40-day frequency, "1.5" for the 25% rule) must not become the rule every decision is
judged by. The program services refuse a version with a value outside its range (so the page, the
API and the admin all get the same refusal), and the version form states each range beside its
value. For a list or a table the range applies to each number in it.

The ranges are wide: they keep out what no Town could mean, not what a Town may choose. Where the
chapter fixes a share (E3) or a cap (P7, P11), the range follows its nature: a share lies strictly
between 0 and 1, a cap is more than $0.

A value the rules engineer adds to ``Ruleset`` without a range here is still checked for a sign
(whole numbers 0 or more, amounts 0 or more); a test lists every value that lacks one.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from fogcontrol.program.ruleset_fields import field_info


@dataclasses.dataclass(frozen=True)
class Bounds:
    """``low`` to ``high``, each end included unless marked open."""

    low: int | Decimal
    high: int | Decimal
    low_open: bool = False
    high_open: bool = False

    def admits(self, number: int | Decimal) -> bool:
        above = number > self.low if self.low_open else number >= self.low
        below = number < self.high if self.high_open else number <= self.high
        return above and below

    def describe(self, unit: str = "") -> str:
        """The range in words, e.g. "at least 1 and at most 365 days", "strictly between 0 and 1"."""
        low, high = _amount(self.low, unit, last=False), _amount(self.high, unit, last=True)
        if self.low == self.high:
            return f"exactly {high}"
        if self.low_open and self.high_open:
            return f"strictly between {low} and {high}"
        first = f"more than {low}" if self.low_open else f"at least {low}"
        second = f"less than {high}" if self.high_open else f"at most {high}"
        return f"{first} and {second}"


# Units that name no quantity of their own: the range is said with bare numbers.
_SHARE_UNITS = frozenset({"share", "share of depth", "ratio"})
_PLAIN_UNITS = _SHARE_UNITS | {"", "factor"}


def _amount(number: int | Decimal, unit: str, *, last: bool) -> str:
    if unit.startswith("$"):
        return f"${number:,}{unit[1:] if last else ''}"
    if unit in _PLAIN_UNITS or not last:
        return str(number)
    return f"{number} {unit}"


# Day counts the chapter gives in days (B7, E1, E2, G1, L2-L4, N1, P5, P6, P8, P9, Q1): at most a year.
DAYS_IN_A_YEAR = Bounds(1, 365)
# P7 and P11: a cap is a positive amount; $100,000 is four times the largest cap the chapter sets (P11).
PENALTY_CAP = Bounds(Decimal("0"), Decimal("100000"), low_open=True)

# D8 risk score: points per item counted; 0 turns a factor off, 100 outweighs any other factor.
RISK_WEIGHT = Bounds(0, 100)

BOUNDS: dict[str, Bounds] = {
    # A4 / A5 sizing
    "interceptor_min_compartments": Bounds(1, 6),
    "interceptor_min_manhole_inches": Bounds(12, 60),
    "cpc_gravity_interceptor_table": Bounds(1, 100_000),
    "cpc_fixture_dfu": Bounds(1, 100),
    "cpc_fixture_drainage_load_ratio": Bounds(Decimal("0"), Decimal("1"), low_open=True),
    "cpc_cubic_inches_per_gallon": Bounds(231, 231),  # a US gallon is 231 cubic inches
    "cpc_drain_minutes": Bounds(1, 60),
    "hydromechanical_standard_sizes_gpm": Bounds(1, 1000),
    "cpc_inlet_pipe_max_dfu": Bounds(1, 10_000),
    "cpc_direct_appliance_minutes": Bounds(1, 60),
    "cpc_hydromechanical_capacity_ratio": Bounds(Decimal("1"), Decimal("10")),
    # B6 / B7
    "permit_term_years": Bounds(1, 5),
    "permit_renewal_window_days": Bounds(1, 180),
    # E1, C4, F: e-mail reminders (messaging)
    "service_reminder_days": Bounds(1, 90),
    "records_reminder_days": Bounds(1, 90),
    "frequency_change_notice_days": Bounds(1, 180),
    # C4 / D8
    "training_interval_years": Bounds(1, 5),
    "new_hire_training_days": Bounds(0, 90),
    # C5, D7, E9, F2, F3, F6 records the FSE owes
    "record_request_days": Bounds(1, 365),
    "monitoring_facility_days": Bounds(1, 365),
    "obligation_due_soon_days": Bounds(0, 90),
    "device_inspection_interval_years": Bounds(1, 5),
    # D8 risk score weights: points per item; 0 turns a factor off.
    "risk_weight_device_overdue": RISK_WEIGHT,
    "risk_weight_device_over_limit": RISK_WEIGHT,
    "risk_weight_manifest_missed": RISK_WEIGHT,
    "risk_weight_manifest_flagged": RISK_WEIGHT,
    "risk_weight_open_requirement": RISK_WEIGHT,
    "risk_weight_open_finding": RISK_WEIGHT,
    "risk_weight_past_finding": RISK_WEIGHT,
    "risk_weight_spill": RISK_WEIGHT,
    "risk_weight_per_100_meals": RISK_WEIGHT,
    "risk_weight_per_30_days_since_inspection": RISK_WEIGHT,
    "risk_weight_never_inspected": RISK_WEIGHT,
    # E1-E8: a frequency is a positive number of days, at most a year.
    "allowed_frequencies_days": DAYS_IN_A_YEAR,
    "default_frequency_interceptor_days": DAYS_IN_A_YEAR,
    "default_frequency_trap_days": DAYS_IN_A_YEAR,
    "default_frequency_other_days": DAYS_IN_A_YEAR,
    "trap_interceptor_threshold_days": DAYS_IN_A_YEAR,
    "fill_limit_ratio": Bounds(Decimal("0"), Decimal("1"), low_open=True, high_open=True),
    "min_observations_for_frequency": Bounds(1, 20),
    "interceptor_min_intervals": Bounds(1, 12),
    "frequency_safety_factor": Bounds(Decimal("1"), Decimal("3")),
    "frequency_extrapolation_steps": Bounds(0, 10),
    "service_due_soon_days": Bounds(0, 90),
    "service_grace_days": Bounds(0, 30),
    "immediate_service_days": Bounds(1, 30),
    # F1 / F5 / F7
    "manifest_capacity_tolerance": Bounds(Decimal("0"), Decimal("1")),
    "manifest_low_volume_ratio": Bounds(Decimal("0"), Decimal("1"), low_open=True),
    "manifest_vehicle_conflict_minutes": Bounds(1, 24 * 60),
    "inspection_contradiction_days": Bounds(1, 30),
    "record_retention_years": Bounds(1, 50),
    # G1, J2, K1, K4
    "remodel_notice_days": DAYS_IN_A_YEAR,
    "spill_report_working_days": Bounds(1, 30),
    "grinder_removal_days": Bounds(1, 730),
    "max_discharge_temperature_f": Bounds(33, 212),  # water that is neither ice nor steam
    # L2-L4, M3, N1
    "revocation_hearing_min_days": DAYS_IN_A_YEAR,
    "revocation_hearing_max_days": DAYS_IN_A_YEAR,
    "hearing_continuance_max_days": DAYS_IN_A_YEAR,
    "hearing_decision_days": DAYS_IN_A_YEAR,
    "emergency_hearing_business_days": Bounds(1, 30),
    "emergency_decision_business_days": Bounds(1, 30),
    "cost_recovery_payment_days": DAYS_IN_A_YEAR,
    # P5-P11, Q1
    "complaint_hearing_days": DAYS_IN_A_YEAR,
    "appeal_days": DAYS_IN_A_YEAR,
    "penalty_cap_no_permit_per_day": PENALTY_CAP,
    "penalty_cap_records_per_day": PENALTY_CAP,
    "penalty_cap_maintenance_per_day": PENALTY_CAP,
    "penalty_cap_per_sso": PENALTY_CAP,
    "penalty_cap_per_sso_under_order": PENALTY_CAP,
    "judicial_penalty_cap_per_day": PENALTY_CAP,
    "penalty_payment_days": DAYS_IN_A_YEAR,
    "lien_delinquency_days": DAYS_IN_A_YEAR,
    "fee_delinquency_days": DAYS_IN_A_YEAR,
}


def bounds_for(name: str) -> Bounds | None:
    return BOUNDS.get(name)


def range_text(name: str) -> str:
    """The allowed range of a value in words, for the form's help text; "" if none is declared."""
    bounds = BOUNDS.get(name)
    if bounds is None:
        return ""
    info = field_info(name)
    text = bounds.describe(info.unit)
    if info.unit in _SHARE_UNITS:
        text += ", e.g. 0.25 for 25%"
    return text


def _numbers(value: Any) -> list[int | Decimal]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, tuple):
        return [number for item in value for number in (item if isinstance(item, tuple) else (item,))]
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        return [value]
    return []


def bounds_problem(name: str, value: Any) -> str | None:
    """Why ``value`` lies outside the range declared for ``name``, or None.

    The message names the provision, the value and the allowed range, e.g. "E1 · Frequencies the
    FOG Manager may assign: each must be at least 1 and at most 365 days. 400 is not."
    """
    bounds = BOUNDS.get(name)
    if bounds is None:
        return None
    for number in _numbers(value):
        if not bounds.admits(number):
            info = field_info(name)
            who = f"{info.provision} · {info.label}" if info.provision else info.label
            each = "each must be" if isinstance(value, dict | tuple) else "must be"
            return f"{who}: {each} {range_text(name)}. {number} is not."
    return None
