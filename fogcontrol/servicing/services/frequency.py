"""Changing a device's service frequency (E1, E5, E6, B7, A2).

The frequency belongs to the device (E1, A2): `frequency_change` is the one way to propose a change,
from the device's page, the permit's page (which embeds the same form) or the API. One change is
pending per device: the device row is locked while a change is proposed, a newer proposal withdraws
the older one, and a database constraint refuses a second pending change.

The FOG Manager assigns one of the allowed frequencies (E1). The responsible party (A2: the property
owner or designee for a shared device; the FSE otherwise) and every permittee whose permit states the
device's frequency are told at least the B7 notice period before the change takes effect, by the
contact on record; the permits are revised with it. The change is applied to the device and its
permits on its effective date (the nightly sweep). An owner may ask in writing for a change (E5); the
FOG Manager decides with the rules engine's assessment in view.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.working import english_label
from fogcontrol.permits.services.permit_modifications import (
    audit_backdated_notice,
    b7_notice_date,
    permit_frequency_modifications_apply,
    permit_frequency_modifications_record,
    permit_frequency_modifications_withdraw,
)
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.registry.services import device_update
from fogcontrol.rules import maintenance
from fogcontrol.rules.deadlines import frequency_change_effective
from fogcontrol.rules.explain import Explanation, explain, say
from fogcontrol.rules.servicing_rules import observations_from_history
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import (
    DeviceServiceState,
    FrequencyChange,
    FrequencyChangeRequest,
    ServiceRequirement,
)
from fogcontrol.servicing.permissions import FREQUENCY_REQUESTERS, FREQUENCY_SETTERS
from fogcontrol.servicing.services.frequency_notices import (
    frequency_notice_recipients,
    frequency_notices_send,
    frequency_withdrawal_notices_send,
)
from fogcontrol.servicing.services.state import device_events, device_state_refresh


def pending_change(device) -> FrequencyChange | None:
    """The device's change that is proposed and not yet in effect (at most one, B7)."""
    return FrequencyChange.objects.filter(
        device=device, applied_at__isnull=True, withdrawn_at__isnull=True
    ).first()


def _withdraw(change: FrequencyChange, *, acting_user, reason: str, replaced_by=None) -> FrequencyChange:
    before = snapshot(change)
    change.withdrawn_at = timezone.now()
    change.withdrawn_reason = reason
    change.replaced_by = replaced_by
    change.save(update_fields=["withdrawn_at", "withdrawn_reason", "replaced_by"])
    audit_record(acting_user=acting_user, action="frequency.withdraw", instance=change, before=before,
                 after=snapshot(change), note=reason)  # fmt: skip
    permit_frequency_modifications_withdraw(device=change.device, acting_user=acting_user, reason=reason)
    return change


