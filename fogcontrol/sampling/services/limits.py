"""Discharge limits (D4, D5): the permit conditions a sample's results are judged against, set by
the FOG Manager, each in force from a day."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.permissions import require_role
from fogcontrol.permits.models import Permit
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.sampling.models import DischargeLimit
from fogcontrol.sampling.roles import LIMIT_SETTERS

PROVISION = re.compile(r"^[A-Q]\d{1,2}$")


@transaction.atomic
def limit_set(
    *,
    establishment: FoodServiceEstablishment,
    analyte: str,
    unit: str,
    effective_from: dt.date,
    acting_user,
    max_value: Decimal | None = None,
    min_value: Decimal | None = None,
    condition: str = "",
    provision: str = "D5",
    permit: Permit | None = None,
) -> DischargeLimit:
    """D4, D5: a permit condition limiting ``analyte`` in the FSE's discharge from
    ``effective_from`` (a maximum, and for pH a minimum too). Results of samples taken from that day
    are judged against it; earlier results keep the judgement they had."""
    require_role(
        acting_user, LIMIT_SETTERS, "Only the FOG Manager sets discharge limits (permit conditions)."
    )
    if min_value is None and max_value is None:
        raise ValidationError({"max_value": "Give the maximum (and for pH, the minimum too)."})
    if min_value is not None and max_value is not None and min_value > max_value:
        raise ValidationError({"min_value": "The minimum is above the maximum."})
    provision = (provision or "D5").strip().upper()
    if not PROVISION.match(provision):
        raise ValidationError({"provision": "Give a provision of Chapter 10.02 such as D5 or K4."})
    if permit is not None and permit.establishment_id != establishment.pk:
        raise ValidationError({"permit": "This permit is another establishment's."})
    if DischargeLimit.objects.filter(
        establishment=establishment, analyte=analyte, effective_from=effective_from
    ).exists():
        raise ValidationError(
            {"effective_from": "A limit for this analyte already takes effect that day: choose another day."}
        )
    limit = DischargeLimit(
        establishment=establishment,
        permit=permit,
        analyte=analyte,
        min_value=min_value,
        max_value=max_value,
        unit=unit,
        effective_from=effective_from,
        provision=provision,
        condition=(condition or "").strip(),
        set_by_label=actor_label_for(acting_user),
    )
    limit.full_clean()
    limit.save()
    audit_record(acting_user=acting_user, action="discharge_limit.set", instance=limit, after=snapshot(limit))
    return limit
