"""Every read of findings, scoped to the user (outside the scope: 404)."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.findings.models import Finding


def findings_visible_to(user, action: str = VIEW) -> QuerySet[Finding]:
    return Finding.objects.visible_to(user, action)


def finding_list(user) -> QuerySet[Finding]:
    """Findings with what a list shows (establishment, device) in one query."""
    return findings_visible_to(user).select_related("establishment", "device")


def finding_detail(user, pk) -> Finding:
    return finding_list(user).get(pk=pk)


def findings_of_source(user, *, source: str, source_id: int) -> QuerySet[Finding]:
    """The findings one inspection (or record, spill) produced, in the order they were made."""
    return finding_list(user).filter(source=source, source_id=source_id).order_by("pk")


def finding_counts_by_establishment(establishment_ids) -> dict[int, tuple[int, int]]:
    """(open, closed) findings per establishment, one query: for the inspection risk score (D8).
    Program-wide counts read by staff pages and jobs; never shown to an outside user as records."""
    rows = (
        Finding.objects.filter(establishment_id__in=establishment_ids)
        .values("establishment_id")
        .annotate(
            open=Count("pk", filter=Q(closed_on__isnull=True)),
            closed=Count("pk", filter=Q(closed_on__isnull=False)),
        )
    )
    return {row["establishment_id"]: (row["open"], row["closed"]) for row in rows}
