"""Inspections: when each device and establishment is due (D8), how urgent a visit is (the risk
score), whether a visit fell in the Town's business hours (D1), and which provision a failed
checklist item breaks (D1, D4, D8, C1-C7, E3, E6, F3, F4, F6, K1-K7).

Pure functions over plain data: no Django, no clock. Every number comes from the ``Ruleset``;
the working comes back as an ``Explanation``. The checklist (``CHECKLIST``) lists each item
with its section and the provision a "fail" breaks.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterable
from decimal import Decimal

from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.counting import LIMIT_TOWN_MAXIMUM, Deadline, anniversary_deadline
from fogcontrol.rules.devices import GRAVITY_INTERCEPTOR, HYDROMECHANICAL_INTERCEPTOR
from fogcontrol.rules.devices import fill_ratio as devices_fill_ratio
from fogcontrol.rules.explain import Explanation, Sentence, explain, fmt_date, fmt_percent, say
from fogcontrol.rules.ruleset import Ruleset

# What the start of the D8 year was, for the explanation.
START_LAST_INSPECTION = "last_inspection"
START_INSTALLED = "installed"
START_REGISTERED = "registered"
START_WHAT = {
    START_LAST_INSPECTION: say("the date of the last Town inspection"),
    START_INSTALLED: say("the date the device was installed (never inspected by the Town)"),
    START_REGISTERED: say("the date the record was registered (never inspected by the Town)"),
}
# What D8 counts for, in the working's words (said again in the reader's language, issue 18).
SUBJECTS = {"device": say("device"), "establishment": say("establishment")}


def checklist_words(text: str) -> Sentence:
    """D4, D8: a checklist label or finding as a phrase of a working: its words are the catalogue's already
    (marked in fogcontrol/inspections/checklist_labels.py, one place), so they are said again from there."""
    return say(text.replace("%", "%%"))


# --- D8: the annual inspection ----------------------------------------------------------------


def inspection_due(
    *,
    last_inspected_on: dt.date | None,
    installed_on: dt.date | None,
    registered_on: dt.date,
    ruleset: Ruleset,
    calendar: TownCalendar,
    subject: str = "device",
) -> Deadline:
    """D8: a GCD (and so its FSE) is inspected by the FOG Manager or an AEO at least every
    ``device_inspection_interval_years``, counted from the last Town inspection, or, when never
    inspected, from the device's installation, else from the day it was registered. The Town's
    own maximum (Counting days, kind 2): the latest date is the last business day on or before
    the anniversary; it never moves later."""
    if last_inspected_on is not None:
        start, what = last_inspected_on, START_LAST_INSPECTION
    elif installed_on is not None:
        start, what = installed_on, START_INSTALLED
    else:
        start, what = registered_on, START_REGISTERED
    said = SUBJECTS.get(subject) or subject
    return anniversary_deadline(
        slug="D8",
        provision="D8",
        title=say("Annual inspection of the %(subject)s due", subject=said),
        start=start,
        start_what=say("%(what)s of the %(subject)s", what=START_WHAT[what], subject=said),
        years=ruleset.device_inspection_interval_years,
        act=say("Inspecting the %(subject)s", subject=said),
        lapse_label=say("The inspection is overdue"),
        calendar=calendar,
        limit=LIMIT_TOWN_MAXIMUM,
    )


def earliest_due(deadlines: Iterable[Deadline]) -> Deadline | None:
    """D8 for an establishment: its inspection is due when the first of its devices is due (one
    visit inspects them all); None when it has none."""
    found = [deadline for deadline in deadlines if deadline.due is not None]
    if not found:
        return None
    return min(found, key=lambda deadline: (deadline.due, deadline.start))


# --- the risk score ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RiskInputs:
    """What the program knows about an establishment, as plain counts (D4, D8, E1, E3, F1, J1).

    ``spills`` is the number of spills linked to the FSE (0 until spills are recorded);
    ``days_since_inspection`` is None when the Town has never inspected it.
    """

    devices_overdue: int = 0
    devices_over_limit: int = 0
    manifests_missed: int = 0
    manifests_flagged: int = 0
    open_requirements: int = 0
    open_findings: int = 0
    past_findings: int = 0
    spills: int = 0
    meals_per_day: int | None = None
    days_since_inspection: int | None = None


@dataclasses.dataclass(frozen=True)
class RiskReason:
    """One factor of the score: its points and why, with the provision it rests on."""

    factor: str
    points: int
    text: str
    provision: str


@dataclasses.dataclass(frozen=True)
class RiskScore:
    """The priority of an establishment for inspection (D8) and the reasons, largest first."""

    score: int
    reasons: tuple[RiskReason, ...]
    explanation: Explanation


def _count_reason(
    factor: str, count: int, weight: int, noun: tuple[Sentence, Sentence], provision: str
) -> RiskReason | None:
    if count <= 0 or weight <= 0:
        return None
    singular, plural = noun
    return RiskReason(
        factor,
        count * weight,
        say(
            "%(count)s %(noun)s (%(points)s each)",
            count=count,
            noun=singular if count == 1 else plural,
            points=_points(weight),
        ),
        provision,
    )


def _points(number: int) -> str:
    return say("1 point") if number == 1 else say("%(count)s points", count=number)


def risk_score(inputs: RiskInputs, *, ruleset: Ruleset) -> RiskScore:
    """D8 (program priority): who to inspect first. Points per device overdue for service (E1) or
    over the 25% rule (E3), per missed or flagged manifest (F1, F7), per open requirement (E6, E8),
    per open and past finding (D4), per linked spill (J1), per 100 meals a day (size), and per 30
    days since the last inspection (or a flat amount when never inspected). Weights are ruleset
    values (``risk_weight_*``); the reasons say where every point came from."""
    counts = (
        ("devices_overdue", inputs.devices_overdue, ruleset.risk_weight_device_overdue, (say("device overdue for service"), say("devices overdue for service")), "E1"),
        ("devices_over_limit", inputs.devices_over_limit, ruleset.risk_weight_device_over_limit, (say("device over the 25%% rule"), say("devices over the 25%% rule")), "E3"),
        ("manifests_missed", inputs.manifests_missed, ruleset.risk_weight_manifest_missed, (say("missed manifest"), say("missed manifests")), "F1"),
        ("manifests_flagged", inputs.manifests_flagged, ruleset.risk_weight_manifest_flagged, (say("flagged manifest"), say("flagged manifests")), "F7"),
        ("open_requirements", inputs.open_requirements, ruleset.risk_weight_open_requirement, (say("open requirement"), say("open requirements")), "E6"),
        ("open_findings", inputs.open_findings, ruleset.risk_weight_open_finding, (say("open finding"), say("open findings")), "D4"),
        ("past_findings", inputs.past_findings, ruleset.risk_weight_past_finding, (say("past finding"), say("past findings")), "D4"),
        ("spills", inputs.spills, ruleset.risk_weight_spill, (say("spill linked to the establishment"), say("spills linked to the establishment")), "J1"),
    )  # fmt: skip
    reasons = [reason for reason in (_count_reason(*row) for row in counts) if reason is not None]
    if inputs.meals_per_day:
        hundreds = inputs.meals_per_day // 100
        points = hundreds * ruleset.risk_weight_per_100_meals
        if points > 0:
            reasons.append(
                RiskReason(
                    "meals_per_day",
                    points,
                    say(
                        "%(meals)s meals a day (%(points)s per 100)",
                        meals=inputs.meals_per_day,
                        points=_points(ruleset.risk_weight_per_100_meals),
                    ),
                    "D8",
                )
            )
    if inputs.days_since_inspection is None:
        if ruleset.risk_weight_never_inspected > 0:
            reasons.append(
                RiskReason(
                    "never_inspected",
                    ruleset.risk_weight_never_inspected,
                    say("never inspected by the Town"),
                    "D8",
                )
            )
    else:
        months = inputs.days_since_inspection // 30
        points = months * ruleset.risk_weight_per_30_days_since_inspection
        if points > 0:
            reasons.append(
                RiskReason(
                    "days_since_inspection",
                    points,
                    say(
                        "%(days)s days since the last inspection (%(points)s per 30 days)",
                        days=inputs.days_since_inspection,
                        points=_points(ruleset.risk_weight_per_30_days_since_inspection),
                    ),
                    "D8",
                )
            )
    reasons.sort(key=lambda reason: (-reason.points, reason.factor))
    score = sum(reason.points for reason in reasons)
    steps = [
        say(
            "%(reason)s: %(points)s (%(provision)s).",
            reason=reason.text,
            points=_points(reason.points),
            provision=reason.provision,
        )
        for reason in reasons
    ]
    steps.append(say("Total: %(score)s points; the higher the score, the sooner the visit.", score=score))
    provisions = ["D8", *(reason.provision for reason in reasons)]
    return RiskScore(score=score, reasons=tuple(reasons), explanation=explain(provisions, steps))


# --- D1: the Town's business hours --------------------------------------------------------------

_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_TITLES = (
    say("Monday"), say("Tuesday"), say("Wednesday"), say("Thursday"), say("Friday"), say("Saturday"), say("Sunday"),
)  # fmt: skip
_DAYS = re.compile(
    r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:to|through|thru|-|–|—)\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*",
    re.IGNORECASE,
)
_TIME = r"(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?\s?m\.?|p\.?\s?m\.?)?"
_HOURS = re.compile(_TIME + r"\s*(?:to|until|till|-|–|—)\s*" + _TIME, re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class OfficeHours:
    """The Town's office hours (D1, Counting days): the weekdays open (0 = Monday) and the times."""

    weekdays: frozenset[int]
    opens: dt.time
    closes: dt.time

    def describe(self) -> str:
        """The hours in words: "Monday to Friday, 08:00 to 17:00" (D1)."""
        days = sorted(self.weekdays)
        return say(
            "%(first)s to %(last)s, %(opens)s to %(closes)s",
            first=_DAY_TITLES[days[0]],
            last=_DAY_TITLES[days[-1]],
            opens=f"{self.opens:%H:%M}",
            closes=f"{self.closes:%H:%M}",
        )


