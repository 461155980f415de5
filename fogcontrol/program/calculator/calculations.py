"""The rules calculator: the pure rules engine (``fogcontrol.rules``) fed with the Town's own data.

The staff page and the rules API both call these functions, so a date, a frequency or a cap is
worked out one way only. Each function reads the ruleset version in force on the day that matters
(``ruleset_version_on``) and the Town's holiday calendar, calls the engine, and returns the
engine's result together with the version used, so that the answer can say which numbers it rests
on ("Counting days": every computed date is shown with the rule that produced it).

Chapter 10.02 is public, so nothing here is scoped to a user; the page limits itself to staff.

Bad input is refused with ``django.core.exceptions.ValidationError`` keyed by the field, carrying a
sentence that says what is wrong and how to fix it: the API turns it into a 400 naming the field,
the page shows it beside the field. The engine's own ``ValueError`` messages name their argument
("days: ..."), and ``_engine_error`` maps them to fields, so no engine refusal ends in a 500.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError

from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import ruleset_version_on, town_calendar
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import KIND_DEADLINE, KIND_MINIMUM, KIND_WINDOW, LIMIT_MAINTENANCE
from fogcontrol.rules.deadlines import (
    DEADLINE_RULES,
    Deadline,
    DeadlineRule,
    UnknownProvision,
    compute_deadline,
)
from fogcontrol.rules.devices import DEVICE_KINDS, GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR, OTHER
from fogcontrol.rules.devices import fill_ratio as engine_fill_ratio
from fogcontrol.rules.explain import fmt_money, fmt_percent, joined, say
from fogcontrol.rules.frequency import FrequencyRecommendation, recommend_frequency
from fogcontrol.rules.penalties import MAINTENANCE, NO_PERMIT, RECORDS, SSO, PenaltyCap, penalty_cap
from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset

# The dates the calculator accepts. Wide enough for any record the program will hold, narrow
# enough that no count of days runs off the end of the calendar (an OverflowError, not an answer).
FIRST_DATE = dt.date(1900, 1, 1)
LAST_DATE = dt.date(2199, 12, 31)

# The sections of PROVISIONS.md, to group the rules the way the ordinance does.
SECTIONS = {
    "A": "Registry and responsibility",
    "B": "FOG permit",
    "C": "Best management practices",
    "D": "Inspection, sampling, monitoring",
    "E": "Maintenance",
    "F": "Records",
    "G": "Facility changes",
    "H": "Compliance schedule agreements",
    "I": "Sewer overflows",
    "J": "Upset and spill notification",
    "K": "Prohibited discharges",
    "L": "Suspension and revocation (10.02.260)",
    "M": "Emergency suspension (10.02.270)",
    "N": "Cost recovery",
    "O": "Termination of service",
    "P": "Enforcement and penalties",
    "Q": "Fees and debts",
}

DEVICE_KIND_LABELS = {
    GRAVITY_INTERCEPTOR: "Gravity grease interceptor",
    HYDROMECHANICAL_INTERCEPTOR: "Hydromechanical interceptor (grease trap)",
    OTHER: "Other grease control device",
}

VIOLATION_KIND_LABELS = {
    NO_PERMIT: "No FOG permit, or refused to renew (P7(1), per day)",
    RECORDS: "Service reports or manifests not kept or furnished (P7(2), per day)",
    MAINTENANCE: "Maintenance schedule not followed (P7(3), per day)",
    SSO: "Sewer system overflow (P7(4), per occurrence; P7(5) under an order)",
}
PER_OCCURRENCE_KINDS = frozenset({SSO})

# What each kind of computed date means, in a clerk's words (Counting days). The badge of an
# answer names the kind of limit (``Deadline.counting_labels``); this is the fallback.
DEADLINE_KIND_LABELS = {
    KIND_DEADLINE: say("deadline"),
    KIND_MINIMUM: say("minimum period"),
    KIND_WINDOW: say("window of permitted days"),
}
FREQUENCY_DAYS = "frequency_days"

# Observations accepted in one frequency calculation: more than a program keeps for one device.
MAX_OBSERVATIONS = 100


@dataclasses.dataclass(frozen=True)
class RulesUsed:
    """The ruleset version in force on a day (None before the first version) and its values."""

    on: dt.date
    version: RulesetVersion | None
    ruleset: Ruleset

    @property
    def label(self) -> str:
        if self.version is None:
            return say("Chapter 10.02 as adopted (no version on record)")
        return self.version.label

    def as_dict(self) -> dict:
        """JSON-ready: which numbers the answer rests on."""
        return {
            "id": self.version.pk if self.version else None,
            "label": self.label,
            "effective_from": self.version.effective_from if self.version else None,
            "in_force_on": self.on,
        }


@dataclasses.dataclass(frozen=True)
class DeadlineAnswer:
    rule: DeadlineRule
    deadline: Deadline
    rules_used: RulesUsed
    warnings: tuple[str, ...]
    frequency_days: int | None = None  # E1 only: the frequency the due date was counted with

    @property
    def kind_label(self) -> str:
        """Which kind of limit produced the date (Counting days): "A minimum: never moves earlier ..."."""
        labels = self.deadline.counting_labels
        if labels:
            return joined(list(labels))
        return DEADLINE_KIND_LABELS.get(self.deadline.kind, self.deadline.kind)

    @property
    def is_maintenance(self) -> bool:
        return LIMIT_MAINTENANCE in self.deadline.counting


@dataclasses.dataclass(frozen=True)
class FrequencyAnswer:
    kind: str
    total_depth_in: Decimal
    recommendation: FrequencyRecommendation
    rules_used: RulesUsed

    @property
    def over_limit(self) -> bool:
        """E3: the last reading is over the limit ("may not exceed": exactly the limit is within)."""
        ratio = self.recommendation.fill_ratio_last
        return ratio is not None and ratio > self.recommendation.fill_limit

    @property
    def fill_percent(self) -> str | None:
        ratio = self.recommendation.fill_ratio_last
        return None if ratio is None else fmt_percent(ratio)

    @property
    def fill_limit_percent(self) -> str:
        return fmt_percent(self.recommendation.fill_limit)

    @property
    def projections(self) -> list[dict]:
        """Each allowed frequency with its projected fill from the average rate, and whether that
        stays within the E3 limit (the test ``recommend_frequency`` applies). The fill with the
        safety margin is advice only, shown beside it (E5: never a ground for a decision)."""
        recommendation = self.recommendation
        rows = []
        for days, ratio in recommendation.projected_fill_by_frequency:
            with_factor = ratio * recommendation.safety_factor
            rows.append(
                {
                    "days": days,
                    "projected_fill_ratio": ratio,
                    "with_safety_factor": with_factor,
                    "within_limit": ratio <= recommendation.fill_limit,
                    "projected_percent": fmt_percent(ratio),
                    "with_safety_factor_percent": fmt_percent(with_factor),
                }
            )
        return rows


@dataclasses.dataclass(frozen=True)
class PenaltyAnswer:
    cap: PenaltyCap
    under_order: bool
    judicially_recovered: bool
    rules_used: RulesUsed

    @property
    def max_amount_display(self) -> str:
        return fmt_money(self.cap.max_amount)

    @property
    def per_unit_display(self) -> str:
        return fmt_money(self.cap.per_unit)


# --- reading the Town's data -------------------------------------------------------------------


def rules_in_force_on(day: dt.date) -> RulesUsed:
    """The ruleset version in force on ``day``: one query. Before the first version, the ordinance
    as adopted."""
    version = ruleset_version_on(day)
    return RulesUsed(on=day, version=version, ruleset=version.as_ruleset() if version else CHAPTER_10_02)


def check_date(day: dt.date, field: str) -> None:
    """Refuse a date outside the range the calculator counts in."""
    if not FIRST_DATE <= day <= LAST_DATE:
        raise ValidationError(
            {field: f"Give a date between {FIRST_DATE:%Y-%m-%d} and {LAST_DATE:%Y-%m-%d}, as YYYY-MM-DD."}
        )


# --- deadlines (every provision of DEADLINE_RULES; Counting days) -----------------------------


def section_of(rule: DeadlineRule) -> str:
    letter = rule.provisions[0][0]
    return f"{letter}. {SECTIONS.get(letter, 'Other')}"


def deadline_rules() -> list[DeadlineRule]:
    """Every deadline the engine knows, in the ordinance's order (B6 ... Q1)."""
    return list(DEADLINE_RULES.values())


