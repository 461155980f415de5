"""Each device's service state and what a reading requires (D4, E1-E4, E6, E8).

The state (last full pump-out, next due, status, fill ratio, recommended frequency) is recomputed
from the device's manifests and readings through the rules engine in the same transaction as the
write that changes them, so it is current the moment a manifest is saved. The nightly sweep
(fogcontrol.servicing.services.sweep) moves the statuses that change only with the date.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import person
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.permissions import require_role
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules import maintenance
from fogcontrol.rules.devices import fill_ratio as rules_fill_ratio
from fogcontrol.rules.frequency import FrequencyRecommendation
from fogcontrol.rules.maintenance import ReadingConsequences
from fogcontrol.rules.servicing_rules import ServiceEvent, history_facts
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ServiceRequirement, SludgeReading
from fogcontrol.servicing.permissions import REVIEWERS

# How much history feeds the state: enough pump-outs for a stable average rate (E4, E5), bounded so a
# device with decades of manifests costs the same to refresh as a new one.
HISTORY_MANIFESTS = 48
HISTORY_READINGS = 24


@dataclasses.dataclass(frozen=True)
class DeviceSnapshot:
    """What the rules engine said about a device, for the state row and the compliance endpoint."""

    status: maintenance.DeviceStatus
    recommendation: FrequencyRecommendation | None
    last_service_on: dt.date | None
    last_manifest_id: int | None
    measurement_on: dt.date | None


def device_events(
    device: GreaseControlDevice, *, up_to: dt.date | None = None
) -> tuple[list[ServiceEvent], int | None]:
    """The device's recent effective manifests and readings as rule events (two queries)."""
    manifests = Manifest.objects.effective().filter(device=device)
    readings = SludgeReading.objects.filter(device=device)
    if up_to is not None:
        manifests = manifests.filter(service_date__lte=up_to)
        readings = readings.filter(taken_on__lte=up_to)
    rows = list(
        manifests.order_by("-serviced_at", "-pk").values_list(
            "pk", "service_date", "full_pumpout", "fog_depth_in", "solids_depth_in"
        )[:HISTORY_MANIFESTS]
    )
    events = [ServiceEvent(on, full, fog, solids, "manifest") for _, on, full, fog, solids in rows]
    events += [
        ServiceEvent(on, False, fog, solids, source)
        for on, fog, solids, source in readings.order_by("-taken_on", "-pk").values_list(
            "taken_on", "fog_depth_in", "solids_depth_in", "source"
        )[:HISTORY_READINGS]
    ]
    return events, (rows[0][0] if rows else None)


def device_snapshot(device: GreaseControlDevice, *, on: dt.date, ctx: ProgramContext) -> DeviceSnapshot:
    """D4 / E1-E4: the device's status on ``on`` and its recommended frequency, from the rules."""
    events, last_manifest_id = device_events(device, up_to=on)
    return snapshot_from_events(device, events, last_manifest_id, on=on, ctx=ctx)


def snapshot_from_events(
    device: GreaseControlDevice,
    events: list[ServiceEvent],
    last_manifest_id: int | None,
    *,
    on: dt.date,
    ctx: ProgramContext,
    worded: bool = True,
) -> DeviceSnapshot:
    """The rules' verdict on a device from its recent events (as ``device_events`` lists them:
    manifests newest first, then readings newest first). No query: a history loaded in bulk
    (``history.ServiceHistoryBatch``) is judged by the same rules from the events it holds.
    Of ``device`` only ``kind``, ``assigned_frequency_days`` and ``total_design_depth_in`` are read
    (the sweep hands in a plain row, ``state_bulk._Device``).

    ``worded=False``: the same verdict without the rules' working (explanations with their
    provisions and no steps, no advice): what the state row stores, for the sweep's first run,
    which judges every device of a program and shows none of it (issue 16)."""
    ruleset = ctx.ruleset(on)
    total = device.total_design_depth_in
    facts = history_facts(events)  # one sort, one pass (issue 16)
    measurement = facts.latest_measurement if total else None
    if measurement is not None:
        try:
            rules_fill_ratio(measurement.fog_depth_in, measurement.solids_depth_in, total)
        except ValueError:  # the design depth was edited below an old reading: the reading no longer fits
            measurement = None
    status = maintenance.device_status(
        on=on,
        kind=device.kind,
        assigned_frequency_days=device.assigned_frequency_days,
        last_full_pumpout=facts.last_full_pumpout,
        latest_measurement=measurement,
        total_depth_in=total or Decimal(1),
        ruleset=ruleset,
        calendar=ctx.calendar(),
        worded=worded,
    )
    recommendation = None
    if total:
        try:
            recommendation = maintenance.recommend_frequency(
                kind=device.kind,
                total_depth_in=total,
                observations=facts.observations,
                ruleset=ruleset,
                worded=worded,
            )
        except ValueError:
            recommendation = None
    return DeviceSnapshot(
        status=status,
        recommendation=recommendation,
        last_service_on=facts.last_service_on,
        last_manifest_id=last_manifest_id,
        measurement_on=measurement.on
        if (measurement is not None and status.fill_ratio is not None)
        else None,
    )


