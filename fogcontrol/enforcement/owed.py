"""Enforcement's own answer to "is anything owed?" (fogcontrol.core.owed), registered in
AppConfig.ready(): the administrative citations not yet paid (P2). Citations are issued and paid
under the Town's Chapter 1.01, outside this program's billing; enforcement records their payment
(``citation_record_payment``). One query."""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.owed import OwedAmount
from fogcontrol.enforcement.models import AdministrativeCitation
from fogcontrol.rules.explain import fmt_date, say


def unpaid_citations(establishment_id: int, on: dt.date, **_rules) -> list[OwedAmount]:
    """P2: each citation issued by ``on`` to the establishment and not paid (no rules needed)."""
    return [
        OwedAmount(
            label=f"Administrative citation {citation.number}, issued {fmt_date(citation.issued_on)}",
            amount=citation.amount,
            provision="P2",
            explanation=f"Payable under Chapter {citation.chapter} of the Town Code (P2).",
            working=say("Payable under Chapter %(chapter)s of the Town Code (P2).", chapter=citation.chapter),
        )
        for citation in AdministrativeCitation.objects.filter(
            case__establishment_id=establishment_id, paid_on__isnull=True, amount__gt=0, issued_on__lte=on
        )
        .order_by("issued_on", "pk")
        # The four columns an amount owed is written from, not the citation's every column (issue 16:
        # asked on every FSE page, where it nearly always finds none).
        .only("number", "issued_on", "amount", "chapter")
    ]