def deadline_rule_groups() -> list[tuple[str, list[DeadlineRule]]]:
    """The deadline rules grouped by the section of the ordinance they belong to."""
    groups: dict[str, list[DeadlineRule]] = {}
    for rule in deadline_rules():
        groups.setdefault(section_of(rule), []).append(rule)
    return list(groups.items())


def known_provisions() -> list[str]:
    return list(DEADLINE_RULES)


def find_deadline_rule(provision: str) -> DeadlineRule:
    """The rule registered under ``provision``; "l2" finds "L2". Raises ``UnknownProvision``."""
    rule = DEADLINE_RULES.get(provision)
    if rule is None:
        by_lower = {slug.lower(): value for slug, value in DEADLINE_RULES.items()}
        rule = by_lower.get(provision.strip().lower())
    if rule is None:
        raise UnknownProvision(provision)
    return rule


def unknown_provision_message(provision: str) -> str:
    return f"There is no deadline rule {provision!r}. Choose one of: {', '.join(known_provisions())}."


def calendar_warnings(calendar: TownCalendar, first: dt.date, last: dt.date) -> tuple[str, ...]:
    """A year the count runs through with no holiday on the Town calendar is almost certainly a
    year nobody has installed yet: say so, since only weekends were then skipped (Counting days)."""
    years_on_record = {day.year for day in calendar.holidays}
    missing = [year for year in range(first.year, last.year + 1) if year not in years_on_record]
    if not missing:
        return ()
    listed = ", ".join(str(year) for year in missing)
    return (
        say(
            "The Town calendar has no holidays on record for %(years)s: only weekends were skipped in "
            "that period. Add the year's holidays on the Holiday calendar page, then calculate again.",
            years=listed,
        ),
    )


