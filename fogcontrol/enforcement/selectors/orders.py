"""Reads of complaints, hearings, penalty orders and terminations, scoped to the user (outside: 404)."""

from __future__ import annotations

from django.db.models import QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.enforcement.models import AdministrativeComplaint, Hearing, PenaltyOrder, ServiceTermination


def complaint_list(user, action: str = VIEW) -> QuerySet[AdministrativeComplaint]:
    return (
        AdministrativeComplaint.objects.visible_to(user, action)
        .select_related("case__establishment", "hearing")
        .prefetch_related("violations", "hearing__continuances")
    )


def hearing_list(user, action: str = VIEW) -> QuerySet[Hearing]:
    return (
        Hearing.objects.visible_to(user, action)
        .select_related("case__establishment", "permit_order__permit")
        .prefetch_related("continuances")
    )


def penalty_order_list(user, action: str = VIEW) -> QuerySet[PenaltyOrder]:
    return (
        PenaltyOrder.objects.visible_to(user, action)
        .select_related("case__establishment")
        .prefetch_related("violations")
    )


def termination_list(user, action: str = VIEW) -> QuerySet[ServiceTermination]:
    return (
        ServiceTermination.objects.visible_to(user, action)
        .select_related("case__establishment", "permit_order")
        .prefetch_related("costs")
    )


def penalty_orders_waiting(user) -> QuerySet[PenaltyOrder]:
    """Penalty orders proposed and waiting for a second approval (two-person rule), oldest first."""
    return (
        PenaltyOrder.objects.visible_to(user)
        .filter(status=PenaltyOrder.Status.PROPOSED)
        .select_related("case__establishment")
        .order_by("proposed_on", "pk")
    )
