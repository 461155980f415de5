"""What an establishment owes the Town, for H3. ONE function, ``amounts_owed``: billing will replace
its body when it owns the amounts; until then it reads the permit fees owed (permits' FeeCharge) and
the administrative citations not yet paid (P2), penalty orders not yet paid (P8) and service
costs (O2)."""

from __future__ import annotations

from fogcontrol.enforcement.models import AdministrativeCitation, PenaltyOrder, ServiceCost
from fogcontrol.permits.models import FeeCharge
from fogcontrol.rules.enforcement import Owed
from fogcontrol.rules.explain import fmt_date


def amounts_owed(establishment) -> list[Owed]:
    """Every fee, charge or penalty the establishment owes now and has not paid (H3, Q1)."""
    owed = [
        Owed(f"{charge.get_kind_display()}, assessed {fmt_date(charge.assessed_on)}", charge.amount)
        for charge in FeeCharge.objects.filter(
            establishment=establishment,
            status__in=[FeeCharge.Status.OWED, FeeCharge.Status.INVOICED],
            amount__gt=0,
        ).order_by("assessed_on", "pk")
    ]
    owed += [
        Owed(
            f"Administrative citation {citation.number}, issued {fmt_date(citation.issued_on)}",
            citation.amount,
        )
        for citation in AdministrativeCitation.objects.filter(
            case__establishment=establishment, paid_on__isnull=True, amount__gt=0
        ).order_by("issued_on", "pk")
    ]
    # enforcement-b: penalty orders not paid nor overturned (P8), and O2 service costs (billing's later).
    owed += [
        Owed(f"Penalty order {order.reference}, issued {fmt_date(order.issued_on)}", order.amount)
        for order in PenaltyOrder.objects.filter(case__establishment=establishment, paid_on__isnull=True)
        .exclude(status=PenaltyOrder.Status.OVERTURNED)
        .order_by("issued_on", "pk")
    ]
    owed += [
        Owed(f"{cost.get_kind_display()} of sewer service, {fmt_date(cost.incurred_on)}", cost.amount)
        for cost in ServiceCost.objects.filter(
            termination__case__establishment=establishment, amount__gt=0
        ).order_by("incurred_on", "pk")
    ]
    return owed