def _deadline_dates(deadline: Deadline) -> list[dt.date]:
    values = (
        deadline.start,
        deadline.due,
        deadline.nominal_due,
        deadline.lapses_on,
        deadline.earliest,
        deadline.earliest_business_day,
        deadline.latest,
    )
    return [value for value in values if value is not None]


def needs_frequency(rule: DeadlineRule) -> bool:
    """E1 counts from the device's service frequency as well as from the last pump-out."""
    return any(name == FREQUENCY_DAYS for name, _ in rule.parameters)


def frequencies_allowed(ruleset: Ruleset) -> list[int]:
    """The frequencies a device may be on under ``ruleset``: the E1 list and the E2 defaults."""
    defaults = (
        ruleset.default_frequency_interceptor_days,
        ruleset.default_frequency_trap_days,
        ruleset.default_frequency_other_days,
    )
    return sorted(set(ruleset.allowed_frequencies_days) | set(defaults))


def check_frequency(frequency_days: int | None, rules_used: RulesUsed) -> int:
    """E1 / E2: refuse a missing frequency, or one the ruleset in force does not allow, on the field."""
    allowed = frequencies_allowed(rules_used.ruleset)
    listed = ", ".join(str(days) for days in allowed)
    if frequency_days is None:
        raise ValidationError(
            {FREQUENCY_DAYS: f"Give the device's service frequency in days, one of {listed} (E1)."}
        )
    if frequency_days not in allowed:
        raise ValidationError(
            {
                FREQUENCY_DAYS: f"{frequency_days} days is not a frequency E1 allows under "
                f"{rules_used.label}, in force on {rules_used.on:%Y-%m-%d}: choose one of {listed}."
            }
        )
    return frequency_days


