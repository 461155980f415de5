"""Keeping and destroying records (F5, Gov. Code §34090): nothing is purged before its retention
period ends, a litigation hold keeps a device's records as long as it lasts, and the Town's copy of
record is destroyed only under an approval the Town recorded (council resolution and city attorney
consent). Each purge leaves a report of what it destroyed; the chain of records still verifies."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import record_purge
from fogcontrol.core.roles import Role
from fogcontrol.rules.servicing_rules import PurgeDecision, purge_allowed
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import (
    LitigationHold,
    Manifest,
    ManifestAttachment,
    PurgeReport,
    PurgeReportItem,
    RetentionApproval,
)
from fogcontrol.servicing.services.state import device_state_refresh


def _require_manager(acting_user) -> None:
    require_role(acting_user, [Role.FOG_MANAGER], "Only the FOG Manager places holds and purges records.")


@transaction.atomic
def hold_place(*, device, acting_user, reason: str) -> LitigationHold:
    """Keep every record of the device until the hold is released (F5)."""
    _require_manager(acting_user)
    if not reason.strip():
        raise ValidationError(
            {"reason": "Name the matter (claim, case or hearing) the records are held for."}
        )
    hold = LitigationHold.objects.create(
        device=device,
        reason=reason.strip(),
        placed_by=person(acting_user),
        placed_by_label=actor_label_for(acting_user),
    )
    audit_record(acting_user=acting_user, action="litigation_hold.place", instance=hold, after=snapshot(hold))
    return hold


@transaction.atomic
def hold_release(*, hold: LitigationHold, acting_user) -> LitigationHold:
    _require_manager(acting_user)
    if hold.released_at:
        raise Conflict("This hold was already released.")
    before = snapshot(hold)
    hold.released_at = timezone.now()
    hold.save(update_fields=["released_at"])
    audit_record(
        acting_user=acting_user,
        action="litigation_hold.release",
        instance=hold,
        before=before,
        after=snapshot(hold),
    )
    return hold


@transaction.atomic
def retention_approval_record(
    *,
    acting_user,
    record_class: str,
    records_from: dt.date,
    records_to: dt.date,
    council_resolution_number: str,
    council_resolution_date: dt.date,
    city_attorney_name: str,
    city_attorney_consent_date: dt.date,
    notes: str = "",
    ctx: ProgramContext | None = None,
) -> RetentionApproval:
    """Gov. Code §34090: record the Town's approval to destroy a class of its records dated within a
    range: the council resolution (number, date) and the city attorney's written consent. Both
    dates have happened; the approval is never edited afterwards (record a new one instead)."""
    _require_manager(acting_user)
    today = (ctx or ProgramContext()).today()
    approval = RetentionApproval(
        record_class=record_class,
        records_from=records_from,
        records_to=records_to,
        council_resolution_number=(council_resolution_number or "").strip(),
        council_resolution_date=council_resolution_date,
        city_attorney_name=(city_attorney_name or "").strip(),
        city_attorney_consent_date=city_attorney_consent_date,
        notes=(notes or "").strip(),
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    problems = {}
    if records_from and records_to and records_to < records_from:
        problems["records_to"] = "The range ends before it starts: give the latest record date covered."
    for field, day, words in (
        ("council_resolution_date", council_resolution_date, "The council resolution"),
        ("city_attorney_consent_date", city_attorney_consent_date, "The city attorney's consent"),
    ):
        if day and day > today:
            problems[field] = (
                f"{words} is dated {day:%Y-%m-%d}, after today: record the approval once it is given (Gov. Code §34090)."
            )
    if problems:
        raise ValidationError(problems)
    approval.full_clean(exclude=["recorded_by"])
    approval.save()
    audit_record(
        acting_user=acting_user,
        action="retention_approval.record",
        instance=approval,
        after=snapshot(approval),
    )
    return approval


def retention_approval_covering(record_class: str, record_date: dt.date) -> RetentionApproval | None:
    """The Town's latest approval (Gov. Code §34090) that covers a record of this class and date."""
    return (
        RetentionApproval.objects.filter(
            record_class=record_class, records_from__lte=record_date, records_to__gte=record_date
        )
        .order_by("-council_resolution_date", "-pk")
        .first()
    )


