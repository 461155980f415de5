"""The nightly sweep of the records the FSE owes (F3, F4; C5, D7, E9, F2, F6): every report whose
due date has passed without a submission received by then becomes a finding, of the same kind
inspections produce, so that enforcement sees one list.

Set-based, like servicing's sweep: per batch of requirements one SELECT of the requirements, one of
their submissions and one of the findings already made for them, then one INSERT of the new
findings and one of their audit entries (``findings_open_bulk``). A report found late once is not
found again: the finding names the requirement (``source_id``) and the report (``item``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from fogcontrol.core.sweep import pages_by_key
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import findings_open_bulk
from fogcontrol.program.selectors import town_calendar, town_today, town_zone
from fogcontrol.records.models import RecordRequirement, RecordSubmission
from fogcontrol.records.schedule import requirement_periods
from fogcontrol.rules.explain import fmt_date

SWEEP_BATCH = 500
SWEEP_ACTOR = "records.nightly"


def finding_item(requirement_id: int, number: int) -> str:
    """What the finding names: the requirement and the report, so one late report is found once."""
    return f"report {requirement_id}/{number}"


def _received_by_period(requirement_ids, zone) -> dict[tuple[int, int], dt.date]:
    """The Town date each report was first received (originals only; a correction is no new report)."""
    first: dict[tuple[int, int], dt.date] = {}
    rows = RecordSubmission.objects.filter(
        requirement_id__in=requirement_ids, corrects__isnull=True
    ).values_list("requirement_id", "period_number", "received_at")
    for requirement_id, number, received_at in rows:
        day = timezone.localtime(received_at, zone).date()
        key = (requirement_id, number)
        first[key] = min(day, first.get(key, day))
    return first


def _late_findings(batch, *, today, calendar, zone) -> list[Finding]:
    ids = [requirement.pk for requirement in batch]
    received = _received_by_period(ids, zone)
    found: dict[int, set[str]] = defaultdict(set)
    for source_id, item in Finding.objects.filter(
        source=Finding.Source.RECORDS, source_id__in=ids
    ).values_list("source_id", "item"):
        found[source_id].add(item)
    new: list[Finding] = []
    for requirement in batch:
        for period in requirement_periods(requirement, through=today, calendar=calendar):
            lapses_on = period.deadline.lapses_on
            item = finding_item(requirement.pk, period.number)
            if lapses_on > today or item in found[requirement.pk]:
                continue
            received_on = received.get((requirement.pk, period.number))
            if received_on is not None and received_on <= period.due_on:
                continue
            what = requirement.get_kind_display()
            state = (
                f"received late, on {fmt_date(received_on)}" if received_on is not None else "not received"
            )
            new.append(
                Finding(
                    establishment_id=requirement.establishment_id,
                    provision=requirement.provision,
                    item=item,
                    description=(
                        f"{what}, report {period.number}, due {fmt_date(period.due_on)}: {state}. "
                        "A missing or late report the Town required violates the permit (F3, F4)."
                    ),
                    began_on=lapses_on,
                    source=Finding.Source.RECORDS,
                    source_id=requirement.pk,
                )
            )
    return new


def late_reports_sweep(*, today: dt.date | None = None, acting_user=SWEEP_ACTOR) -> int:
    """Open a finding for every required report not received by its due date (F3, F4), set-based,
    a batch of requirements at a time. Returns how many findings were opened."""
    today = today or town_today()
    calendar, zone = town_calendar(), town_zone()
    # A requirement whose first report is not yet past due owes nothing late.
    pending = RecordRequirement.objects.filter(first_due_on__lt=today).order_by("pk")
    opened = 0
    for batch in pages_by_key(pending, SWEEP_BATCH):
        with transaction.atomic():
            new = _late_findings(batch, today=today, calendar=calendar, zone=zone)
            if new:
                findings_open_bulk(
                    findings=new, acting_user=acting_user, note="A required report was not received (F3, F4)."
                )
            opened += len(new)
    return opened
