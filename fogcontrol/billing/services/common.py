"""What every billing service shares: who may act, the debtor's row, posting to the ledger."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError

from fogcontrol.billing.models import Account, Debtor, LedgerEntry
from fogcontrol.billing.roles import BILLERS
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.permissions import require_role
from fogcontrol.rules.billing import CENT


def require_biller(acting_user, what: str) -> None:
    require_role(acting_user, BILLERS, f"Only the Billing Clerk and the FOG Manager may {what}.")


def debtor_for(*, establishment_id: int | None = None, party_id: int | None = None) -> Debtor:
    """The debtor row of an establishment or a party, made on first use."""
    if (establishment_id is None) == (party_id is None):
        raise ValidationError({"debtor": ["Name either an establishment or a party as the debtor."]})
    if establishment_id is not None:
        debtor, _ = Debtor.objects.get_or_create(establishment_id=establishment_id)
    else:
        debtor, _ = Debtor.objects.get_or_create(party_id=party_id)
    return debtor


def money(raw, field: str, *, allow_zero: bool = False) -> Decimal:
    """An amount in dollars and cents from a form or the API: more than zero, at most two decimals."""
    try:
        amount = raw if isinstance(raw, Decimal) else Decimal(str(raw).strip())
    except (InvalidOperation, ValueError):
        raise ValidationError(
            {field: [f"{raw!r} is not an amount of money: write it like 125.50."]}
        ) from None
    if (
        not amount.is_finite()
        or amount != amount.quantize(CENT)
        or amount < 0
        or (amount == 0 and not allow_zero)
    ):
        raise ValidationError(
            {field: ["Enter an amount of more than zero, in dollars and cents (e.g. 125.50)."]}
        )
    return amount


def entry(
    *,
    debtor_id: int,
    posted_on: dt.date,
    kind: str,
    debit: str,
    credit: str,
    amount: Decimal,
    description: str,
    acting_user,
    reason: str = "",
    **links,
) -> LedgerEntry:
    """One unsaved ledger posting (callers bulk_create them, or save one)."""
    return LedgerEntry(
        debtor_id=debtor_id,
        posted_on=posted_on,
        kind=kind,
        debit=debit,
        credit=credit,
        amount=amount,
        description=description[:300],
        reason=reason,
        created_by=person(acting_user),
        created_by_label=actor_label_for(acting_user),
        **links,
    )


def revenue_account(penalty: bool) -> str:
    """P12: penalty monies are kept apart from fees and costs."""
    return Account.PENALTY_REVENUE if penalty else Account.REVENUE
