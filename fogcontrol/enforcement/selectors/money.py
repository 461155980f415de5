"""What an establishment owes the Town, for H3. ONE function, ``amounts_owed``: billing will replace
its body when it owns the amounts; until then it reads the permit fees owed (permits' FeeCharge) and
the administrative citations not yet paid (P2)."""

from __future__ import annotations

from fogcontrol.enforcement.models import AdministrativeCitation
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
    return owed
