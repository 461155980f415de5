"""Demo inspections: a year of visits, so the due list, the risk order and the findings show
something real. Called by ``fogcontrol.demo`` (``seed(*, rng, town, today)``); every visit goes
through the services (scheduled, filled in as a draft, completed by key), so findings, E6
requirements and the business-hours flag are what the rules make of them.

The mix: about half the active establishments inspected in the last year (the rest are due); most
visits in order, a few items failed (some corrected on the spot); a device or two over 25%; a
refused and a delayed entry; a visit after hours; follow-ups that close earlier findings; and
drafts assigned to the demo inspector for today and tomorrow.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import random
from decimal import Decimal
from zoneinfo import ZoneInfo

from PIL import Image, ImageDraw

from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.services import inspection_complete, inspection_save_draft, inspection_schedule
from fogcontrol.program.selectors import town_calendar
from fogcontrol.rules import inspections as rules

ACTING = "seed_demo"
SITE_SECTIONS = (rules.SECTION_RECORDS, rules.SECTION_BMP, rules.SECTION_PROHIBITED)
PEOPLE = ("Ana Lopez", "Bao Nguyen", "Chris Patel", "Dee Morgan", "Eli Cohen", "Fatima Khan")


def _signature(rng: random.Random) -> str:
    image = Image.new("RGBA", (300, 90), (0, 0, 0, 0))
    points = [(10 + 28 * i, rng.randint(20, 70)) for i in range(10)]
    ImageDraw.Draw(image).line(points, fill=(0, 0, 0, 255), width=3)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def _business_day(rng: random.Random, calendar, start: dt.date, end: dt.date) -> dt.date:
    day = start + dt.timedelta(days=rng.randint(0, max((end - start).days, 0)))
    while not calendar.is_business_day(day):
        day -= dt.timedelta(days=1)
    return day


def _answers(rng: random.Random, fail_rate: float) -> dict[str, str]:
    answers = {}
    for section in SITE_SECTIONS:
        for item in rules.section_items(section):
            answers[item.key] = (
                "fail" if rng.random() < fail_rate else ("na" if rng.random() < 0.05 else "pass")
            )
    return answers


def _devices(rng: random.Random, inspection: Inspection) -> dict:
    devices = {}
    for assessment in inspection.assessments.select_related("device"):
        device = assessment.device
        total = device.total_design_depth_in or Decimal("48")
        over = rng.random() < 0.08
        share = Decimal(rng.randint(27, 40) if over else rng.randint(6, 22)) / 100
        fog = (total * share * Decimal("0.4")).quantize(Decimal("0.1"))
        solids = (total * share - fog).quantize(Decimal("0.1"))
        answers = {
            item.key: ("fail" if rng.random() < 0.05 else "pass")
            for item in rules.section_items(rules.SECTION_DEVICE, device.kind)
        }
        devices[device.pk] = {
            "fog_depth_in": fog,
            "solids_depth_in": solids,
            "answers": answers,
            "condition": rng.choice(["good", "good", "good", "fair", "poor"]),
        }
    return devices


def _visit(
    rng, *, establishment, day, inspector, zone, signature, kind="routine", follow_up_of=None, closes=()
):
    inspection = inspection_schedule(
        establishment=establishment,
        scheduled_on=day,
        inspector=inspector,
        kind=kind,
        follow_up_of=follow_up_of,
        acting_user=ACTING,
    )
    late = rng.random() < 0.04
    hour = 18 if late else rng.randint(8, 15)
    started = dt.datetime.combine(day, dt.time(hour, rng.choice((0, 15, 30, 45))), tzinfo=zone)
    entry = "granted"
    roll = rng.random()
    if roll < 0.03:
        entry = "refused"
    elif roll < 0.08:
        entry = "delayed"
    answers = _answers(rng, 0.0 if kind == "follow_up" else 0.05)
    failed = [key for key, answer in answers.items() if answer == "fail"]
    person = rng.choice(PEOPLE)
    declined = rng.random() < 0.3
    changes = {
        "started_at": started,
        "finished_at": started + dt.timedelta(minutes=rng.randint(25, 70)),
        "entry": entry,
        "entry_delay_minutes": rng.randint(15, 45) if entry == "delayed" else None,
        "entry_note": "The manager on duty would not let the inspector into the kitchen."
        if entry == "refused"
        else "",
        "answers": answers,
        "corrected_items": [
            key for key in failed if rules.ITEMS[key].section == rules.SECTION_BMP and rng.random() < 0.4
        ],
        "closes_findings": list(closes),
        "person_met": person,
        "inspector_signed_name": inspector.get_full_name() or inspector.username,
        "inspector_signature": signature,
        "fse_signed_name": "" if declined else person,
        "fse_signature": "" if declined else signature,
        "fse_declined_to_sign": declined,
        "devices": _devices(rng, inspection),
    }
    inspection_save_draft(inspection=inspection, acting_user=ACTING, changes=changes)
    return inspection_complete(
        inspection=inspection, acting_user=ACTING, idempotency_key=f"demo-{inspection.pk}"
    )


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    """A year of inspections, follow-ups and today's assigned drafts (see the module's docstring)."""
    inspector = town.users["inspector"]
    zone = ZoneInfo(town.profile.time_zone)
    calendar = town_calendar()
    signature = _signature(rng)
    active = [fse for fse in town.active_establishments]
    if not active:
        return
    chosen = rng.sample(active, k=max(1, len(active) // 2))
    if town.fse_establishment is not None and town.fse_establishment not in chosen:
        chosen.append(town.fse_establishment)
    last_day = today - dt.timedelta(days=1)
    for establishment in chosen:
        day = _business_day(rng, calendar, today - dt.timedelta(days=355), last_day - dt.timedelta(days=20))
        inspection = _visit(
            rng, establishment=establishment, day=day, inspector=inspector, zone=zone, signature=signature
        )
        open_findings = list(
            Finding.objects.filter(
                source=Finding.Source.INSPECTION, source_id=inspection.pk, closed_on__isnull=True
            )
            .exclude(item__in=("entry_refused", "entry_delayed"))
            .values_list("pk", flat=True)
        )
        if open_findings and rng.random() < 0.5:
            follow_day = _business_day(
                rng, calendar, day + dt.timedelta(days=14), min(day + dt.timedelta(days=30), last_day)
            )
            if follow_day > day:
                _visit(
                    rng,
                    establishment=establishment,
                    day=follow_day,
                    inspector=inspector,
                    zone=zone,
                    signature=signature,
                    kind="follow_up",
                    follow_up_of=inspection,
                    closes=open_findings,
                )
    # Drafts for the demo inspector's day list: today and the next business day, by address.
    inspected = {fse.pk for fse in chosen}  # a set: `fse not in chosen` grew with the square of the town
    waiting = [fse for fse in active if fse.pk not in inspected]
    tomorrow = calendar.next_business_day_on_or_after(today + dt.timedelta(days=1))
    for index, establishment in enumerate(rng.sample(waiting, k=min(6, len(waiting)))):
        inspection_schedule(
            establishment=establishment,
            scheduled_on=today if index < 3 else tomorrow,
            inspector=inspector,
            acting_user=ACTING,
        )
