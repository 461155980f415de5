"""The Town's costs of a spill (N1) and other agencies' fines passed on (N2), owed by the property
owner, the FSE or its responsible individuals (I2). A stable record billing picks up: made "owed",
never deleted, a mistake cancelled with its reason, each write audited."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.spills.models import Spill, SpillCost
from fogcontrol.spills.roles import SPILL_RECORDERS


def cost_deadline(kind: str, invoiced_on: dt.date):
    """When a cost is owed, with its working (N1; N2 through Q1)."""
    return rules.cost_due(kind, invoiced_on, ruleset=ruleset_on(invoiced_on), calendar=town_calendar())


@transaction.atomic
def cost_record(
    *,
    spill: Spill,
    kind: str,
    amount: Decimal,
    debtor: str,
    debtor_name: str,
    invoiced_on: dt.date,
    acting_user,
    establishment: FoodServiceEstablishment | None = None,
    description: str = "",
) -> SpillCost:
    """Record a cost of the spill and who owes it (I2); its due date comes from the rules (N1, or
    Q1 for another agency's fine passed on, N2)."""
    require_role(acting_user, SPILL_RECORDERS, "Only the FOG Manager and inspectors record the Town's costs.")
    if kind not in rules.COST_KINDS:
        raise ValidationError({"kind": f"Choose one of: {', '.join(rules.COST_KINDS)}."})
    if debtor not in rules.DEBTORS:
        raise ValidationError({"debtor": f"Choose one of: {', '.join(rules.DEBTORS)}."})
    if amount is None or Decimal(amount) <= 0:
        raise ValidationError({"amount": "Give an amount above $0."})
    if debtor == "fse" and establishment is None:
        raise ValidationError({"establishment": "Name the FSE that owes this cost."})
    if establishment is not None and not spill.links.filter(establishment=establishment).exists():
        raise ValidationError({"establishment": "Link the FSE to the spill first (I2: it caused it)."})
    deadline = cost_deadline(kind, invoiced_on)
    cost = SpillCost(
        spill=spill,
        kind=kind,
        amount=amount,
        description=(description or "").strip(),
        debtor=debtor,
        debtor_name=(debtor_name or "").strip(),
        establishment=establishment,
        invoiced_on=invoiced_on,
        due_on=deadline.due,
        provision=rules.cost_kind_provision(kind),
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    cost.full_clean()
    cost.save()
    audit_record(acting_user=acting_user, action="spill_cost.record", instance=cost, after=snapshot(cost))
    return cost


@transaction.atomic
def cost_cancel(*, cost: SpillCost, reason: str, acting_user) -> SpillCost:
    """Cancel a cost recorded in error: it stays on record, marked cancelled, with the reason."""
    require_role(acting_user, SPILL_RECORDERS, "Only the FOG Manager and inspectors cancel costs.")
    cost = SpillCost.objects.select_for_update(of=("self",)).get(pk=cost.pk)
    if cost.status != SpillCost.Status.OWED:
        raise StateConflict("This cost is already cancelled.")
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the cost is cancelled."})
    before = snapshot(cost)
    cost.status = SpillCost.Status.CANCELLED
    cost.save(update_fields=["status"])
    audit_record(
        acting_user=acting_user,
        action="spill_cost.cancel",
        instance=cost,
        before=before,
        after=snapshot(cost),
        note=reason.strip(),
    )
    return cost
