"""What an establishment owes the Town, for H3: ONE question, asked of ``fogcontrol.core.owed``.
Billing answers for everything it bills or will bill (permit fees, D6 charges, penalty orders,
O2 service costs, on an invoice or not yet picked up); enforcement itself answers for the
administrative citations not yet paid (P2, issued and paid under Chapter 1.01, outside billing;
``fogcontrol.enforcement.owed``)."""

from __future__ import annotations

from fogcontrol.core import owed as core_owed
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.enforcement import Owed


def amounts_owed(establishment) -> list[Owed]:
    """Every fee, charge or penalty the establishment owes now and has not paid (H3, Q1), each with
    its label and provision."""
    return [
        Owed(item.label, item.amount, item.provision)
        for item in core_owed.amounts_owed(establishment.pk, town_today())
        if item.amount > 0
    ]
