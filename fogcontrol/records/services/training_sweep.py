"""The nightly sweep of late training (C4), beside the late reports' (F3, F4): a new hire not trained
by the due date, and an FSE whose annual training is overdue, each become a finding of the same kind
inspections produce, so that enforcement sees one list.

- A new hire (C4 "at the time of hiring"): late when the rules say so (``new_hire_trained_late``)
  and the Town knew of the hire in time: the employee was on record by the due date, or is still on
  no roster. An employee first recorded by signing a roster is no finding (their hire date is
  history the Town learns at the training itself). Item ``training hire <employee id>``; the source
  id is the employee's.
- Annual training (C4): late from the day after ``next_training_due`` of the last session. Item
  ``training annual <due date>``, so each missed anniversary is found once; the source id is the
  establishment's. A session held later does not close the finding: staff close it as any other.

Set-based: per batch of establishments one SELECT of them, one of their last sessions, one of their
employees with the first training each attended, one of the findings already made; then one INSERT
of the new findings and one of their audit entries (``findings_open_bulk``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.db import transaction
from django.db.models import Max, Min
from django.utils import timezone

from fogcontrol.core.sweep import pages_by_key
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import findings_open_bulk
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today, town_zone
from fogcontrol.records.models import Employee, TrainingSession
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.records import new_hire_trained_late, new_hire_training_due, next_training_due

SWEEP_BATCH = 500
SWEEP_ACTOR = "records.nightly"
HIRE_ITEM, ANNUAL_ITEM = "training hire {}", "training annual {}"


def _annual(establishment_ids, *, today, ruleset, calendar, found) -> list[Finding]:
    new = []
    last_sessions = (
        TrainingSession.objects.filter(establishment_id__in=establishment_ids)
        .values("establishment_id")
        .annotate(last=Max("held_on"))
        .order_by("establishment_id")
    )
    for row in last_sessions:
        deadline = next_training_due(row["last"], ruleset=ruleset, calendar=calendar)
        item = ANNUAL_ITEM.format(deadline.due.isoformat())
        if deadline.lapses_on > today or item in found[row["establishment_id"]]:
            continue
        new.append(
            Finding(
                establishment_id=row["establishment_id"],
                provision="C4",
                item=item,
                description=(
                    f"Annual employee training was due {fmt_date(deadline.due)}, a year after the last "
                    f"session on {fmt_date(row['last'])}, and none is on record. Employees are trained "
                    "at least once a year in the four subjects (C4)."
                ),
                began_on=deadline.lapses_on,
                source=Finding.Source.RECORDS,
                source_id=row["establishment_id"],
            )
        )
    return new


def _new_hires(establishment_ids, *, today, ruleset, calendar, zone, found) -> list[Finding]:
    new = []
    employees = (
        Employee.objects.filter(establishment_id__in=establishment_ids)
        .annotate(trained_on=Min("attendances__session__held_on"))
        .values_list("pk", "establishment_id", "name", "hire_date", "created_at", "trained_on")
        .order_by("pk")
    )
    for pk, establishment_id, name, hire_date, created_at, trained_on in employees:
        item = HIRE_ITEM.format(pk)
        if item in found[establishment_id]:
            continue
        if not new_hire_trained_late(hire_date, trained_on, on=today, ruleset=ruleset, calendar=calendar):
            continue
        deadline = new_hire_training_due(hire_date, ruleset=ruleset, calendar=calendar)
        if deadline.lapses_on > today:
            continue  # trained late already, but the day has not come for the sweep to say so
        recorded_on = timezone.localtime(created_at, zone).date()
        if trained_on is not None and recorded_on > deadline.due:
            continue  # first recorded at (or after) the training itself
        state = f"trained late, on {fmt_date(trained_on)}" if trained_on is not None else "not trained"
        new.append(
            Finding(
                establishment_id=establishment_id,
                provision="C4",
                item=item,
                description=(
                    f"New employee {name}, hired {fmt_date(hire_date)}, was due for training by "
                    f"{fmt_date(deadline.due)}: {state}. Employees are trained at the time of hiring (C4)."
                ),
                began_on=deadline.lapses_on,
                source=Finding.Source.RECORDS,
                source_id=pk,
            )
        )
    return new


def _found(establishment_ids) -> dict[int, set[str]]:
    found: dict[int, set[str]] = defaultdict(set)
    rows = Finding.objects.filter(
        source=Finding.Source.RECORDS, establishment_id__in=establishment_ids, item__startswith="training "
    ).values_list("establishment_id", "item")
    for establishment_id, item in rows:
        found[establishment_id].add(item)
    return found


def late_training_sweep(*, today: dt.date | None = None, acting_user=SWEEP_ACTOR) -> int:
    """Open a finding for every new hire not trained by the due date and every annual training
    overdue (C4), set-based, a batch of establishments at a time, each once. Returns how many."""
    today = today or town_today()
    ruleset, calendar, zone = ruleset_on(today), town_calendar(), town_zone()
    establishments = FoodServiceEstablishment.objects.filter(
        status=FoodServiceEstablishment.Status.ACTIVE
    ).values_list("pk", flat=True)
    opened = 0
    for ids in pages_by_key(establishments, SWEEP_BATCH, key=lambda pk: pk):
        with transaction.atomic():
            found = _found(ids)
            new = [
                *_new_hires(ids, today=today, ruleset=ruleset, calendar=calendar, zone=zone, found=found),
                *_annual(ids, today=today, ruleset=ruleset, calendar=calendar, found=found),
            ]
            if new:
                findings_open_bulk(
                    findings=new, acting_user=acting_user, note="Employee training is late (C4)."
                )
            opened += len(new)
    return opened
