"""Specialty FOG Compliance Charges (D6): the actual costs of follow-up inspections, sampling, lab
analysis and staff time caused by non-compliance, recorded per case and priced from the Town's fee
schedule in force on the day the cost was incurred (the D6 rate kinds of ``permits.FeeSchedule``).
A charge is a stable record billing will pick up; it is never deleted, only cancelled with a reason.
Sampling records its charges through ``compliance_charge_record`` (``sample_id``)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, audited_bulk_update, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.working import english_label
from fogcontrol.inspections.models import ComplianceCharge, Inspection
from fogcontrol.inspections.roles import CHARGE_CANCELLERS, CHARGE_RECORDERS
from fogcontrol.permits.models import FeeKind
from fogcontrol.permits.services import fee_schedule_on
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.sampling import compliance_charge_amount


def _quantity(raw) -> Decimal:
    try:
        quantity = Decimal(str(raw))
    except (InvalidOperation, ValueError):
        quantity = None
    if (
        quantity is None
        or not quantity.is_finite()
        or quantity <= 0
        or quantity != quantity.quantize(Decimal("0.01"))
    ):
        raise ValidationError(
            {
                "quantity": "Give the hours, samples or tests as a number above zero, to two decimals (e.g. 1.5)."
            }
        )
    if quantity >= Decimal("1000000"):
        raise ValidationError({"quantity": "Give a quantity below 1,000,000."})
    return quantity


@transaction.atomic
def compliance_charge_record(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    quantity,
    incurred_on: dt.date,
    reason: str,
    acting_user,
    inspection: Inspection | None = None,
    sample_id: int | None = None,
) -> ComplianceCharge:
    """D6: record a charge owed by the FSE, at the rate of the fee schedule in force on
    ``incurred_on`` (a later schedule never reprices it)."""
    require_role(
        acting_user, CHARGE_RECORDERS, "Only the FOG Manager and inspectors record compliance charges."
    )
    if kind not in ComplianceCharge.Kind.values:
        raise ValidationError({"kind": f"Choose one of: {', '.join(ComplianceCharge.Kind.values)}."})
    quantity = _quantity(quantity)
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say what non-compliance caused this cost (the case)."})
    if incurred_on is None:
        raise ValidationError({"incurred_on": "Give the day the cost was incurred."})
    if incurred_on > town_today():
        raise ValidationError(
            {"incurred_on": "A cost cannot be charged before it is incurred: give a past day."}
        )
    if inspection is not None and inspection.establishment_id != establishment.pk:
        raise ValidationError({"inspection": "This inspection is of another establishment."})
    schedule = fee_schedule_on(incurred_on)
    line = None
    if schedule is not None:
        line = next((item for item in schedule.lines.all() if item.kind == kind), None)
    if line is None:
        raise ValidationError(
            {
                "kind": (
                    f'No rate is set for "{FeeKind(kind).label}" on {incurred_on:%Y-%m-%d}. The FOG Manager '
                    "must add the D6 rates to the fee schedule in force that day (Permits, Fee schedule)."
                )
            }
        )
    unit = ComplianceCharge.UNITS[kind]
    priced = compliance_charge_amount(
        quantity=quantity,
        rate=line.amount,
        unit=unit,
        what=english_label(ComplianceCharge.Kind(kind).label),
        schedule_label=str(schedule),
        on=incurred_on,
    )
    charge = ComplianceCharge(
        establishment=establishment,
        kind=kind,
        quantity=quantity,
        rate=line.amount,
        amount=priced.amount,
        fee_schedule=schedule,
        pricing=priced.explanation.as_record(),
        reason=reason.strip(),
        inspection=inspection,
        sample_id=sample_id,
        incurred_on=incurred_on,
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    charge.full_clean()
    charge.save()
    audit_record(
        acting_user=acting_user, action="compliance_charge.record", instance=charge, after=snapshot(charge)
    )
    return charge


@transaction.atomic
def compliance_charge_cancel(*, charge: ComplianceCharge, reason: str, acting_user) -> ComplianceCharge:
    """D6: cancel a charge recorded in error, with the reason (audited; the record stays)."""
    require_role(acting_user, CHARGE_CANCELLERS, "Only the FOG Manager cancels a compliance charge.")
    charge = ComplianceCharge.objects.select_for_update().get(pk=charge.pk)
    if charge.status != ComplianceCharge.Status.OWED:
        raise StateConflict("This charge is already cancelled.")
    if not (reason or "").strip():
        raise ValidationError({"reason": "Give the reason for cancelling: it is kept with the charge."})
    before = snapshot(charge)
    charge.status = ComplianceCharge.Status.CANCELLED
    charge.cancel_reason = reason.strip()
    charge.cancelled_at = timezone.now()
    charge.cancelled_by_label = actor_label_for(acting_user)
    charge.save(update_fields=["status", "cancel_reason", "cancelled_at", "cancelled_by_label"])
    audit_record(
        acting_user=acting_user,
        action="compliance_charge.cancel",
        instance=charge,
        before=before,
        after=snapshot(charge),
        note=reason.strip(),
    )
    return charge


# --- Billing picks the charges up (issue #14): invoiced, paid, or owed here again ---------------


def _charges_move(ids, *, frm, to: str, acting_user, action: str, note: str, **fields) -> int:
    """Move the charges ``ids`` in status ``frm`` to ``to`` in one UPDATE, audited in bulk."""
    charges = ComplianceCharge.objects.filter(pk__in=list(ids), status__in=frm)
    return audited_bulk_update(
        charges, acting_user=acting_user, action=action, note=note, status=to, **fields
    )


@transaction.atomic
def compliance_charges_mark_invoiced(*, ids, acting_user) -> int:
    """D6: billing picked these charges up; they are invoiced and paid through billing (Q1)."""
    S = ComplianceCharge.Status
    return _charges_move(ids, frm=(S.OWED,), to=S.INVOICED, acting_user=acting_user,
                         action="compliance_charge.invoice", note="Picked up by billing.")  # fmt: skip


@transaction.atomic
def compliance_charges_mark_paid(*, ids, acting_user, paid_on: dt.date, reference: str) -> int:
    """D6: billing received payment in full of the invoice billing these charges."""
    S = ComplianceCharge.Status
    return _charges_move(
        ids, frm=(S.OWED, S.INVOICED), to=S.PAID, acting_user=acting_user, action="compliance_charge.pay",
        note=f"Paid through billing ({reference}).", paid_on=paid_on, payment_reference=reference[:100],
    )  # fmt: skip


@transaction.atomic
def compliance_charges_mark_owed(*, ids, acting_user, reason: str) -> int:
    """D6: billing no longer bills these charges (invoice cancelled or written off): owed here again,
    for the FOG Manager to cancel with a reason or staff to collect; billing never picks them up twice."""
    S = ComplianceCharge.Status
    return _charges_move(ids, frm=(S.INVOICED,), to=S.OWED, acting_user=acting_user,
                         action="compliance_charge.release", note=f"No longer billed by billing: {reason}"[:500])  # fmt: skip
