"""Every read of spills, scoped to the user (outside the scope: 404)."""

from __future__ import annotations

from django.db.models import Count, Prefetch, QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.spills.models import Agency, Spill, SpillCost, SpillImport, SpillLink, SpillPhoto, SpillReport


def spills_visible_to(user, action: str = VIEW) -> QuerySet[Spill]:
    return Spill.objects.visible_to(user, action)


def spill_list(user) -> QuerySet[Spill]:
    """Spills with their agency and linked FSEs, in a fixed number of queries."""
    return (
        spills_visible_to(user)
        .select_related("agency")
        .prefetch_related(Prefetch("links", queryset=SpillLink.objects.select_related("establishment")))
    )


def spill_detail(user, pk) -> Spill:
    return spill_list(user).get(pk=pk)


def spill_photo_detail(user, pk) -> SpillPhoto:
    return SpillPhoto.objects.visible_to(user).get(pk=pk)


def spill_costs(user, spill: Spill) -> QuerySet[SpillCost]:
    """The Town's costs of a spill: Town staff only (an outside user sees none)."""
    return SpillCost.objects.visible_to(user).filter(spill=spill).select_related("establishment")


def report_list(user) -> QuerySet[SpillReport]:
    return SpillReport.objects.visible_to(user).select_related("establishment", "written")


def report_detail(user, pk) -> SpillReport:
    return report_list(user).get(pk=pk)


def agency_list(user) -> QuerySet[Agency]:
    return Agency.objects.visible_to(user)


def spill_import_list(user) -> QuerySet[SpillImport]:
    return SpillImport.objects.visible_to(user)


def spill_import_detail(user, pk) -> SpillImport:
    return spill_import_list(user).get(pk=pk)


def linkable_establishments(user) -> QuerySet[FoodServiceEstablishment]:
    return FoodServiceEstablishment.objects.visible_to(user).order_by("business_name")


def spill_counts_by_establishment(establishment_ids) -> dict[int, int]:
    """Spills linked to each establishment, one query: for the inspection risk score (D8, J1).
    Program-wide counts read by staff pages and jobs."""
    rows = (
        SpillLink.objects.filter(establishment_id__in=establishment_ids)
        .values("establishment_id")
        .annotate(n=Count("spill_id", distinct=True))
    )
    return {row["establishment_id"]: row["n"] for row in rows}
