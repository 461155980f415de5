"""Where charges come from: one source adapter per producer model (Q1, P8, N1, D6, O2, N2, P12).

The other domains record what is owed (a permit fee, a Specialty FOG Compliance Charge, a penalty
order, clean-up costs, disconnection and reinstatement costs). Billing reads them through an
adapter registered here, so a new producer plugs in without touching billing's core:

    register_source(ChargeSource(
        key="inspections.compliancecharge",
        label="Specialty FOG Compliance Charges (D6)",
        uncharged=lambda: ComplianceCharge.objects.filter(...).select_related(...),
        to_row=lambda record: ChargeRow(establishment_id=..., amount=..., provision="D6", ...),
    ))

``uncharged()`` answers the producer's records that are owed, set-based (one query); billing
leaves out those it already charged (unique on ``(source, source_id)``), so a record is charged
once however often the pick-up runs. ``to_row`` reads only what ``uncharged()`` selected (no
query per row). ``on_charged``, ``on_settled`` and ``on_released`` (optional) tell the producer,
in bulk, that its records were picked up, paid, or no longer billed (the invoice cancelled or
written off: the producer decides what becomes of them).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from decimal import Decimal

from fogcontrol.billing.models import InvoiceKind
from fogcontrol.enforcement.models import PenaltyOrder, ServiceCost
from fogcontrol.enforcement.services.payments import penalty_orders_mark_paid, service_costs_mark_paid
from fogcontrol.inspections.models import ComplianceCharge
from fogcontrol.inspections.services.charges import (
    compliance_charges_mark_invoiced,
    compliance_charges_mark_owed,
    compliance_charges_mark_paid,
)
from fogcontrol.permits.models import FeeCharge, FeeKind
from fogcontrol.permits.services.fees import fees_mark_invoiced, fees_mark_owed, fees_mark_paid
from fogcontrol.rules.explain import fmt_date
from fogcontrol.spills.models import SpillCost

DIRECT = "direct"  # a charge staff enter themselves (a one-off amount)


@dataclasses.dataclass(frozen=True)
class ChargeRow:
    """What billing needs of one producer record. The debtor is the establishment, or a party."""

    source_id: int | None
    amount: Decimal
    description: str
    provision: str
    invoice_kind: str
    assessed_on: dt.date
    establishment_id: int | None = None
    party_id: int | None = None
    penalty: bool = False  # P12: penalty monies go to the penalty account


@dataclasses.dataclass(frozen=True)
class ChargeSource:
    key: str
    label: str
    # A QuerySet of the producer's owed records; the same SQL whatever the day or the user (what's
    # owed compiles it once: billing/owed.py).
    uncharged: Callable[[], object]
    to_row: Callable[[object], ChargeRow]
    on_charged: Callable[..., object] | None = None  # (ids=, acting_user=)
    on_settled: Callable[..., object] | None = None  # (ids=, acting_user=, paid_on=, reference=)
    on_released: Callable[..., object] | None = None  # (ids=, acting_user=, reason=)
    # "Is anything owed?" (core.owed, H3) before the nightly pass: the lookup from the record to
    # its establishment, and the label H3's refusal names it by (``to_row``'s description if none).
    establishment_field: str = "establishment_id"
    owed_label: Callable[[object], str] | None = None


_sources: dict[str, ChargeSource] = {}


def register_source(source: ChargeSource) -> None:
    _sources[source.key] = source


def sources() -> list[ChargeSource]:
    return list(_sources.values())


def source(key: str) -> ChargeSource | None:
    return _sources.get(key)


def _by_source(lines: Iterable[tuple[str, int | None]]) -> dict[str, list[int]]:
    by_source: dict[str, list[int]] = {}
    for key, source_id in lines:
        if source_id is not None:
            by_source.setdefault(key, []).append(source_id)
    return by_source


def settle_sources(lines: Iterable[tuple[str, int | None]], *, acting_user, paid_on, reference) -> None:
    """Tell each producer that the records billed on paid invoices are paid."""
    for key, ids in _by_source(lines).items():
        adapter = _sources.get(key)
        if adapter is not None and adapter.on_settled is not None:
            adapter.on_settled(ids=ids, acting_user=acting_user, paid_on=paid_on, reference=reference)


def release_sources(lines: Iterable[tuple[str, int | None]], *, acting_user, reason: str) -> None:
    """Tell each producer that its records are no longer billed (invoice cancelled or written off)."""
    for key, ids in _by_source(lines).items():
        adapter = _sources.get(key)
        if adapter is not None and adapter.on_released is not None:
            adapter.on_released(ids=ids, acting_user=acting_user, reason=reason)


# --- permits: the fees owed on applications and remodel notices (B3, B6, B8, G2) -------------

FEE_PROVISIONS = {
    FeeKind.NEW_PERMIT: "B3",
    FeeKind.RENEWAL: "B6",
    FeeKind.REISSUE: "B8",
    FeeKind.PLAN_REVIEW: "G2",
    FeeKind.FOLLOW_UP_INSPECTION: "D6",
    FeeKind.SAMPLING: "D6",
    FeeKind.LAB_ANALYSIS: "D6",
    FeeKind.STAFF_TIME: "D6",
    FeeKind.RE_INSPECTION: "D8",
    FeeKind.DISCONNECTION: "O2",
    FeeKind.REINSTATEMENT: "O2",
}


def _fee_row(fee: FeeCharge) -> ChargeRow:
    return ChargeRow(
        source_id=fee.pk,
        amount=fee.amount,
        description=fee.description or fee.get_kind_display(),
        provision=FEE_PROVISIONS.get(fee.kind, "Q1"),
        invoice_kind=InvoiceKind.Q1,
        assessed_on=fee.assessed_on,
        establishment_id=fee.establishment_id,
    )


register_source(
    ChargeSource(
        key="permits.feecharge",
        label="Permit fees (B3, B6, B8, G2)",
        uncharged=lambda: FeeCharge.objects.filter(status=FeeCharge.Status.OWED, amount__gt=0).order_by("pk"),
        to_row=_fee_row,
        on_charged=fees_mark_invoiced,
        on_settled=fees_mark_paid,
        on_released=fees_mark_owed,
        owed_label=lambda fee: fee.description or fee.get_kind_display(),
    )
)


# --- inspections: Specialty FOG Compliance Charges (D6), billed as fees and charges (Q1) ---------


def _compliance_label(charge: ComplianceCharge) -> str:
    return (
        f"Specialty FOG Compliance Charge (D6): {charge.get_kind_display().lower()}, "
        f"{charge.quantity.normalize():f} {charge.unit}, {fmt_date(charge.incurred_on)}"
    )


register_source(
    ChargeSource(
        key="inspections.compliancecharge",
        label="Specialty FOG Compliance Charges (D6)",
        # Cancelled charges (recorded in error, D6) are never billed.
        uncharged=lambda: ComplianceCharge.objects.filter(
            status=ComplianceCharge.Status.OWED, amount__gt=0
        ).order_by("pk"),
        to_row=lambda charge: ChargeRow(
            source_id=charge.pk,
            amount=charge.amount,
            description=_compliance_label(charge),
            provision="D6",
            invoice_kind=InvoiceKind.Q1,
            assessed_on=charge.incurred_on,
            establishment_id=charge.establishment_id,
        ),
        on_charged=compliance_charges_mark_invoiced,
        on_settled=compliance_charges_mark_paid,
        on_released=compliance_charges_mark_owed,
        owed_label=_compliance_label,
    )
)


# --- enforcement: administrative civil penalty orders (P7, P8, P9, P12) -----------------------
# Billed once final (P8: final on issuance unless appealed; or upheld by the Town Council), on a
# penalty invoice of its own paid into the penalty account (P12), due 30 days from the day it became
# final (P8); delinquent 60 days, a lien (P9). Appealed or overturned orders are not billed.
# Administrative citations (P2) are not billed here: they are issued and paid under Chapter 1.01,
# outside this program (enforcement records their payment; H3 asks it through core.owed).


def _final_on(order: PenaltyOrder) -> dt.date:
    upheld = (order.explanation or {}).get(f"appeal_{PenaltyOrder.Status.UPHELD}")
    return dt.date.fromisoformat(upheld) if upheld else order.issued_on


def _penalty_label(order: PenaltyOrder) -> str:
    return f"Penalty order {order.reference}, issued {fmt_date(order.issued_on)}"


register_source(
    ChargeSource(
        key="enforcement.penaltyorder",
        label="Administrative civil penalty orders (P7, P8, P12)",
        uncharged=lambda: (
            PenaltyOrder.objects.filter(
                status__in=(PenaltyOrder.Status.FINAL, PenaltyOrder.Status.UPHELD),
                paid_on__isnull=True,
                amount__gt=0,
            )
            .select_related("case")
            .order_by("pk")
        ),
        to_row=lambda order: ChargeRow(
            source_id=order.pk,
            amount=order.amount,
            description=f"{_penalty_label(order)}: {order.get_violation_kind_display()}",
            provision="P8",
            invoice_kind=InvoiceKind.P8,
            assessed_on=_final_on(order),
            establishment_id=order.case.establishment_id,
            penalty=True,
        ),
        on_settled=penalty_orders_mark_paid,
        establishment_field="case__establishment_id",
        owed_label=_penalty_label,
    )
)


# --- enforcement: costs of disconnecting and reinstating sewer service (O2) --------------------


def _service_cost_label(cost: ServiceCost) -> str:
    return f"{cost.get_kind_display()} of sewer service, {fmt_date(cost.incurred_on)}"


register_source(
    ChargeSource(
        key="enforcement.servicecost",
        label="Disconnection and reinstatement costs (O2)",
        uncharged=lambda: (
            ServiceCost.objects.filter(paid_on__isnull=True, amount__gt=0)
            .select_related("termination__case")
            .order_by("pk")
        ),
        to_row=lambda cost: ChargeRow(
            source_id=cost.pk,
            amount=cost.amount,
            description=f"{_service_cost_label(cost)} (owed by {cost.owed_by})",
            provision="O2",
            invoice_kind=InvoiceKind.Q1,
            assessed_on=cost.incurred_on,
            establishment_id=cost.termination.case.establishment_id,
        ),
        on_settled=service_costs_mark_paid,
        establishment_field="termination__case__establishment_id",
        owed_label=_service_cost_label,
    )
)


# --- spills: the Town's costs of a spill (N1) and other agencies' fines passed on (N2) ----------
# Owed by the FSE, the property owner of record or the FSE's responsible individual (I2): billed to
# the FSE's account, or to the owner's (the parcel's owner of record) or the operator's party. Clean-up
# costs on an N1 invoice (due 45 days from it); a fine passed on under Q1 (N2 gives no period of its
# own). Only costs naming the FSE that caused the spill are picked up (billing's debtor is an
# establishment or a party); a cancelled cost is never billed.


def _spill_cost_party(cost: SpillCost) -> int | None:
    establishment = cost.establishment
    if cost.debtor == "property_owner":
        return establishment.parcel.owner_id if establishment.parcel_id else None
    if cost.debtor == "responsible_individual":
        return establishment.operator_id
    return None


def _spill_cost_label(cost: SpillCost) -> str:
    return f"{cost.get_kind_display()}, spill of {fmt_date(cost.spill.started_at.date())}"


register_source(
    ChargeSource(
        key="spills.spillcost",
        label="Spill clean-up costs and fines passed on (N1, N2)",
        uncharged=lambda: (
            SpillCost.objects.filter(status=SpillCost.Status.OWED, amount__gt=0, establishment__isnull=False)
            .select_related("spill", "establishment__parcel")
            .order_by("pk")
        ),
        to_row=lambda cost: ChargeRow(
            source_id=cost.pk,
            amount=cost.amount,
            description=f"{_spill_cost_label(cost)} (owed by {cost.debtor_name or cost.get_debtor_display()})",
            provision=cost.provision,
            invoice_kind=InvoiceKind.N1 if cost.provision == "N1" else InvoiceKind.Q1,
            assessed_on=cost.invoiced_on,
            establishment_id=cost.establishment_id,
            party_id=_spill_cost_party(cost),
        ),
        owed_label=_spill_cost_label,
    )
)
