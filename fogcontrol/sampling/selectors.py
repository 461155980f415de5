"""Every read of sampling records, scoped to the user (outside the scope: 404)."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.sampling.models import (
    CustodyTransfer,
    DischargeLimit,
    LabReport,
    LabResult,
    MonitoringFacility,
    Sample,
)


def samples_visible_to(user, action: str = VIEW) -> QuerySet[Sample]:
    return Sample.objects.visible_to(user, action)


def sample_list(user) -> QuerySet[Sample]:
    """Samples with what a list shows (establishment, device, how many results and how many outside
    their limit) in one query."""
    return (
        samples_visible_to(user)
        .select_related("establishment", "device")
        .annotate(
            result_count=Count("results", distinct=True),
            outside_count=Count("results", filter=Q(results__outside=True), distinct=True),
        )
        .order_by("-sampled_at", "-pk")
    )


def sample_detail(user, pk) -> Sample:
    """One sample with its chain of custody, its results (and their limits) and its lab reports."""
    return (
        samples_visible_to(user)
        .select_related("establishment", "device", "inspection")
        .prefetch_related(
            Prefetch("custody", queryset=CustodyTransfer.objects.order_by("sequence")),
            Prefetch("results", queryset=LabResult.objects.select_related("limit").order_by("pk")),
            Prefetch("reports", queryset=LabReport.objects.order_by("pk")),
        )
        .get(pk=pk)
    )


def report_detail(user, pk) -> LabReport:
    return LabReport.objects.visible_to(user).get(pk=pk)


def limit_list(user) -> QuerySet[DischargeLimit]:
    return DischargeLimit.objects.visible_to(user).select_related("establishment", "permit")


def limit_detail(user, pk) -> DischargeLimit:
    return limit_list(user).get(pk=pk)


def facility_list(user) -> QuerySet[MonitoringFacility]:
    return MonitoringFacility.objects.visible_to(user).select_related("establishment")


def facility_detail(user, pk) -> MonitoringFacility:
    return facility_list(user).get(pk=pk)