def _clock(hour: str, minute: str | None, half: str | None) -> dt.time:
    value = int(hour)
    if half:
        is_pm = half.lower().startswith("p")
        if not 1 <= value <= 12:
            raise ValueError(f"office_hours: {hour} is not an hour on a 12-hour clock")
        value = value % 12 + (12 if is_pm else 0)
    if not 0 <= value <= 23:
        raise ValueError(f"office_hours: {hour} is not an hour")
    return dt.time(value, int(minute or 0))


def parse_office_hours(text: str) -> OfficeHours:
    """D1: read the Town profile's office hours ("Monday to Friday, 8:00 a.m. to 5:00 p.m.",
    "Mon-Thu 07:00-18:00"). Without a day range the offices are taken as open on the days the
    Town calendar says are business days. Raises ``ValueError`` when no hours can be read."""
    hours = _HOURS.search(text or "")
    if hours is None:
        raise ValueError(f"office_hours: no opening and closing times in {text!r}")
    opens = _clock(hours.group(1), hours.group(2), hours.group(3))
    closes = _clock(hours.group(4), hours.group(5), hours.group(6) or hours.group(3))
    if closes <= opens:
        raise ValueError(f"office_hours: closing time {closes:%H:%M} is not after opening time {opens:%H:%M}")
    days = _DAYS.search((text or "")[: hours.start()] or text or "")
    if days is None:
        weekdays = frozenset(range(7))
    else:
        first = [name[:3] for name in _DAY_NAMES].index(days.group(1).lower()[:3])
        last = [name[:3] for name in _DAY_NAMES].index(days.group(2).lower()[:3])
        weekdays = frozenset((first + step) % 7 for step in range((last - first) % 7 + 1))
    return OfficeHours(weekdays=weekdays, opens=opens, closes=closes)