@transaction.atomic
def frequency_change(
    *,
    device: GreaseControlDevice,
    acting_user,
    to_days: int,
    reason: str,
    notice_date: dt.date | None = None,
    effective_on: dt.date | None = None,
    backdating_reason: str = "",
    mailing_record: str = "",
    request: FrequencyChangeRequest | None = None,
    ctx: ProgramContext | None = None,
) -> FrequencyChange:
    """E1 / B7: the FOG Manager proposes a new frequency for a device, effective no sooner than the B7
    notice period after ``notice_date``: today by default; an earlier date needs the FOG Manager, a
    reason and the mailing record, and is audited. Tells the responsible party (A2) and the
    permittees, revises the permits stating the device's frequency, withdraws any earlier pending
    change, and closes the device's open frequency review."""
    require_role(
        acting_user, FREQUENCY_SETTERS, "Only the FOG Manager changes a device's service frequency (E1)."
    )
    ctx = ctx or ProgramContext()
    today = ctx.today()
    # The lock makes two proposals for one device (two pages, two clicks) take turns: the second
    # sees the first pending and replaces it. The constraint on FrequencyChange is the backstop.
    device = GreaseControlDevice.objects.select_for_update().get(pk=device.pk)
    notice_date, backdating_reason, mailing_record = b7_notice_date(
        notice_date=notice_date,
        today=today,
        acting_user=acting_user,
        backdating_reason=backdating_reason,
        mailing_record=mailing_record,
    )
    ruleset = ctx.ruleset(notice_date)
    allowed = sorted(ruleset.allowed_frequencies_days)
    if to_days not in allowed:
        raise ValidationError(
            {
                "to_days": f"{to_days} days is not an allowed frequency; choose one of {', '.join(map(str, allowed))} days (E1)."
            }
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the frequency changes; the permittee is told (B7)."})
    current = device.assigned_frequency_days or maintenance.default_frequency(device.kind, ruleset)
    if to_days == current:
        raise ValidationError({"to_days": f"The device is already serviced every {current} days."})
    notice = frequency_change_effective(notice_date, ruleset=ruleset, calendar=ctx.calendar())
    # Counting days: a minimum never moves earlier; the earliest usable date is the first business
    # day on or after the floor (B7).
    earliest = notice.earliest_business_day or notice.earliest
    if effective_on is None:
        effective_on = earliest
    elif effective_on < earliest:
        raise ValidationError(
            {
                "effective_on": f"B7 requires at least {ruleset.frequency_change_notice_days} days' notice: "
                f"the change may take effect on {earliest:%Y-%m-%d} at the earliest."
            }
        )
    recipients = frequency_notice_recipients(device)
    replaced = pending_change(device)
    if replaced is not None:
        _withdraw(replaced, acting_user=acting_user,
                  reason=f"Replaced by a new proposal: every {to_days} days from {effective_on:%Y-%m-%d} (B7).")  # fmt: skip
    change = FrequencyChange.objects.create(
        device=device,
        from_days=device.assigned_frequency_days,
        to_days=to_days,
        source=FrequencyChange.Source.REQUEST if request else FrequencyChange.Source.STAFF,
        request=request,
        reason=reason.strip(),
        notice_date=notice_date,
        effective_on=effective_on,
        explanation=notice.explanation.as_record(),
        decided_by=person(acting_user),
        backdating_reason=backdating_reason,
        mailing_record=mailing_record,
    )
    if replaced is not None:
        replaced.replaced_by = change
        replaced.save(update_fields=["replaced_by"])
    modifications = permit_frequency_modifications_record(
        device=device,
        acting_user=acting_user,
        to_days=to_days,
        reason=change.reason,
        notice_date=notice_date,
        earliest_effective_on=earliest,
        effective_on=effective_on,
        explanation=change.explanation,
        backdating_reason=backdating_reason,
        mailing_record=mailing_record,
    )
    change.permit_modifications.set(modifications)
    if modifications:
        change.permit_modification_ref = str(modifications[0].pk)
        change.save(update_fields=["permit_modification_ref"])
    notices = frequency_notices_send(
        change=change,
        recipients=recipients,
        acting_user=acting_user,
        notice_days=ruleset.frequency_change_notice_days,
        modifications=modifications,
        replaced=replaced,
    )
    change.notices.set(notices)
    audit_record(acting_user=acting_user, action="frequency.change", instance=change, after=snapshot(change))
    if backdating_reason:
        audit_backdated_notice(acting_user=acting_user, instance=change, notice_date=notice_date,
                               reason=backdating_reason, mailing_record=mailing_record)  # fmt: skip
    for review in ServiceRequirement.objects.filter(
        device=device, kind=ServiceRequirement.Kind.FREQUENCY_REVIEW, status=ServiceRequirement.Status.OPEN
    ):
        before = snapshot(review)
        review.status = ServiceRequirement.Status.CLOSED
        review.closed_at = timezone.now()
        review.close_note = f"Frequency changed to every {to_days} days from {effective_on:%Y-%m-%d}."
        review.save(update_fields=["status", "closed_at", "close_note"])
        audit_record(
            acting_user=acting_user,
            action="service_requirement.close",
            instance=review,
            before=before,
            after=snapshot(review),
        )
    if effective_on <= today:
        _apply(change, acting_user=acting_user, ctx=ctx)
    return change


@transaction.atomic
def frequency_change_withdraw(
    *, change: FrequencyChange, acting_user, reason: str, ctx: ProgramContext | None = None
) -> FrequencyChange:
    """B7: the FOG Manager withdraws a pending change before it takes effect; everyone who was told
    of it is told in writing, and the permits' pending modifications are withdrawn with it."""
    require_role(
        acting_user, FREQUENCY_SETTERS, "Only the FOG Manager withdraws a change of service frequency (E1)."
    )
    change = FrequencyChange.objects.select_for_update().select_related("device").get(pk=change.pk)
    if change.status != "pending":
        raise Conflict(f"This change is already {change.status}: only a pending change can be withdrawn.")
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": "Say why the change is withdrawn; everyone who was told is told why."}
        )
    _withdraw(change, acting_user=acting_user, reason=reason.strip())
    ctx = ctx or ProgramContext()
    notices = frequency_withdrawal_notices_send(change=change, acting_user=acting_user, reason=reason.strip(),
                                                today=ctx.today())  # fmt: skip
    change.notices.add(*notices)
    return change


