"""What an establishment owes the Town, asked without importing billing (H3, Q2, B6).

Billing sits at the top of the domain apps: it reads what the others record as owed. The apps
below it still need to ask "is anything owed?": enforcement before a compliance schedule
agreement (H3: none until every amount owed is paid in full), permits before a renewal (B6 on a
licence held under Q2). Core imports no app, so the answer comes from providers registered here:
billing registers one in its ``AppConfig.ready()``; without billing nothing is owed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any


@dataclasses.dataclass(frozen=True)
class OwedAmount:
    """One amount an establishment owes: what it is, how much, under which provision, and whether
    it is delinquent (Q2: the business licence is then held)."""

    label: str
    amount: Decimal
    provision: str
    delinquent: bool = False
    delinquent_since: dt.date | None = None
    due_on: dt.date | None = None  # the last day to pay on time, when known
    explanation: str = ""  # how the dates were counted, in English (the language of record)
    working: Any = None  # the same as an Explanation or a stored record, to be said in the reader's language


OwedProvider = Callable[..., list[OwedAmount]]
_providers: list[OwedProvider] = []


def register_owed_provider(provider: OwedProvider) -> None:
    """Add a provider: ``provider(establishment_id, on, **rules)`` answers the amounts owed on ``on``;
    ``rules`` (``ruleset``, ``calendar``), when the caller has them already, spare their reading."""
    if provider not in _providers:
        _providers.append(provider)


def amounts_owed(establishment_id: int, on: dt.date, **rules) -> list[OwedAmount]:
    """Every amount the establishment owes the Town on ``on`` (H3: a CSA waits until none).
    ``rules``: the ``ruleset`` in force on ``on`` and the Town's ``calendar``, when the caller has
    read them already (passed on to each provider, which then does not read them again)."""
    owed: list[OwedAmount] = []
    for provider in _providers:
        owed.extend(provider(establishment_id, on, **rules))
    return owed


def delinquent_amounts(establishment_id: int, on: dt.date) -> list[OwedAmount]:
    """The amounts delinquent on ``on`` (Q2: no business licence issued or renewed, nor the FOG
    permit that runs with it, B6)."""
    return [item for item in amounts_owed(establishment_id, on) if item.delinquent]


def total(amounts: list[OwedAmount]) -> Decimal:
    return sum((item.amount for item in amounts), Decimal("0.00"))