@dataclasses.dataclass(frozen=True)
class HoursCheck:
    """Was the visit within the Town's business hours (D1)? ``outside`` flags it; never refused."""

    outside: bool
    explanation: Explanation


def visit_hours_check(
    *,
    started_at: dt.datetime,
    finished_at: dt.datetime | None,
    office_hours: str,
    calendar: TownCalendar,
) -> HoursCheck:
    """D1: inspections happen during normal business hours. ``started_at`` and ``finished_at`` are
    local times in the Town's time zone. A visit on a day the offices are closed (weekend, Town
    holiday or closure, Counting days) or outside the office hours of the Town profile is flagged
    "outside hours"; it is recorded, not refused. Hours that cannot be read flag nothing and say so."""
    steps = [say("Town office hours: %(hours)s.", hours=repr(office_hours))]
    try:
        hours = parse_office_hours(office_hours)
    except ValueError:
        steps.append(
            say(
                "These hours could not be read, so the visit is not flagged; correct them in the Town profile."
            )
        )
        return HoursCheck(outside=False, explanation=explain(("D1",), steps))
    steps.append(say("Read as %(hours)s.", hours=hours.describe()))
    end = finished_at or started_at
    problems = []
    day = started_at.date()
    while day <= end.date():
        reason = calendar.closed_reason(day)
        if reason is not None:
            problems.append(say("%(day)s is %(reason)s", day=fmt_date(day), reason=reason))
        elif day.weekday() not in hours.weekdays:
            problems.append(say("the offices are not open on %(day)s", day=fmt_date(day)))
        day += dt.timedelta(days=1)
    began, ended = f"{started_at:%H:%M}", f"{end:%H:%M}"
    if started_at.time() < hours.opens:
        problems.append(
            say("the visit began at %(time)s, before %(opens)s", time=began, opens=f"{hours.opens:%H:%M}")
        )
    if end.date() > started_at.date() or end.time() > hours.closes:
        problems.append(
            say("the visit ended at %(time)s, after %(closes)s", time=ended, closes=f"{hours.closes:%H:%M}")
        )
    if started_at.time() > hours.closes:
        problems.append(say("the visit began at %(time)s, after closing", time=began))
    if problems:
        names = {f"problem{index}": problem for index, problem in enumerate(problems)}
        template = "; ".join(f"%({name})s" for name in names)  # no words: nothing to translate
        joined = say(template, **names)
        steps.append(say("Outside business hours: %(problems)s.", problems=joined))
        steps.append(say("D1: the visit is flagged, not refused; the report says so."))
        return HoursCheck(outside=True, explanation=explain(("D1", "Counting days"), steps))
    steps.append(
        say(
            "The visit, %(began)s to %(ended)s on %(day)s, was within them.",
            began=began,
            ended=ended,
            day=fmt_date(started_at.date()),
        )
    )
    return HoursCheck(outside=False, explanation=explain(("D1",), steps))