def _apply(change: FrequencyChange, *, acting_user, ctx: ProgramContext) -> None:
    """Set the device's frequency on the effective date, and reissue every permit that states it."""
    device = GreaseControlDevice.objects.select_for_update().get(pk=change.device_id)
    if device.assigned_frequency_days != change.to_days:
        device_update(device=device, acting_user=acting_user, assigned_frequency_days=change.to_days)
    permit_frequency_modifications_apply(
        device=device,
        acting_user=acting_user,
        to_days=change.to_days,
        notice_date=change.notice_date,
        effective_on=change.effective_on,
        reason=change.reason,
        explanation=change.explanation,
    )
    change.applied_at = timezone.now()
    change.save(update_fields=["applied_at"])
    device_state_refresh(device=device, ctx=ctx)


def frequency_changes_apply_due(*, today: dt.date, acting_user, ctx: ProgramContext) -> int:
    """Apply every pending change whose effective date has come (run nightly). Each change in its
    own transaction, so one failure leaves the others applied."""
    applied = 0
    due = FrequencyChange.objects.filter(
        applied_at__isnull=True, withdrawn_at__isnull=True, effective_on__lte=today
    ).select_related("device")
    for change in due.order_by("effective_on", "pk"):
        with transaction.atomic():
            _apply(change, acting_user=acting_user, ctx=ctx)
        applied += 1
    return applied


# --- E5 requests -------------------------------------------------------------------------------


def _compliance_findings(device: GreaseControlDevice, state: DeviceServiceState | None) -> list[str]:
    """E5 "full compliance", as servicing can see it: what the FSE has not done. An open frequency
    review is the FOG Manager's task, not the FSE's failing, so it does not count."""
    if state is None:
        return [say("no service record for the device yet (E1)")]
    findings = []
    if state.status == "overdue":
        findings.append(
            say("the device is overdue for service (due %(due)s, E1)", due=f"{state.next_due:%Y-%m-%d}")
        )
    elif state.status == "over_limit":
        findings.append(say("the device was last found over the 25%% limit (E3, E6)"))
    elif state.status == "never_serviced":
        findings.append(say("no full pump-out is on record (E1)"))
    open_duties = ServiceRequirement.objects.filter(
        device=device, status=ServiceRequirement.Status.OPEN
    ).exclude(kind=ServiceRequirement.Kind.FREQUENCY_REVIEW)
    findings.extend(
        say("open requirement: %(kind)s", kind=english_label(ServiceRequirement.Kind(duty.kind).label))
        for duty in open_duties
    )
    return findings


def frequency_assessment(*, device: GreaseControlDevice, requested_days: int, ctx: ProgramContext):
    """E5: the rules engine's view of a request, from the device's own accumulation data, on the
    chapter's grounds only (E1, E3, full compliance); advice apart."""
    today = ctx.today()
    ruleset = ctx.ruleset(today)
    events, _ = device_events(device, up_to=today)
    state = DeviceServiceState.objects.filter(device=device).first()
    findings = _compliance_findings(device, state)
    return maintenance.assess_frequency_request(
        requested_days=requested_days,
        kind=device.kind,
        total_depth_in=device.total_design_depth_in or 1,
        observations=observations_from_history(events) if device.total_design_depth_in else (),
        compliance_ok=not findings,
        compliance_findings=findings,
        current_days=device.assigned_frequency_days or maintenance.default_frequency(device.kind, ruleset),
        ruleset=ruleset,
    )


def _assessment_dict(decision) -> dict:
    """The assessment as stored with the request: the finding (``granted``, ``reasons``,
    ``explanation``) and, apart from it, ``advice`` that is never a ground for the decision."""
    projected = decision.projected_fill_ratio
    return {
        "granted": decision.granted,
        "reasons": list(decision.reasons),
        "projected_fill_ratio": str(projected.quantize(Decimal("0.0001"))) if projected is not None else None,
        "recommended_frequency_days": decision.recommendation.recommended_frequency_days,
        "explanation": decision.explanation.as_record(),
        "advice": list(decision.advice),
        # Each advice line's template and values, so a stored assessment reads in Spanish too (issue 18).
        "advice_said": explain((), decision.advice).as_record()["said"],
    }