def manifest_purge_decision(manifest: Manifest, *, ctx: ProgramContext) -> PurgeDecision:
    """F5, a litigation hold, and the Town's approval (Gov. Code §34090): may this manifest go today?"""
    today = ctx.today()
    held = LitigationHold.objects.filter(device_id=manifest.device_id, released_at__isnull=True).exists()
    approval = retention_approval_covering(RetentionApproval.RecordClass.MANIFESTS, manifest.service_date)
    return purge_allowed(
        record_date=manifest.service_date,
        today=today,
        held=held,
        ruleset=ctx.ruleset(today),
        calendar=ctx.calendar(),
        town_approval=str(approval) if approval else None,
    )


@transaction.atomic
def manifest_purge(
    *, manifest: Manifest, acting_user, reason: str, ctx: ProgramContext | None = None
) -> PurgeReport:
    """F5, Gov. Code §34090: destroy a manifest (and its attachments and corrections) after its
    retention period, under the Town's recorded approval.

    Refused (409, naming the provision) while the record is younger than the ruleset's retention
    period, under a litigation hold, or not covered by a `RetentionApproval`. The purge log keeps
    each record's hash, so the chain of records still verifies; the returned `PurgeReport` lists
    what was destroyed.
    """
    _require_manager(acting_user)
    ctx = ctx or ProgramContext()
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": "Say why the records are destroyed (the records schedule, the approval)."}
        )
    if manifest.corrects_id:
        raise Conflict("Purge the original manifest; its corrections are purged with it.")
    family = [manifest]
    index = 0
    while index < len(family):
        family += list(Manifest.objects.filter(corrects=family[index]))
        index += 1
    for member in family:
        decision = manifest_purge_decision(member, ctx=ctx)
        if not decision.allowed:
            raise Conflict(f"Manifest {member.manifest_number} cannot be purged: {decision.reason}")
    approval = retention_approval_covering(RetentionApproval.RecordClass.MANIFESTS, manifest.service_date)
    corrections = len(family) - 1
    report = PurgeReport.objects.create(
        approval=approval,
        device=manifest.device,
        summary=(
            f"Manifest {manifest.manifest_number} of device {manifest.device.identifier}, serviced "
            f"{manifest.service_date:%Y-%m-%d}"
            + (f", and {corrections} correction(s)" if corrections else "")
        )[:300],
        reason=reason.strip(),
        purged_by=person(acting_user),
        purged_by_label=actor_label_for(acting_user),
    )
    items = []
    for member in reversed(family):  # corrections first: they point to the originals
        for attachment in ManifestAttachment.objects.filter(manifest=member):
            purged = record_purge(
                attachment,
                record_date=member.service_date,
                acting_user=acting_user,
                reason=reason,
                retention_approval_id=approval.pk,
            )
            items.append(PurgeReportItem(report=report, purged_record=purged, kind=PurgeReportItem.Kind.ATTACHMENT,
                                         record_date=member.service_date,
                                         description=f"{attachment.original_name} (SHA-256 {attachment.sha256[:12]}…), "
                                         f"attached to manifest {member.manifest_number}"[:300]))  # fmt: skip
        audit_record(
            acting_user=acting_user,
            action="manifest.purge",
            instance=member,
            before=snapshot(member),
            note=reason,
        )
        purged = record_purge(
            member,
            record_date=member.service_date,
            acting_user=acting_user,
            reason=reason,
            retention_approval_id=approval.pk,
        )
        what = "correction of manifest" if member.corrects_id else "manifest"
        items.append(PurgeReportItem(report=report, purged_record=purged, kind=PurgeReportItem.Kind.MANIFEST,
                                     record_date=member.service_date,
                                     description=f"{what.capitalize()} {member.manifest_number}, device "
                                     f"{member.device.identifier}, serviced {member.service_date:%Y-%m-%d}"[:300]))  # fmt: skip
    PurgeReportItem.objects.bulk_create(items)
    audit_record(acting_user=acting_user, action="records.purge", instance=report, after=snapshot(report),
                 note=f"{len(items)} record(s) destroyed under {approval}")  # fmt: skip
    device_state_refresh(device=manifest.device, ctx=ctx)
    return report
