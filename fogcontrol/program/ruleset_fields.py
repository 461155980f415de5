"""What each value of a ruleset means, for the people who read and amend it.

The ``Ruleset`` dataclass (fogcontrol.rules.ruleset) holds the numbers; this module gives each one
the provision it carries, a label a Town clerk recognises, its unit, and the group of PROVISIONS.md
it belongs to, so the ruleset pages can show "A4 · Access manhole, at least: 20 in" and what a
version changes from Chapter 10.02 as adopted.

A value the rules engineer adds before it is described here still shows, under "Other program
settings", with its field name as label: nothing is hidden.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset


@dataclasses.dataclass(frozen=True)
class FieldInfo:
    provision: str
    label: str
    unit: str = ""


# Group headings, in the order of PROVISIONS.md.
GROUPS: dict[str, str] = {
    "A": "A. Registry and responsibility",
    "B": "B. FOG permit",
    "C": "C. Best management practices",
    "D": "D. Inspection, sampling, monitoring",
    "E": "E. Maintenance",
    "F": "F. Records",
    "G": "G. Facility changes",
    "J": "J. Upset and spill notification",
    "K": "K. Prohibited discharges",
    "L": "L. Suspension and revocation",
    "M": "M. Emergency suspension",
    "N": "N. Cost recovery",
    "P": "P. Enforcement and penalties",
    "Q": "Q. Fees and debts",
    "other": "Other program settings",
}

FIELDS: dict[str, FieldInfo] = {
    "interceptor_min_compartments": FieldInfo(
        "A4", "Grease interceptor compartments, at least", "compartments"
    ),
    "interceptor_min_manhole_inches": FieldInfo("A4", "Access manhole diameter, at least", "in"),
    "cpc_gravity_interceptor_table": FieldInfo(
        "A4", "CPC gravity interceptor sizing table (drainage fixture units: gallons)"
    ),
    "cpc_fixture_drainage_load_ratio": FieldInfo("A5", "CPC fixture drainage load ratio", "ratio"),
    "cpc_cubic_inches_per_gallon": FieldInfo("A5", "Cubic inches per gallon (CPC sizing)", "cu in"),
    "cpc_drain_minutes": FieldInfo("A5", "CPC drain times for trap sizing", "minutes"),
    "hydromechanical_standard_sizes_gpm": FieldInfo("A5", "Standard grease trap rated flows", "gpm"),
    "permit_term_years": FieldInfo("B6", "Permit term", "years"),
    "frequency_change_notice_days": FieldInfo("B7", "Notice before a cleaning frequency change", "days"),
    "training_interval_years": FieldInfo("C4", "Employee BMP training interval", "years"),
    "new_hire_training_days": FieldInfo("C4", "New hires trained within, after the hire date", "days"),
    "record_request_days": FieldInfo("D7", "Time to submit a requested plan or data (no date named)", "days"),
    "monitoring_facility_days": FieldInfo("D7", "Time to build required monitoring facilities", "days"),
    "obligation_due_soon_days": FieldInfo("F3", "An obligation shows as due, days before its date", "days"),
    "device_inspection_interval_years": FieldInfo("D8", "Town inspection of each device, every", "years"),
    "risk_weight_device_overdue": FieldInfo(
        "D8", "Inspection priority: points per device overdue for service", "points"
    ),
    "risk_weight_device_over_limit": FieldInfo(
        "D8", "Inspection priority: points per device over the 25% rule", "points"
    ),
    "risk_weight_manifest_missed": FieldInfo(
        "D8", "Inspection priority: points per missed manifest", "points"
    ),
    "risk_weight_manifest_flagged": FieldInfo(
        "D8", "Inspection priority: points per flagged manifest", "points"
    ),
    "risk_weight_open_requirement": FieldInfo(
        "D8", "Inspection priority: points per open requirement", "points"
    ),
    "risk_weight_open_finding": FieldInfo("D8", "Inspection priority: points per open finding", "points"),
    "risk_weight_past_finding": FieldInfo("D8", "Inspection priority: points per past finding", "points"),
    "risk_weight_spill": FieldInfo("D8", "Inspection priority: points per spill linked to the FSE", "points"),
    "risk_weight_per_100_meals": FieldInfo("D8", "Inspection priority: points per 100 meals a day", "points"),
    "risk_weight_per_30_days_since_inspection": FieldInfo(
        "D8", "Inspection priority: points per 30 days since the last inspection", "points"
    ),
    "risk_weight_never_inspected": FieldInfo(
        "D8", "Inspection priority: points when never inspected", "points"
    ),
    "allowed_frequencies_days": FieldInfo("E1", "Frequencies the FOG Manager may assign", "days"),
    "default_frequency_interceptor_days": FieldInfo("E2", "Default interceptor frequency", "days"),
    "default_frequency_trap_days": FieldInfo("E2", "Default grease trap frequency", "days"),
    "default_frequency_other_days": FieldInfo("E2", "Default frequency for other devices", "days"),
    "fill_limit_ratio": FieldInfo("E3", "The 25% rule: FOG plus solids limit", "share of depth"),
    "min_observations_for_frequency": FieldInfo("E4", "Pump-outs needed before a frequency is set from data"),
    "frequency_safety_factor": FieldInfo(
        "E5", "Safety margin on the average rate, shown as advice only (never a ground)", "factor"
    ),
    "frequency_extrapolation_steps": FieldInfo("E5", "Frequency steps allowed beyond the observed data"),
    "trap_interceptor_threshold_days": FieldInfo(
        "E8", "Trap frequency that calls for an interceptor", "days"
    ),
    "interceptor_min_intervals": FieldInfo(
        "E8", "Service intervals of data before a trap is found to need more than 30-day service"
    ),
    "service_due_soon_days": FieldInfo("E1", "Show a device as due soon this many days ahead", "days"),
    "service_grace_days": FieldInfo("E1", "Grace before a device shows overdue", "days"),
    "manifest_capacity_tolerance": FieldInfo("F1", "Manifest volume above capacity before a flag", "share"),
    "manifest_low_volume_ratio": FieldInfo(
        "F1", "Full pump-out below this share of capacity is flagged", "share"
    ),
    "manifest_vehicle_conflict_minutes": FieldInfo(
        "F7", "One vehicle at two sites closer together than this is flagged", "minutes"
    ),
    "immediate_service_days": FieldInfo(
        "E6", "Pump-out this many days after an over-limit reading is late", "days"
    ),
    "inspection_contradiction_days": FieldInfo(
        "F7", "Manifest this soon after an over-limit inspection, reporting within limit, is flagged", "days"
    ),
    "record_retention_years": FieldInfo("F5", "Records kept at least", "years"),
    "remodel_notice_days": FieldInfo("G1", "Written notice before a remodel or process change", "days"),
    "spill_report_working_days": FieldInfo("J2", "Written spill report due within", "working days"),
    "grinder_removal_days": FieldInfo("K1", "Existing food grinders removed within", "days"),
    "chapter_effective_date": FieldInfo("K1", "Date Chapter 10.02 took effect"),
    "max_discharge_temperature_f": FieldInfo("K4", "Hottest discharge into a GCD", "°F"),
    "revocation_hearing_min_days": FieldInfo("L2", "Hearing no sooner than, after mailing", "days"),
    "revocation_hearing_max_days": FieldInfo("L2", "Hearing no later than, after mailing", "days"),
    "hearing_continuance_max_days": FieldInfo("L3", "Total continuance of a hearing, at most", "days"),
    "hearing_decision_days": FieldInfo("L4", "Written decision within, after the hearing", "days"),
    "emergency_hearing_business_days": FieldInfo(
        "M3", "Emergency suspension hearing within", "business days"
    ),
    "emergency_decision_business_days": FieldInfo("M3", "Emergency decision within", "business days"),
    "cost_recovery_payment_days": FieldInfo("N1", "Clean-up costs paid within, of invoicing", "days"),
    "complaint_hearing_days": FieldInfo("P5", "Complaint hearing within, of service", "days"),
    "appeal_days": FieldInfo("P6", "Appeal to the Town Council within", "days"),
    "penalty_cap_no_permit_per_day": FieldInfo("P7", "Cap: no permit or refusing to renew", "$ per day"),
    "penalty_cap_records_per_day": FieldInfo("P7", "Cap: service reports or manifests", "$ per day"),
    "penalty_cap_maintenance_per_day": FieldInfo("P7", "Cap: maintenance schedule not followed", "$ per day"),
    "penalty_cap_per_sso": FieldInfo("P7", "Cap: each sewer overflow", "$ per SSO"),
    "penalty_cap_per_sso_under_order": FieldInfo(
        "P7", "Cap: each sewer overflow while under an order", "$ per SSO"
    ),
    "penalty_payment_days": FieldInfo("P8", "Penalty paid within", "days"),
    "lien_delinquency_days": FieldInfo("P9", "Delinquent this long before a lien", "days"),
    "judicial_penalty_cap_per_day": FieldInfo("P11", "Judicial civil penalty cap", "$ per day"),
    "fee_delinquency_days": FieldInfo("Q1", "Fees delinquent when unpaid after the notice date", "days"),
    "cpc_fixture_dfu": FieldInfo("A4", "CPC Table 702.1 drainage fixture units, by fixture (fixture: units)"),
    "cpc_inlet_pipe_max_dfu": FieldInfo(
        "A4", "CPC Table 703.2 most DFU a horizontal inlet pipe carries (pipe inches: units)"
    ),
    "cpc_direct_appliance_minutes": FieldInfo(
        "A4", "CPC Table 1014.3.6 note 3: appliance flow with no DFU, times", "minutes"
    ),
    "cpc_hydromechanical_capacity_ratio": FieldInfo(
        "A5", "CPC 1014.2.1: fixtures hold at most this times the trap's rated gpm", "x gpm, in gallons"
    ),
    "permit_renewal_window_days": FieldInfo("B6", "Renewal reminder this many days before renewal", "days"),
    "service_reminder_days": FieldInfo("E1", "Service reminder e-mailed this many days before due", "days"),
    "records_reminder_days": FieldInfo(
        "C4", "Training and report reminders e-mailed this many days before due", "days"
    ),
}


def field_info(name: str) -> FieldInfo:
    return FIELDS.get(name) or FieldInfo("", name.replace("_", " ").capitalize())


def group_key(provision: str) -> str:
    letter = provision[:1]
    return letter if letter in GROUPS else "other"


def display_value(value: Any) -> str:
    """A value as the pages show it: "30, 60, 90", "8: 500; 21: 750", "hand_sink: 1", 0.25."""
    if isinstance(value, dict):
        return "; ".join(f"{key}: {item}" for key, item in value.items())
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return "; ".join(f"{a}: {b}" for a, b in value)
        return ", ".join(str(item) for item in value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return str(value)


@dataclasses.dataclass(frozen=True)
class RulesetRow:
    """One value of a ruleset as a page shows it, with what Chapter 10.02 as adopted says."""

    name: str
    provision: str
    label: str
    unit: str
    value: str
    adopted: str
    differs: bool


@dataclasses.dataclass(frozen=True)
class RulesetGroup:
    key: str
    title: str
    rows: tuple[RulesetRow, ...]

    @property
    def differs(self) -> int:
        return sum(row.differs for row in self.rows)


def ruleset_rows(ruleset: Ruleset) -> list[RulesetRow]:
    rows = []
    for field in dataclasses.fields(Ruleset):
        info = field_info(field.name)
        value = getattr(ruleset, field.name)
        adopted = getattr(CHAPTER_10_02, field.name)
        rows.append(
            RulesetRow(
                name=field.name,
                provision=info.provision,
                label=info.label,
                unit=info.unit,
                value=display_value(value),
                adopted=display_value(adopted),
                differs=value != adopted,
            )
        )
    return rows


def ruleset_groups(ruleset: Ruleset) -> list[RulesetGroup]:
    """The ruleset's values grouped by the provisions of PROVISIONS.md, each with its provision ID."""
    by_group: dict[str, list[RulesetRow]] = {key: [] for key in GROUPS}
    for row in ruleset_rows(ruleset):
        by_group[group_key(row.provision)].append(row)
    return [
        RulesetGroup(key=key, title=GROUPS[key], rows=tuple(sorted(rows, key=_provision_order)))
        for key, rows in by_group.items()
        if rows
    ]


def _provision_order(row: RulesetRow) -> tuple[int, str]:
    digits = "".join(ch for ch in row.provision[1:] if ch.isdigit())
    return (int(digits or 0), row.name)


def differences_from_adopted(ruleset: Ruleset) -> list[RulesetRow]:
    """The values where this ruleset departs from Chapter 10.02 as adopted (the Town's amendments)."""
    return [row for row in ruleset_rows(ruleset) if row.differs]