# --- the checklist: each item and the provision a failure breaks ------------------------------

PASS = "pass"
FAIL = "fail"
NOT_APPLICABLE = "na"
ANSWERS = (PASS, FAIL, NOT_APPLICABLE)

SECTION_DEVICE = "device"
SECTION_RECORDS = "records"
SECTION_BMP = "bmp"
SECTION_PROHIBITED = "prohibited"
SECTION_ENTRY = "entry"
SECTIONS = {
    SECTION_DEVICE: "Device assessment (D4, D8)",
    SECTION_RECORDS: "Records reviewed on site (D1, F6)",
    SECTION_BMP: "Best management practices (C1-C7)",
    SECTION_PROHIBITED: "Prohibited discharges (K1-K7)",
    SECTION_ENTRY: "Entry (D1)",
}


@dataclasses.dataclass(frozen=True)
class ChecklistItem:
    """One thing the inspector checks: the question (answered pass / fail / n/a), the provision a
    "fail" breaks, and the finding's words. ``kinds`` limits a device item to kinds of device."""

    key: str
    section: str
    label: str
    provision: str
    failure: str
    kinds: tuple[str, ...] = ()


CHECKLIST: tuple[ChecklistItem, ...] = (
    # D8: interceptors (seams, pipes, baffles, sample/inlet/outlet tees); traps (seams, pipes,
    # baffles, flow-regulating device). A4: manholes with removable covers, accessible. E7: no caked-on FOG.
    ChecklistItem("seams_pipes", SECTION_DEVICE, "Seams and pipes sound", "D8", "Seams or pipes are damaged or leaking"),
    ChecklistItem("baffles", SECTION_DEVICE, "Baffles in place and sound", "D8", "Baffles are missing or damaged"),
    ChecklistItem("tees", SECTION_DEVICE, "Inlet, outlet and sample tees sound", "D8", "Inlet, outlet or sample tees are missing or damaged", (GRAVITY_INTERCEPTOR,)),
    ChecklistItem("flow_regulator", SECTION_DEVICE, "Flow-regulating device in place", "D8", "The flow-regulating device is missing or damaged", (HYDROMECHANICAL_INTERCEPTOR,)),
    ChecklistItem("covers_access", SECTION_DEVICE, "Manhole covers removable, device accessible", "A4", "Manhole covers or access are inadequate"),
    ChecklistItem("caked_fog", SECTION_DEVICE, "No caked-on FOG", "E7", "Caked-on FOG in the device"),
    # D1 / F6: records produced on request; F1 manifests kept on the premises; F4 inaccurate manifests.
    ChecklistItem("manifests_on_site", SECTION_RECORDS, "Hauler manifests kept on site", "F1", "Hauler manifests are not kept on the premises"),
    ChecklistItem("manifests_match", SECTION_RECORDS, "On-site manifests match what the haulers submitted", "F4", "On-site manifests differ from those the haulers submitted"),
    ChecklistItem("receipts", SECTION_RECORDS, "Receipts and invoices produced", "F6", "Receipts or invoices were not produced"),
    ChecklistItem("maintenance_records", SECTION_RECORDS, "Cleaning and maintenance records produced", "F6", "Cleaning and maintenance records were not produced"),
    ChecklistItem("waste_oil_pickups", SECTION_RECORDS, "Waste-oil pickup records", "C2", "No records of waste-oil pickups by a licensed hauler or recycler"),
    ChecklistItem("training_records", SECTION_RECORDS, "Training records signed by each employee", "C4", "Employee training is not documented with signatures"),
    ChecklistItem("self_monitoring", SECTION_RECORDS, "Self-monitoring reports (when required)", "F3", "Required self-monitoring reports are missing"),
    # C1-C7 as seen on site (C5, periodic reports, is not an on-site item).
    ChecklistItem("drain_screens", SECTION_BMP, "Drain screens on food-preparation drains", "C1", "Drain screens are missing"),
    ChecklistItem("waste_oil_receptacle", SECTION_BMP, "Waste-oil receptacle not leaking", "C2", "The waste-oil receptacle leaks or is in poor condition"),
    ChecklistItem("food_waste", SECTION_BMP, "Food waste disposed of properly", "C3", "Food waste is not disposed of per Chapter 6.20"),
    ChecklistItem("training_current", SECTION_BMP, "Employee training up to date", "C4", "Employee BMP training is not up to date"),
    ChecklistItem("hood_filters", SECTION_BMP, "Hood filters clean, wash water disposed of properly", "C6", "Kitchen exhaust filters are dirty or their wash water is disposed of improperly"),
    ChecklistItem("signage", SECTION_BMP, "BMP signage posted", "C7", "BMP signage is not posted in food-preparation and dish-washing areas"),
    # K1-K7: a "fail" means the prohibited thing was found.
    ChecklistItem("food_grinder", SECTION_PROHIBITED, "No food grinder", "K1", "A food grinder is present"),
    ChecklistItem("additives", SECTION_PROHIBITED, "No FOG additives", "K2", "FOG emulsifying or treatment additives are in use"),
    ChecklistItem("waste_oil_to_sewer", SECTION_PROHIBITED, "No waste cooking oil into the sewer", "K3", "Waste cooking oil is poured into sewer pipes"),
    ChecklistItem("dishwasher_to_device", SECTION_PROHIBITED, "No dishwasher discharge to the device", "K4", "A dishwasher discharges to the device"),
    ChecklistItem("hot_discharge", SECTION_PROHIBITED, "Nothing over the temperature limit into the device", "K4", "Discharge to the device is hotter than the limit"),
    ChecklistItem("sanitary_connection", SECTION_PROHIBITED, "No sanitary waste into the interceptor line", "K5", "Sanitary waste enters a line serving the grease interceptor"),
    ChecklistItem("contents_to_sewer", SECTION_PROHIBITED, "No device contents into the public sewer", "K6", "Device contents are discharged into the public sewer"),
    ChecklistItem("dilution", SECTION_PROHIBITED, "No dilution", "K7", "Signs of dilution as a substitute for treatment"),
    # D1: refusing or delaying entry is a violation in its own right.
    ChecklistItem("entry_refused", SECTION_ENTRY, "Entry granted", "D1", "Entry for inspection was refused"),
    ChecklistItem("entry_delayed", SECTION_ENTRY, "Entry not delayed", "D1", "Entry for inspection was delayed"),
)  # fmt: skip
ITEMS = {item.key: item for item in CHECKLIST}
FILL_ITEM = "fill"  # the 25% rule (E3), computed from the depths rather than answered