def device_state_refresh(
    *, device: GreaseControlDevice, ctx: ProgramContext | None = None
) -> DeviceServiceState:
    """Recompute the device's state row from its history (called inside the writer's transaction).

    Derived data, not a record: it is not audited; the manifest or reading that changed it is.
    """
    ctx = ctx or ProgramContext()
    today = ctx.today()
    snap = device_snapshot(device, on=today, ctx=ctx)
    open_kinds = _open_kinds(device)
    values = state_values(snap, today=today, open_kinds=open_kinds)
    state, _ = DeviceServiceState.objects.update_or_create(device=device, defaults=values)
    state._snapshot = snap  # handed to the consequences without recomputing
    state._open_kinds = open_kinds
    return state


def state_values(snap: DeviceSnapshot, *, today: dt.date, open_kinds) -> dict:
    """The fields of a device's state row from the rules' snapshot and its open requirements."""
    status = snap.status
    return {
        "status": status.status,
        "status_on": today,
        "last_service_on": snap.last_service_on,
        "last_full_pumpout": status.last_full_pumpout,
        "last_manifest_id": snap.last_manifest_id,
        "next_due": status.next_due,
        "frequency_days": status.frequency_days,
        "frequency_is_default": status.frequency_is_default,
        "fill_ratio": status.fill_ratio.quantize(Decimal("0.0001"))
        if status.fill_ratio is not None
        else None,
        "fill_ratio_on": snap.measurement_on,
        "recommended_frequency_days": snap.recommendation.recommended_frequency_days
        if snap.recommendation
        else None,
        "recommendation_enough_data": bool(snap.recommendation and snap.recommendation.enough_data),
        "immediate_service_required": ServiceRequirement.Kind.IMMEDIATE_SERVICE in open_kinds,
        "interceptor_plans_required": ServiceRequirement.Kind.INTERCEPTOR_PLANS in open_kinds,
    }


# --- consequences (E6, E8) ---------------------------------------------------------------------


def _open_requirement(
    *, device, kind, on: dt.date, consequences: ReadingConsequences, manifest=None, reading=None, acting_user
) -> ServiceRequirement:
    existing = ServiceRequirement.objects.filter(
        device=device, kind=kind, status=ServiceRequirement.Status.OPEN
    ).first()
    if existing is not None:
        return existing
    requirement = ServiceRequirement.objects.create(
        device=device,
        kind=kind,
        provision=ServiceRequirement.PROVISIONS[kind],
        opened_on=on,
        due_on=on if kind == ServiceRequirement.Kind.IMMEDIATE_SERVICE else None,
        opened_by_manifest=manifest,
        opened_by_reading=reading,
        proposed_frequency_days=consequences.proposed_frequency_days,
        proposed_effective_on=consequences.frequency_change_effective_on,
        explanation=consequences.explanation.as_record(),
    )
    audit_record(
        acting_user=acting_user,
        action="service_requirement.open",
        instance=requirement,
        after=snapshot(requirement),
    )
    return requirement


def _close(requirement: ServiceRequirement, *, status, acting_user, note="", manifest=None) -> None:
    before = snapshot(requirement)
    requirement.status = status
    requirement.closed_at = timezone.now()
    requirement.closed_by_manifest = manifest
    requirement.close_note = note
    requirement.save(update_fields=["status", "closed_at", "closed_by_manifest", "close_note"])
    audit_record(
        acting_user=acting_user,
        action="service_requirement.close",
        instance=requirement,
        before=before,
        after=snapshot(requirement),
    )


@dataclasses.dataclass(frozen=True)
class RequirementPlan:
    """What one manifest or reading does to a device's requirements (E6, E8), decided before any
    is written, so a history loaded in bulk follows the same steps (``history.py``)."""

    meets_open_immediate: bool  # a full pump-out meets every open immediate-service requirement
    opens: tuple[str, ...]  # the kinds to open, in order, unless one of the kind is open already
    met_at_once: bool  # the immediate-service requirement this visit opens is met by it
    open_kinds: frozenset[str]  # what is open afterwards


