"""The nightly sweep of written spill reports (J2): every spill notice whose written report was not
received by its due day becomes a finding, once, of the same kind inspections produce.

Set-based: per batch one SELECT of the overdue notices (with their written report, if late), one of
the findings already made for them, one INSERT of the new findings and one of their audit entries
(``findings_open_bulk``). The due day was computed by the rules when the notice was recorded."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from fogcontrol.core.sweep import pages_by_key
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import findings_open_bulk
from fogcontrol.program.selectors import town_today, town_zone
from fogcontrol.rules.explain import fmt_date
from fogcontrol.spills.models import SpillReport

SWEEP_BATCH = 500
SWEEP_ACTOR = "spills.nightly"


def report_finding_item(report_id: int) -> str:
    """What the finding names, so one late written report is found once."""
    return f"written report {report_id}"


def _findings(batch, zone) -> list[Finding]:
    ids = [report.pk for report in batch]
    found = set(
        Finding.objects.filter(
            source=Finding.Source.SPILL, source_id__in=ids, item__startswith="written report "
        ).values_list("item", flat=True)
    )
    new = []
    for report in batch:
        item = report_finding_item(report.pk)
        if item in found:
            continue
        written = report.written if hasattr(report, "written") else None
        state = (
            f"received late, on {fmt_date(timezone.localtime(written.received_at, zone).date())}"
            if written is not None
            else "not received"
        )
        new.append(
            Finding(
                establishment_id=report.establishment_id,
                provision="J2",
                item=item,
                description=(
                    f"The written report of the spill of {fmt_date(timezone.localtime(report.occurred_at, zone).date())}"
                    f" was due {fmt_date(report.written_due_on)}: {state} (J2)."
                ),
                began_on=report.written_due_on + dt.timedelta(days=1),
                source=Finding.Source.SPILL,
                source_id=report.pk,
            )
        )
    return new


def overdue_written_reports_sweep(*, today: dt.date | None = None, acting_user=SWEEP_ACTOR) -> int:
    """Open a finding for every written spill report not received by its due day (J2), set-based,
    a batch at a time. Returns how many findings were opened; a second run opens none."""
    today = today or town_today()
    zone = town_zone()
    # Overdue: past due with no written report, or one received after the due day (the Town's day;
    # received_at is UTC, so a report sent late in the due day's evening is checked by date below).
    candidates = (
        SpillReport.objects.filter(written_due_on__lt=today)
        .filter(Q(written__isnull=True) | Q(written__received_at__date__gt=F("written_due_on")))
        .select_related("written")
        .order_by("pk")
    )
    opened = 0
    for batch in pages_by_key(candidates, SWEEP_BATCH):
        with transaction.atomic():
            late = [
                report
                for report in batch
                if not hasattr(report, "written")
                or timezone.localtime(report.written.received_at, zone).date() > report.written_due_on
            ]
            new = _findings(late, zone)
            if new:
                findings_open_bulk(
                    findings=new, acting_user=acting_user, note="A written spill report is late (J2)."
                )
            opened += len(new)
    return opened