def section_items(section: str, kind: str | None = None) -> tuple[ChecklistItem, ...]:
    """The items of one section of the checklist (D4, D8, C1-C7, F6, K1-K7), for a device of
    ``kind`` when given (tees for interceptors, the flow-regulating device for traps)."""
    return tuple(
        item
        for item in CHECKLIST
        if item.section == section and (kind is None or not item.kinds or kind in item.kinds)
    )


@dataclasses.dataclass(frozen=True)
class FindingDraft:
    """What a failed item becomes: a finding with its provision and evidence (D4, P3: each a
    separate matter for enforcement)."""

    item: str
    section: str
    provision: str
    description: str
    reading: str = ""


def check_answer(key: str, answer: str) -> None:
    """Refuse an item or answer the checklist does not know (D4): answers are pass, fail or n/a."""
    if key not in ITEMS:
        raise ValueError(f"{key}: not an item of the inspection checklist")
    if answer not in ANSWERS:
        raise ValueError(f"{key}: answer one of {', '.join(ANSWERS)}, not {answer!r}")


def checklist_findings(answers: dict[str, str], *, ruleset: Ruleset) -> tuple[FindingDraft, ...]:
    """D1, F6, C1-C7, K1-K7: a finding for each failed site item, citing the provision it breaks,
    in checklist order. Unanswered and n/a items produce none. K4's limit comes from the ruleset."""
    for key, answer in answers.items():
        check_answer(key, answer)
    drafts = []
    for item in CHECKLIST:
        if item.section == SECTION_DEVICE or answers.get(item.key) != FAIL:
            continue
        description = item.failure
        if item.key == "hot_discharge":
            description = f"{description} ({ruleset.max_discharge_temperature_f} °F)"
        drafts.append(FindingDraft(item.key, item.section, item.provision, description))
    return tuple(drafts)