def requirement_plan(consequences: ReadingConsequences, *, open_kinds, pumped: bool) -> RequirementPlan:
    """E6 / E8 / B7 as ``apply_consequences`` carries them out (see its docstring)."""
    Kind = ServiceRequirement.Kind
    after = set(open_kinds)
    meets = pumped and Kind.IMMEDIATE_SERVICE in after
    if meets:
        after.discard(Kind.IMMEDIATE_SERVICE)
    opens = []
    if consequences.immediate_service_required:
        if not pumped:
            after.add(Kind.IMMEDIATE_SERVICE)
        opens.append(Kind.IMMEDIATE_SERVICE)
    if consequences.immediate_service_required or consequences.proposed_frequency_days:
        after.add(Kind.FREQUENCY_REVIEW)
        opens.append(Kind.FREQUENCY_REVIEW)
    if consequences.interceptor_plans_required:
        after.add(Kind.INTERCEPTOR_PLANS)
        opens.append(Kind.INTERCEPTOR_PLANS)
    return RequirementPlan(
        meets_open_immediate=meets,
        opens=tuple(opens),
        met_at_once=pumped and consequences.immediate_service_required,
        open_kinds=frozenset(after),
    )


def met_by_pumpout_note(manifest: Manifest) -> str:
    return f"Met by the full pump-out of manifest {manifest.manifest_number}."


MET_BY_SAME_VISIT = "The same visit removed all FOG, sludge and other material (E6)."


def consequences_for(
    *,
    device: GreaseControlDevice,
    frequency_days: int | None,
    recommendation: FrequencyRecommendation | None,
    e8_exception: str,
    ratio: Decimal | None,
    gallons_removed: Decimal | None,
    on: dt.date,
    ctx: ProgramContext,
) -> ReadingConsequences:
    """``maintenance.reading_consequences`` for one manifest or reading of ``device``."""
    return maintenance.reading_consequences(
        fill_ratio=ratio,
        gallons_removed=gallons_removed,
        capacity_gallons=device.capacity_gallons,
        kind=device.kind,
        current_frequency_days=frequency_days,
        recommendation=recommendation,
        notice_date=ctx.today(),
        ruleset=ctx.ruleset(on),
        calendar=ctx.calendar(),
        space_exception=e8_exception == "space",
        slope_exception=e8_exception == "slope",
    )


def apply_consequences(
    *,
    device: GreaseControlDevice,
    state: DeviceServiceState,
    ratio: Decimal | None,
    gallons_removed: Decimal | None,
    on: dt.date,
    acting_user,
    ctx: ProgramContext,
    manifest: Manifest | None = None,
    reading: SludgeReading | None = None,
    consequences: ReadingConsequences | None = None,
) -> ReadingConsequences:
    """E6 / E8 / B7 for one manifest or reading, through ``maintenance.reading_consequences``
    (or the ``consequences`` already judged: a manifest's come from ``judgement.manifest_judge``).

    - A full pump-out meets every open immediate-service requirement (E6).
    - Over 25% or over capacity: an immediate-service requirement (already met when the same visit
      pumped the device out) and a frequency review task for the FOG Manager, with the proposed
      frequency and its B7 effective date.
    - A shorter frequency recommended by the data: a frequency review task.
    - A trap on the 30-day frequency whose accumulation over two or more intervals projects past the
      limit within 30 days: the E8 interceptor plans requirement (one late pump-out is E6 only).
    """
    if consequences is None:
        snap = getattr(state, "_snapshot", None)
        consequences = consequences_for(
            device=device,
            frequency_days=state.frequency_days,
            recommendation=snap.recommendation if snap else None,
            e8_exception=state.e8_exception,
            ratio=ratio,
            gallons_removed=gallons_removed,
            on=on,
            ctx=ctx,
        )
    Kind = ServiceRequirement.Kind
    before = set(getattr(state, "_open_kinds", None) or _open_kinds(device))
    plan = requirement_plan(
        consequences, open_kinds=before, pumped=manifest is not None and manifest.full_pumpout
    )
    if plan.meets_open_immediate:
        for requirement in ServiceRequirement.objects.filter(
            device=device, kind=Kind.IMMEDIATE_SERVICE, status=ServiceRequirement.Status.OPEN
        ):
            _close(
                requirement,
                status=ServiceRequirement.Status.MET,
                acting_user=acting_user,
                manifest=manifest,
                note=met_by_pumpout_note(manifest),
            )
    for kind in plan.opens:
        requirement = _open_requirement(
            device=device,
            kind=kind,
            on=on,
            consequences=consequences,
            manifest=manifest,
            reading=reading,
            acting_user=acting_user,
        )
        if kind == Kind.IMMEDIATE_SERVICE and plan.met_at_once:
            _close(
                requirement,
                status=ServiceRequirement.Status.MET,
                acting_user=acting_user,
                manifest=manifest,
                note=MET_BY_SAME_VISIT,
            )
    state._open_kinds = set(plan.open_kinds)
    if plan.open_kinds != before:
        state.immediate_service_required = Kind.IMMEDIATE_SERVICE in plan.open_kinds
        state.interceptor_plans_required = Kind.INTERCEPTOR_PLANS in plan.open_kinds
        state.save(update_fields=["immediate_service_required", "interceptor_plans_required"])
    return consequences