def deadline_for(*, provision: str, start: dt.date, frequency_days: int | None = None) -> DeadlineAnswer:
    """The deadline (or window, or minimum) of ``provision`` counted from ``start`` under the
    ruleset in force on ``start`` and the Town calendar (Counting days; B6 ... Q1). E1 also takes
    ``frequency_days``, which must be a frequency that ruleset allows; other rules ignore it.

    Raises ``UnknownProvision`` for a provision the engine does not know, and ``ValidationError``
    on ``start`` for a date the calendar cannot count from, or on ``frequency_days``.
    """
    rule = find_deadline_rule(provision)
    check_date(start, "start")
    rules_used = rules_in_force_on(start)
    frequency = check_frequency(frequency_days, rules_used) if needs_frequency(rule) else None
    calendar = town_calendar()
    try:
        deadline = compute_deadline(
            rule.slug, start, ruleset=rules_used.ruleset, calendar=calendar, frequency_days=frequency
        )
    except (ValueError, OverflowError) as error:
        raise ValidationError({"start": f"No deadline can be counted from this date: {error}"}) from error
    dates = _deadline_dates(deadline)
    # A maintenance due date never looks at the calendar, so a year without holidays changes nothing.
    warnings = (
        () if LIMIT_MAINTENANCE in deadline.counting else calendar_warnings(calendar, min(dates), max(dates))
    )
    return DeadlineAnswer(
        rule=rule, deadline=deadline, rules_used=rules_used, warnings=warnings, frequency_days=frequency
    )


# --- service frequency (E1, E3, E4, E9) -------------------------------------------------------


def _engine_error(error: ValueError, *, default_field: str) -> tuple[str, str]:
    """Split an engine message "field: what is wrong" into (field, message)."""
    text = str(error)
    field, sep, rest = text.partition(": ")
    if sep and field.replace("_", "").replace(" + ", "").isalnum():
        return field, rest[:1].upper() + rest[1:]
    return default_field, text


def observation_errors(total_depth_in: Decimal | None, observations: list[dict]) -> list[dict[str, str]]:
    """E3 checks of each observation against the device's total design depth, by the engine's
    ``fill_ratio``: one dict of field -> message per observation ({} when the row is fine).

    Each observation is a dict with ``days_since_pumpout``, ``fog_depth_in``, ``solids_depth_in``.
    Without a usable total depth only the depths themselves are checked.
    """
    errors: list[dict[str, str]] = []
    for row in observations:
        row_errors: dict[str, str] = {}
        fog, solids = row["fog_depth_in"], row["solids_depth_in"]
        if fog < 0:
            row_errors["fog_depth_in"] = "A depth cannot be negative; enter 0 if there was no FOG layer."
        if solids < 0:
            row_errors["solids_depth_in"] = "A depth cannot be negative; enter 0 if there were no solids."
        if not row_errors and total_depth_in is not None and total_depth_in > 0:
            try:
                engine_fill_ratio(fog, solids, total_depth_in)
            except ValueError:
                row_errors["solids_depth_in"] = (
                    f"FOG + solids ({fog + solids} in) is deeper than the device's total design depth "
                    f"({total_depth_in} in). Check the readings, or the total depth."
                )
        errors.append(row_errors)
    return errors


