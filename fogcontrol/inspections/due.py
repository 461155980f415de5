"""The inspection-due list (D8): which establishments are due by a day, why, and in what order.

Set-based: a fixed number of queries whatever the size of the town (establishments; their devices
with their service state; the last completed inspection per device and per establishment; open
flags, open requirements, findings and linked spills counted per establishment; the drafts already scheduled;
the ruleset and calendar). The dates and the score come from ``fogcontrol.rules.inspections``.
The list is Town business: staff only (pages 404, API 403 for anyone else).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict

from django.db.models import Count, Max

from fogcontrol.findings.selectors import finding_counts_by_establishment
from fogcontrol.inspections.models import DeviceAssessment, Inspection
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules import inspections as rules
from fogcontrol.rules.counting import Deadline
from fogcontrol.rules.devices import STATUS_NEVER_SERVICED, STATUS_OVER_LIMIT, STATUS_OVERDUE
from fogcontrol.servicing.models import ManifestFlag, ServiceRequirement
from fogcontrol.spills.selectors import spill_counts_by_establishment


@dataclasses.dataclass(frozen=True)
class DueInspection:
    """One establishment due for inspection by the day asked (D8), with its priority and reasons."""

    establishment_id: int
    business_name: str
    site_address: str
    due_on: dt.date
    deadline: Deadline
    overdue: bool
    last_inspected_on: dt.date | None
    device_ids: tuple[int, ...]
    risk: rules.RiskScore
    scheduled_id: int | None
    scheduled_on: dt.date | None
    scheduled_inspector: str

    @property
    def priority(self) -> int:
        return self.risk.score


def _by_establishment(device_rows) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = defaultdict(list)
    for row in device_rows:
        out[row["establishments"]].append(row)
    return out


def inspections_due(user, *, on: dt.date) -> list[DueInspection]:
    """Establishments whose D8 inspection falls due on or before ``on``, highest priority first
    (then the earliest due date). An establishment with a draft already scheduled shows it."""
    establishments = list(
        FoodServiceEstablishment.objects.visible_to(user)
        .filter(status=FoodServiceEstablishment.Status.ACTIVE)
        .values("pk", "business_name", "site_address", "meals_per_day", "created_at")
    )
    if not establishments:
        return []
    ids = [row["pk"] for row in establishments]
    devices = _by_establishment(
        GreaseControlDevice.objects.filter(
            establishments__in=ids, status=GreaseControlDevice.Status.ACTIVE
        ).values("pk", "installed_on", "created_at", "establishments", "service_state__status")
    )
    device_ids = {row["pk"] for rows in devices.values() for row in rows}
    last_by_device = dict(
        DeviceAssessment.objects.filter(
            device_id__in=device_ids, inspection__status=Inspection.Status.COMPLETED
        )
        .values("device_id")
        .annotate(last=Max("inspection__visited_on"))
        .values_list("device_id", "last")
    )
    last_by_establishment = dict(
        Inspection.objects.filter(establishment_id__in=ids, status=Inspection.Status.COMPLETED)
        .values("establishment_id")
        .annotate(last=Max("visited_on"))
        .values_list("establishment_id", "last")
    )
    flags = dict(
        ManifestFlag.objects.filter(manifest__establishment_id__in=ids, review=ManifestFlag.Review.OPEN)
        .values("manifest__establishment_id")
        .annotate(n=Count("pk"))
        .values_list("manifest__establishment_id", "n")
    )
    requirements = dict(
        ServiceRequirement.objects.filter(device_id__in=device_ids, status=ServiceRequirement.Status.OPEN)
        .values("device_id")
        .annotate(n=Count("pk"))
        .values_list("device_id", "n")
    )
    findings = finding_counts_by_establishment(ids)
    spills = spill_counts_by_establishment(ids)
    drafts = {
        row["establishment_id"]: row
        for row in Inspection.objects.filter(establishment_id__in=ids, status=Inspection.Status.DRAFT)
        # Latest first, so the earliest draft of each establishment is the one kept.
        .order_by("-scheduled_on", "-pk")
        .values("pk", "establishment_id", "scheduled_on", "inspector__username")
    }
    ruleset, calendar = ruleset_on(on), town_calendar()
    due: list[DueInspection] = []
    for row in establishments:
        pk = row["pk"]
        own = devices.get(pk, [])
        deadlines = [
            rules.inspection_due(
                last_inspected_on=last_by_device.get(device["pk"]),
                installed_on=device["installed_on"],
                registered_on=device["created_at"].date(),
                ruleset=ruleset,
                calendar=calendar,
            )
            for device in own
        ]
        deadline = rules.earliest_due(deadlines) or rules.inspection_due(
            last_inspected_on=last_by_establishment.get(pk),
            installed_on=None,
            registered_on=row["created_at"].date(),
            ruleset=ruleset,
            calendar=calendar,
            subject="establishment",
        )
        if deadline.due > on:
            continue
        last = last_by_establishment.get(pk)
        statuses = [device["service_state__status"] for device in own]
        open_findings, closed_findings = findings.get(pk, (0, 0))
        risk = rules.risk_score(
            rules.RiskInputs(
                devices_overdue=statuses.count(STATUS_OVERDUE),
                devices_over_limit=statuses.count(STATUS_OVER_LIMIT),
                manifests_missed=statuses.count(STATUS_NEVER_SERVICED),
                manifests_flagged=flags.get(pk, 0),
                open_requirements=sum(requirements.get(device["pk"], 0) for device in own),
                open_findings=open_findings,
                past_findings=closed_findings,
                spills=spills.get(pk, 0),
                meals_per_day=row["meals_per_day"],
                days_since_inspection=(on - last).days if last else None,
            ),
            ruleset=ruleset,
        )
        draft = drafts.get(pk)
        due.append(
            DueInspection(
                establishment_id=pk,
                business_name=row["business_name"],
                site_address=row["site_address"],
                due_on=deadline.due,
                deadline=deadline,
                overdue=deadline.due < on,
                last_inspected_on=last,
                device_ids=tuple(device["pk"] for device in own),
                risk=risk,
                scheduled_id=draft["pk"] if draft else None,
                scheduled_on=draft["scheduled_on"] if draft else None,
                scheduled_inspector=(draft["inspector__username"] or "") if draft else "",
            )
        )
    due.sort(key=lambda item: (-item.priority, item.due_on, item.business_name))
    return due