def _open_kinds(device) -> set[str]:
    return set(
        ServiceRequirement.objects.filter(device=device, status=ServiceRequirement.Status.OPEN).values_list(
            "kind", flat=True
        )
    )


# --- readings ----------------------------------------------------------------------------------


def reading_checked(
    *,
    device: GreaseControlDevice,
    acting_user,
    taken_on: dt.date,
    fog_depth_in: Decimal,
    solids_depth_in: Decimal,
    source: str,
    ctx: ProgramContext,
) -> Decimal | None:
    """Refuse a reading ``reading_record`` refuses; its fill ratio (None without a design depth)."""
    if source == SludgeReading.Source.INSPECTION:
        require_role(
            acting_user, REVIEWERS, "Only the FOG Manager and inspectors record inspection readings."
        )
    if source not in SludgeReading.Source.values:
        raise ValidationError({"source": f"Choose one of: {', '.join(SludgeReading.Source.values)}."})
    if taken_on > ctx.today():
        raise ValidationError({"taken_on": "The reading date is in the future; enter the day it was taken."})
    ratio = None
    if device.total_design_depth_in:
        try:
            ratio = rules_fill_ratio(fog_depth_in, solids_depth_in, device.total_design_depth_in)
        except ValueError as exc:
            field, _, message = str(exc).partition(": ")
            raise ValidationError({field.split(" ")[0]: message}) from exc
    elif fog_depth_in < 0 or solids_depth_in < 0:
        raise ValidationError({"fog_depth_in": "Depths must not be negative."})
    return ratio


@transaction.atomic
def reading_record(
    *,
    device: GreaseControlDevice,
    acting_user,
    taken_on: dt.date,
    fog_depth_in: Decimal,
    solids_depth_in: Decimal,
    source: str,
    notes: str = "",
    ctx: ProgramContext | None = None,
) -> SludgeReading:
    """Record a sludge-height reading without a pump-out (D4 inspection, F3/F6 self-monitoring).

    Inspection readings are for the FOG Manager and inspectors; self-monitoring for the FSE on
    its own device. Over 25% opens the E6 requirements at once.
    """
    ctx = ctx or ProgramContext()
    ratio = reading_checked(
        device=device,
        acting_user=acting_user,
        taken_on=taken_on,
        fog_depth_in=fog_depth_in,
        solids_depth_in=solids_depth_in,
        source=source,
        ctx=ctx,
    )
    reading = SludgeReading.objects.create(
        device=device,
        taken_on=taken_on,
        fog_depth_in=fog_depth_in,
        solids_depth_in=solids_depth_in,
        fill_ratio=ratio.quantize(Decimal("0.0001")) if ratio is not None else None,
        source=source,
        notes=notes,
        recorded_by=person(acting_user),
    )
    audit_record(acting_user=acting_user, action="reading.record", instance=reading, after=snapshot(reading))
    state = device_state_refresh(device=device, ctx=ctx)
    apply_consequences(
        device=device,
        state=state,
        ratio=ratio,
        gallons_removed=None,
        on=taken_on,
        acting_user=acting_user,
        ctx=ctx,
        reading=reading,
    )
    return reading


# --- requirements ------------------------------------------------------------------------------


@transaction.atomic
def requirement_close(
    *, requirement: ServiceRequirement, acting_user, note: str, e8_exception: str = ""
) -> ServiceRequirement:
    """Staff close a requirement (the frequency was reviewed, plans were received, an E8 exception
    was found). An immediate-service requirement closes itself with the next full pump-out."""
    require_role(acting_user, REVIEWERS, "Only the FOG Manager and inspectors close requirements.")
    if requirement.status != ServiceRequirement.Status.OPEN:
        raise Conflict(f"This requirement is already {requirement.get_status_display().lower()}.")
    if not note.strip():
        raise ValidationError({"note": "Say why the requirement is closed (what was decided or received)."})
    if e8_exception and requirement.kind != ServiceRequirement.Kind.INTERCEPTOR_PLANS:
        raise ValidationError({"e8_exception": "An E8 exception applies only to grease interceptor plans."})
    _close(requirement, status=ServiceRequirement.Status.CLOSED, acting_user=acting_user, note=note.strip())
    if e8_exception:
        state = DeviceServiceState.objects.get(device=requirement.device)
        before = snapshot(state)
        state.e8_exception = e8_exception
        state.save(update_fields=["e8_exception"])
        audit_record(
            acting_user=acting_user,
            action="device_state.e8_exception",
            instance=state,
            before=before,
            after=snapshot(state),
        )
    device_state_refresh(device=requirement.device)
    return requirement
