"""Reads of cases, scoped to the user: the list, and one case with everything its timeline shows."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.enforcement.models import (
    AgreementMilestone,
    Case,
    ComplianceAgreement,
    Hearing,
    PenaltyOrder,
    Violation,
)


def cases_visible_to(user, action: str = VIEW) -> QuerySet[Case]:
    return Case.objects.visible_to(user, action)


def case_list(user) -> QuerySet[Case]:
    """Cases with their establishment and counts of violations (open, all), in one query."""
    return (
        cases_visible_to(user)
        .select_related("establishment")
        .annotate(
            violation_count=Count("case_violations", distinct=True),
            open_violation_count=Count(
                "case_violations", filter=Q(case_violations__violation__cured_on__isnull=True), distinct=True
            ),
        )
        .order_by("-opened_on", "-pk")
    )


def case_detail(user, pk) -> Case:
    """One case with its violations and steps prefetched (a fixed number of queries)."""
    return (
        cases_visible_to(user)
        .select_related("establishment")
        .prefetch_related(
            Prefetch(
                "violations", queryset=Violation.objects.select_related("device").order_by("began_on", "pk")
            ),
            "notices_of_violation__violations",
            "citations__violation",
            Prefetch(
                "agreements",
                queryset=ComplianceAgreement.objects.prefetch_related(
                    Prefetch("milestones", queryset=AgreementMilestone.objects.order_by("due_on", "pk"))
                ),
            ),
            Prefetch(
                "hearings",
                queryset=Hearing.objects.select_related("permit_order__permit").prefetch_related(
                    "continuances"
                ),
            ),
            "referrals__violations",
            "complaints",
            # An FSE sees an order only once it is issued (two-person rule).
            Prefetch("penalty_orders", queryset=PenaltyOrder.objects.visible_to(user)),
            "terminations__costs",  # enforcement-b
        )
        .get(pk=pk)
    )