def frequency_for(
    *, kind: str, total_depth_in: Decimal, observations: list[dict], on: dt.date
) -> FrequencyAnswer:
    """E1 / E3 / E4 / E9: the service frequency the accumulation data supports for a device, under
    the ruleset in force on ``on``. ``observations`` are dicts (days since pump-out, FOG depth,
    solids depth); the last one is the device's latest reading.
    """
    check_date(on, "as_of")
    if kind not in DEVICE_KINDS:
        raise ValidationError({"kind": f"Choose one of: {', '.join(DEVICE_KINDS)}."})
    if total_depth_in <= 0:
        raise ValidationError({"total_depth_in": "The total design depth must be more than 0 inches."})
    if any(observation_errors(total_depth_in, observations)):
        raise ValidationError({"observations": "Check the observations: a depth is negative or too deep."})
    rules_used = rules_in_force_on(on)
    rows = [(row["days_since_pumpout"], row["fog_depth_in"], row["solids_depth_in"]) for row in observations]
    try:
        recommendation = recommend_frequency(
            kind=kind, total_depth_in=total_depth_in, observations=rows, ruleset=rules_used.ruleset
        )
    except ValueError as error:
        field, message = _engine_error(error, default_field="observations")
        if field not in ("kind", "total_depth_in"):
            field = "observations"
        raise ValidationError({field: message}) from error
    return FrequencyAnswer(
        kind=kind, total_depth_in=total_depth_in, recommendation=recommendation, rules_used=rules_used
    )


# --- penalty caps (P3, P5, P7, P10) ------------------------------------------------------------


def penalty_input_errors(
    *, kind: str, days: int | None, occurrences: int | None, under_order: bool
) -> dict[str, str]:
    """What is missing or contradictory in a P7 question, field by field ({} when it is complete).

    P7(1)-(3) are caps per day (P3), P7(4)-(5) per sewer system overflow; "under an order" raises
    only the SSO cap.
    """
    errors: dict[str, str] = {}
    if kind in PER_OCCURRENCE_KINDS:
        if occurrences is None:
            errors["occurrences"] = (
                "Give the number of overflows: an SSO penalty is capped per occurrence (P7(4))."
            )
        if days is not None:
            errors["days"] = "Leave the days empty: an SSO penalty is per occurrence, not per day (P7(4))."
    else:
        if days is None:
            errors["days"] = (
                "Give the number of days the violation continued: each day is a separate offence (P3)."
            )
        if occurrences is not None:
            errors["occurrences"] = (
                "Leave the occurrences empty: this penalty is per day, not per occurrence (P3)."
            )
        if under_order:
            errors["under_order"] = (
                "Being under an order raises only the SSO cap (P7(5)); untick it for this violation."
            )
    for field, value in (("days", days), ("occurrences", occurrences)):
        if value is not None and value < 1 and field not in errors:
            errors[field] = f"The number of {field} must be 1 or more."
    return errors


def penalty_for(
    *,
    kind: str,
    days: int | None,
    occurrences: int | None,
    under_order: bool,
    judicially_recovered: bool,
    on: dt.date,
) -> PenaltyAnswer:
    """P7 (with P3, P5, P10): the most an administrative civil penalty may be, under the ruleset in
    force on ``on`` (the day of the violation, or today)."""
    check_date(on, "as_of")
    if kind not in VIOLATION_KIND_LABELS:
        raise ValidationError({"kind": f"Choose one of: {', '.join(VIOLATION_KIND_LABELS)}."})
    errors = penalty_input_errors(kind=kind, days=days, occurrences=occurrences, under_order=under_order)
    if errors:
        raise ValidationError(errors)
    rules_used = rules_in_force_on(on)
    try:
        cap = penalty_cap(
            kind,
            days=days,
            occurrences=occurrences,
            under_order=under_order,
            judicially_recovered=judicially_recovered,
            ruleset=rules_used.ruleset,
        )
    except ValueError as error:
        field, message = _engine_error(error, default_field="kind")
        raise ValidationError({field: message}) from error
    return PenaltyAnswer(
        cap=cap, under_order=under_order, judicially_recovered=judicially_recovered, rules_used=rules_used
    )