@dataclasses.dataclass(frozen=True)
class DeviceAssessmentResult:
    """A device's fill against the 25% rule (E3) and the findings of its assessment (D4, D8)."""

    fill_ratio: Decimal | None
    over_limit: bool
    findings: tuple[FindingDraft, ...]
    explanation: Explanation


def device_assessment(
    *,
    kind: str,
    answers: dict[str, str],
    fog_depth_in: Decimal | None,
    solids_depth_in: Decimal | None,
    total_depth_in: Decimal | None,
    ruleset: Ruleset,
) -> DeviceAssessmentResult:
    """D4, D8, E3, E6: the findings of one device's assessment. The fill is computed by the 25%
    rule of ``rules.devices.fill_ratio`` (FOG plus solids over the total design depth); over the
    ruleset's ``fill_limit_ratio`` is an E3 finding, and the device must be serviced immediately
    (E6: the service opens the same requirement a manifest would). Items that do not apply to the
    kind (tees on a trap) are refused."""
    from_kind = {item.key for item in section_items(SECTION_DEVICE, kind)}
    for key, answer in answers.items():
        check_answer(key, answer)
        if key not in from_kind:
            raise ValueError(f"{key}: does not apply to a device of kind {kind}")
    steps: list[str] = []
    ratio = None
    over = False
    drafts: list[FindingDraft] = []
    if fog_depth_in is not None and solids_depth_in is not None and total_depth_in:
        ratio = devices_fill_ratio(fog_depth_in, solids_depth_in, total_depth_in)
        limit = ruleset.fill_limit_ratio
        over = ratio > limit
        reading = say(
            "FOG %(fog)s in + solids %(solids)s in of %(total)s in = %(ratio)s",
            fog=fog_depth_in,
            solids=solids_depth_in,
            total=total_depth_in,
            ratio=fmt_percent(ratio),
        )
        steps.append(
            say(
                "%(reading)s; limit %(limit)s (E3): over the limit.",
                reading=reading,
                limit=fmt_percent(limit),
            )
            if over
            else say("%(reading)s; limit %(limit)s (E3).", reading=reading, limit=fmt_percent(limit))
        )
        if over:
            steps.append(
                say(
                    "The device must be serviced immediately, removing all FOG, sludge and other material (E6)."
                )
            )
            drafts.append(
                FindingDraft(
                    FILL_ITEM,
                    SECTION_DEVICE,
                    "E3",
                    say(
                        "FOG plus solids are %(ratio)s of the design depth, over the %(limit)s limit",
                        ratio=fmt_percent(ratio),
                        limit=fmt_percent(limit),
                    ),
                    reading,
                )
            )
    elif fog_depth_in is not None or solids_depth_in is not None:
        steps.append(
            say("The device's total design depth is not recorded: the 25%% rule could not be computed (E3).")
        )
    for item in section_items(SECTION_DEVICE, kind):
        if answers.get(item.key) == FAIL:
            drafts.append(FindingDraft(item.key, item.section, item.provision, item.failure))
            steps.append(
                say(
                    "%(item)s: failed (%(provision)s).",
                    item=checklist_words(item.label),
                    provision=item.provision,
                )
            )
    if not steps:
        steps.append(say("Nothing failed."))
    provisions = ["D4", "D8", *(draft.provision for draft in drafts)]
    if over:
        provisions.append("E6")
    return DeviceAssessmentResult(ratio, over, tuple(drafts), explain(provisions, steps))


def entry_findings(
    *, refused: bool, delayed: bool, minutes_delayed: int | None = None
) -> tuple[FindingDraft, ...]:
    """D1: refusing or delaying entry is a violation; each is an outcome with its own finding."""
    drafts = []
    if refused:
        drafts.append(FindingDraft("entry_refused", SECTION_ENTRY, "D1", ITEMS["entry_refused"].failure))
    if delayed:
        text = ITEMS["entry_delayed"].failure
        if minutes_delayed:
            text = f"{text} by {minutes_delayed} minutes"
        drafts.append(FindingDraft("entry_delayed", SECTION_ENTRY, "D1", text))
    return tuple(drafts)
