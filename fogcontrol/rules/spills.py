"""Sewer overflows and spills as code (I1, I2, J1-J3, N1, N2): the State's spill category, the
controlled list of causes, the written-report due date and when the Town's costs are owed.

No Django, no clock. The State's category (State Water Resources Control Board Order
WQ 2022-0103-DWQ, the Statewide Sanitary Sewer Systems General Order, Attachment E1 section 3) is
the State's law, not the Town's: its gallon thresholds are the order's and are not in the Town's
``Ruleset`` (the Town cannot amend them). The Town's own numbers (J2's working days, N1's days) are.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import Deadline
from fogcontrol.rules.deadlines import cost_recovery_due, fee_delinquency, spill_report_due
from fogcontrol.rules.explain import Explanation, explain, say
from fogcontrol.rules.ruleset import Ruleset

ORDER = "WQ 2022-0103-DWQ"
# The order's thresholds, in gallons (Attachment E1, section 3.1).
CATEGORY_2_MIN_GALLONS = Decimal(1000)
CATEGORY_3_MIN_GALLONS = Decimal(50)

CATEGORY_1, CATEGORY_2, CATEGORY_3, CATEGORY_4 = "1", "2", "3", "4"
CATEGORY_LABELS = {
    CATEGORY_1: "Category 1: reached surface water",
    CATEGORY_2: "Category 2: 1,000 gallons or more, no surface water",
    CATEGORY_3: "Category 3: 50 to 999 gallons, no surface water",
    CATEGORY_4: "Category 4: under 50 gallons, no surface water",
}

# Where the spill ended up (the State's destinations, grouped).
DEST_SURFACE_WATER = "surface_water"
DEST_STORM_DRAIN = "storm_drain"
DEST_STREET = "street"
DEST_PAVED = "paved"
DEST_UNPAVED = "unpaved"
DEST_BUILDING = "building"
DEST_OTHER = "other"
DESTINATIONS = {
    DEST_SURFACE_WATER: "Surface water (creek, river, bay, beach, drainage channel)",
    DEST_STORM_DRAIN: "Storm drain",
    DEST_STREET: "Street, curb and gutter",
    DEST_PAVED: "Other paved surface",
    DEST_UNPAVED: "Unpaved surface",
    DEST_BUILDING: "Building or structure",
    DEST_OTHER: "Other",
}


@dataclasses.dataclass(frozen=True)
class CategoryResult:
    category: str
    label: str
    explanation: Explanation


def spill_category(
    *,
    volume_spilled: Decimal | None,
    volume_reached_surface_water: Decimal | None,
    destination: str = "",
    storm_drain_fully_recovered: bool | None = None,
) -> CategoryResult:
    """The State's category of a spill (order WQ 2022-0103-DWQ; recorded for I1, N2).

    - Category 1: any volume that reaches surface water, or a drainage conveyance (storm drain) that
      flows to surface water unless the sewage was fully captured and returned;
    - Category 2: 1,000 gallons or more, not reaching surface water;
    - Category 3: 50 gallons or more and under 1,000, not reaching surface water;
    - Category 4: under 50 gallons, not reaching surface water.

    An unknown volume is read as 0 gallons, and the explanation says so."""
    spilled = volume_spilled if volume_spilled is not None else Decimal(0)
    reached = volume_reached_surface_water or Decimal(0)
    steps = [say("The State's general order %(order)s sets four categories of spill.", order=ORDER)]
    if volume_spilled is None:
        steps.append(say("The volume spilled is not known: it is read as 0 gallons."))
    if reached > 0:
        steps.append(
            say(
                "%(gallons)s gallons reached surface water: Category 1, whatever the volume.",
                gallons=f"{reached:,}",
            )
        )
        category = CATEGORY_1
    elif destination == DEST_SURFACE_WATER:
        steps.append(say("The spill's destination is surface water: Category 1, whatever the volume."))
        category = CATEGORY_1
    elif destination == DEST_STORM_DRAIN and not storm_drain_fully_recovered:
        steps.append(
            say(
                "The spill reached a storm drain, which flows to surface water, and was not fully "
                "captured and returned: Category 1."
            )
        )
        category = CATEGORY_1
    elif spilled >= CATEGORY_2_MIN_GALLONS:
        steps.append(
            say(
                "%(gallons)s gallons, none reaching surface water: 1,000 gallons or more is Category 2.",
                gallons=f"{spilled:,}",
            )
        )
        category = CATEGORY_2
    elif spilled >= CATEGORY_3_MIN_GALLONS:
        steps.append(
            say(
                "%(gallons)s gallons, none reaching surface water: 50 to 999 gallons is Category 3.",
                gallons=f"{spilled:,}",
            )
        )
        category = CATEGORY_3
    else:
        steps.append(
            say(
                "%(gallons)s gallons, none reaching surface water: under 50 gallons is Category 4.",
                gallons=f"{spilled:,}",
            )
        )
        category = CATEGORY_4
    return CategoryResult(category, CATEGORY_LABELS[category], explain(("I1", ORDER), steps))


# --- causes: the controlled list, and the State's words normalised to it --------------------------

CAUSE_GREASE = "grease"
CAUSES = {
    CAUSE_GREASE: "Grease deposition (FOG)",
    "roots": "Root intrusion",
    "debris": "Debris (general)",
    "rags": "Debris: rags and wipes",
    "construction_debris": "Debris from construction",
    "pipe_failure": "Pipe structural problem or failure",
    "pump_station": "Pump station failure",
    "capacity": "Flow or rainfall exceeded capacity",
    "vandalism": "Vandalism",
    "operator_error": "Operator error",
    "damage_by_others": "Damage by others",
    "inappropriate_discharge": "Inappropriate discharge to the sewer",
    "other": "Other (explained)",
    "unknown": "Unknown",
}

# Normalised words → cause, first match wins (the State's vocabulary changes case and spelling).
_CAUSE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\bgrease\b|\bfog\b", CAUSE_GREASE),
    (r"\broot", "roots"),
    (r"\brags?\b", "rags"),
    (r"construction", "construction_debris"),
    (r"\bdebri", "debris"),
    (r"\bpipe\b.*(structural|failure)", "pipe_failure"),
    (r"pump station", "pump_station"),
    (r"capacity|rainfall|surcharged", "capacity"),
    (r"vandal", "vandalism"),
    (r"operator", "operator_error"),
    (r"damage by others", "damage_by_others"),
    (r"inappropriate discharge", "inappropriate_discharge"),
    (r"diversion failure", "other"),
    (r"^other\b", "other"),
    (r"^unknown", "unknown"),
)


def normalise_cause(text: str) -> tuple[str, bool]:
    """I1: (cause, recognised): the controlled cause for the State's (or a person's) wording, whatever
    its case and spelling ("Grease deposition (FOG)", "Grease Deposition (FOG)" → grease). Text
    that names no known cause is "other", not recognised; empty text is "unknown"."""
    words = " ".join((text or "").lower().replace("-", " ").split())
    if not words:
        return "unknown", True
    for pattern, cause in _CAUSE_PATTERNS:
        if re.search(pattern, words):
            return cause, True
    return "other", False


# --- J2: the written report ----------------------------------------------------------------------

LIABILITY_STATEMENT = say(
    "Notifying the Town does not relieve the FSE of any expense, loss, damage or other liability "
    "the spill causes, nor of any fee or other liability under Chapter 10.02 or other law (J3). A "
    "sewer overflow linked to this spill still counts against the FSE."
)


def written_report_due(incident_on: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """J2: the written report of a spill or upset is due within the ruleset's working days of the
    incident (only days the Town's offices are open count; the Town's holidays do not)."""
    return spill_report_due(incident_on, ruleset=ruleset, calendar=calendar)


def written_report_overdue(
    *,
    incident_on: dt.date,
    received_on: dt.date | None,
    today: dt.date,
    ruleset: Ruleset,
    calendar: TownCalendar,
) -> bool:
    """J2: a written report is overdue once its due day has passed without it (a report received
    late stays late)."""
    deadline = written_report_due(incident_on, ruleset=ruleset, calendar=calendar)
    if received_on is not None:
        return received_on > deadline.due
    return today >= deadline.lapses_on


# --- I2, N1, N2: the Town's costs ---------------------------------------------------------------

COST_STAFF, COST_EQUIPMENT, COST_CONTRACTOR, COST_AGENCY_FINE = (
    "staff",
    "equipment",
    "contractor",
    "agency_fine",
)
COST_KINDS = {
    COST_STAFF: "Town staff time (N1)",
    COST_EQUIPMENT: "Town equipment (N1)",
    COST_CONTRACTOR: "Clean-up contractor (N1)",
    COST_AGENCY_FINE: "Fine or penalty imposed on the Town by another agency (N2)",
}
# I2: who owes the Town's costs of an SSO an FSE caused.
DEBTORS = {
    "property_owner": "Property owner",
    "fse": "Food service establishment",
    "responsible_individual": "Responsible individual of the FSE",
}


def cost_kind_provision(kind: str) -> str:
    """The provision a cost rests on: N2 for another agency's fine passed on, N1 otherwise."""
    return "N2" if kind == COST_AGENCY_FINE else "N1"


def cost_due(kind: str, invoiced_on: dt.date, *, ruleset: Ruleset, calendar: TownCalendar) -> Deadline:
    """When a cost charged to the FSE, its property owner or responsible individual (I2) is owed.

    Clean-up and repair costs (staff, equipment, contractor): within N1's days of invoicing.
    Another agency's fine passed on (N2): the ordinance gives N2 no period of its own, so it is owed
    as every charge of the chapter is (Q1: due on notice, delinquent after its days)."""
    if kind not in COST_KINDS:
        raise ValueError(f"unknown cost kind {kind!r}")
    if kind == COST_AGENCY_FINE:
        deadline = fee_delinquency(invoiced_on, ruleset=ruleset, calendar=calendar)
        return dataclasses.replace(
            deadline,
            provision="N2",
            explanation=explain(
                ("N2",),
                [
                    say(
                        "N2 makes the violator liable for fines, penalties and assessments other agencies "
                        "impose on the Town, and gives no period of its own; the chapter's general rule applies."
                    )
                ],
            ).plus(deadline.explanation),
        )
    return cost_recovery_due(invoiced_on, ruleset=ruleset, calendar=calendar)