def stored_advice(assessment: dict) -> tuple:
    """The advice a stored assessment holds, each line said again in the reader's language when it
    was stored with its template (``advice_said``; English as stored otherwise)."""
    record = {"steps": list(assessment.get("advice") or []), "said": assessment.get("advice_said") or []}
    explanation = Explanation.from_record(record)
    return explanation.steps if explanation else ()


@transaction.atomic
def frequency_request_file(
    *,
    device: GreaseControlDevice,
    acting_user,
    requested_days: int,
    justification: str,
    ctx: ProgramContext | None = None,
) -> FrequencyChangeRequest:
    """E5: the owner asks in writing for a different frequency. The device must be theirs (the
    caller fetched it through the user's scope)."""
    require_role(
        acting_user,
        FREQUENCY_REQUESTERS,
        "Only the FSE or the property owner may ask for a frequency change (E5).",
    )
    ctx = ctx or ProgramContext()
    ruleset = ctx.ruleset()
    allowed = sorted(ruleset.allowed_frequencies_days)
    if requested_days not in allowed:
        raise ValidationError(
            {
                "requested_days": _("Choose one of the allowed frequencies: %(allowed)s days (E1).")
                % {"allowed": ", ".join(map(str, allowed))}
            }
        )
    if not (justification or "").strip():
        raise ValidationError(
            {
                "justification": _(
                    # Translators: "25%" is a percentage, not a placeholder.
                    # xgettext:no-python-format
                    "Explain the request: E5 asks you to show, from your accumulation data, that it meets the 25% rule."
                )
            }
        )
    if FrequencyChangeRequest.objects.filter(
        device=device, status=FrequencyChangeRequest.Status.PENDING
    ).exists():
        raise Conflict(
            _("A request for this device is already pending; wait for the decision or withdraw it.")
        )
    current = device.assigned_frequency_days or maintenance.default_frequency(device.kind, ruleset)
    decision = frequency_assessment(device=device, requested_days=requested_days, ctx=ctx)
    request = FrequencyChangeRequest.objects.create(
        device=device,
        requested_days=requested_days,
        current_days=current,
        justification=justification.strip(),
        submitted_by=person(acting_user),
        submitted_by_label=actor_label_for(acting_user),
        assessment=_assessment_dict(decision),
    )
    audit_record(
        acting_user=acting_user, action="frequency_request.file", instance=request, after=snapshot(request)
    )
    return request


@transaction.atomic
def frequency_request_decide(
    *,
    request: FrequencyChangeRequest,
    acting_user,
    grant: bool,
    note: str = "",
    notice_date: dt.date | None = None,
    backdating_reason: str = "",
    mailing_record: str = "",
    ctx: ProgramContext | None = None,
) -> FrequencyChangeRequest:
    """E5: the FOG Manager grants or refuses, with the engine's assessment recorded beside the
    decision. Deciding against the assessment needs a note; a grant records the frequency change
    (B7 notice, permit revised and reissued)."""
    require_role(acting_user, FREQUENCY_SETTERS, "Only the FOG Manager decides frequency requests (E5).")
    request = FrequencyChangeRequest.objects.select_for_update().get(pk=request.pk)
    if request.status != FrequencyChangeRequest.Status.PENDING:
        raise Conflict(f"This request was already {request.get_status_display().lower()}.")
    ctx = ctx or ProgramContext()
    decision = frequency_assessment(device=request.device, requested_days=request.requested_days, ctx=ctx)
    if grant != decision.granted and not note.strip():
        raise ValidationError(
            {"note": "Your decision differs from the rules engine's assessment: say why, for the record."}
        )
    before = snapshot(request)
    request.status = FrequencyChangeRequest.Status.GRANTED if grant else FrequencyChangeRequest.Status.REFUSED
    request.decision_assessment = _assessment_dict(decision)
    request.decided_by = person(acting_user)
    request.decided_at = timezone.now()
    request.decision_note = note.strip()
    request.save()
    audit_record(
        acting_user=acting_user,
        action="frequency_request.decide",
        instance=request,
        before=before,
        after=snapshot(request),
    )
    if grant:
        frequency_change(
            device=request.device,
            acting_user=acting_user,
            to_days=request.requested_days,
            reason=f"Owner's request granted (E5). {note.strip()}".strip(),
            notice_date=notice_date,
            backdating_reason=backdating_reason,
            mailing_record=mailing_record,
            request=request,
            ctx=ctx,
        )
    return request
