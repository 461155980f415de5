"""The nightly enforcement sweep (P3): open a violation for each source that has none, cure the open
ones whose source is cured. Set-based and idempotent: run twice, the second run changes nothing.

Sources: open findings (inspections, late records, spills), overdue device service (E1), active FSEs
with no permit in force (B1, B6), and manifest flags referred for enforcement (a backstop: the review
opens its violation at once through ``hooks.py``). Per source one SELECT of the candidates and one of
the keys already open, then one INSERT of the violations and one INSERT … SELECT of their audit
entries (built by the database). Cures: per
source one SELECT, one UPDATE per cure day and one INSERT of audit entries.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.db import transaction
from django.db.models import Exists, F, Max, OuterRef, Prefetch, Q

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.audit.set_sql import audit_insert_select
from fogcontrol.core.set_sql import insert_rows
from fogcontrol.enforcement.models import AgreementMilestone, ComplianceAgreement, Violation
from fogcontrol.enforcement.services import sources
from fogcontrol.findings.models import Finding
from fogcontrol.permits.models import Permit, PermitStatus, PermitVersion
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.servicing.models import DeviceServiceState, ManifestFlag

SWEEP_ACTOR = "enforcement.nightly"


def _new_only(candidates: list[Violation]) -> list[Violation]:
    keys = [v.source_key for v in candidates]
    taken = set(Violation.objects.filter(source_key__in=keys).values_list("source_key", flat=True))
    seen: set[str] = set()
    fresh = []
    for violation in candidates:
        if violation.source_key in taken or violation.source_key in seen:
            continue
        seen.add(violation.source_key)
        fresh.append(violation)
    return fresh


def violations_open_bulk(*, violations: list[Violation], acting_user, note: str) -> list[Violation]:
    """Open many violations at once, skipping any source that already has its violation: one
    INSERT of the violations (``core.set_sql``) and one INSERT … SELECT of their audit entries, each
    violation's after built by the database (``audit.set_sql``), whatever their number."""
    fresh = _new_only(violations)
    for violation in fresh:
        violation.opened_by_label = (
            acting_user if isinstance(acting_user, str) else acting_user.get_username()
        )
    created = insert_rows(fresh)
    audit_insert_select(
        acting_user=acting_user,
        action="violation.open",
        model=Violation,
        ids=[v.pk for v in created],
        after=None,
        object_repr=("t.provision || ': ' || t.description", []),
        note=note,
        created=True,
    )
    return created


def _cure_bulk(cures: list[tuple[Violation, dt.date, str]], *, acting_user, note: str) -> int:
    """Record each (violation, cured_on, evidence): one UPDATE per cure day and evidence."""
    changes = []
    by_value: dict[tuple[dt.date, str], list[int]] = defaultdict(list)
    for violation, cured_on, evidence in cures:
        before = snapshot(violation)
        violation.cured_on, violation.cure_evidence, violation.cured_automatically = cured_on, evidence, True
        violation.cured_by_label = acting_user if isinstance(acting_user, str) else acting_user.get_username()
        by_value[(cured_on, evidence)].append(violation.pk)
        changes.append((violation, before, snapshot(violation)))
    for (cured_on, evidence), ids in by_value.items():
        Violation.objects.filter(pk__in=ids, cured_on__isnull=True).update(
            cured_on=cured_on,
            cure_evidence=evidence,
            cured_automatically=True,
            cured_by_label=changes[0][0].cured_by_label,
        )
    audit_records_bulk(acting_user=acting_user, action="violation.cure", changes=changes, note=note)
    return len(changes)


def _clamp(day: dt.date | None, low: dt.date, high: dt.date) -> dt.date:
    return min(max(day or high, low), high)


# --- findings ----------------------------------------------------------------------------------


def _findings(today, acting_user) -> tuple[int, int]:
    keyed = Violation.objects.filter(source_key__startswith="finding:")
    open_findings = (
        Finding.objects.filter(closed_on__isnull=True, began_on__lte=today)
        .exclude(pk__in=keyed.values("source_id"))
        .select_related("establishment__parcel", "device__parcel")
        .prefetch_related(
            Prefetch(
                "device__establishments", queryset=FoodServiceEstablishment.objects.select_related("parcel")
            )
        )
    )
    opened = violations_open_bulk(
        violations=[sources.from_finding(f) for f in open_findings],
        acting_user=acting_user,
        note="An open finding is a violation (D4, P3).",
    )
    closed = dict(
        Finding.objects.filter(
            closed_on__isnull=False, pk__in=keyed.filter(cured_on__isnull=True).values("source_id")
        ).values_list("pk", "closed_on")
    )
    cures = [
        (
            v,
            max(closed[v.source_id], v.began_on),
            f"Finding {v.source_id} closed on {closed[v.source_id]:%B %-d, %Y}.",
        )
        for v in keyed.filter(cured_on__isnull=True, source_id__in=list(closed))
    ]
    return len(opened), _cure_bulk(cures, acting_user=acting_user, note="The finding was closed.")


# --- overdue service ---------------------------------------------------------------------------


def _service(today, acting_user) -> tuple[int, int]:
    grace = ruleset_on(today).service_grace_days
    overdue = (
        DeviceServiceState.objects.filter(status="overdue", next_due__isnull=False)
        .filter(device__status=GreaseControlDevice.Status.ACTIVE)
        .select_related("device__parcel")
        .prefetch_related(
            Prefetch(
                "device__establishments",
                queryset=FoodServiceEstablishment.objects.filter(
                    status=FoodServiceEstablishment.Status.ACTIVE
                ).select_related("parcel"),
            )
        )
    )
    candidates = [
        sources.from_overdue_service(state.device, fse, next_due=state.next_due, grace_days=grace)
        for state in overdue
        for fse in state.device.establishments.all()
    ]
    opened = violations_open_bulk(
        violations=candidates, acting_user=acting_user, note="A device is overdue for service (E1)."
    )
    pending = list(Violation.objects.filter(source=Violation.Source.OVERDUE_SERVICE, cured_on__isnull=True))
    states = {
        s.pk: s for s in DeviceServiceState.objects.filter(device_id__in={v.source_id for v in pending})
    }
    cures = []
    for violation in pending:
        keyed_due = dt.date.fromisoformat(violation.source_key.rsplit(":", 1)[1])
        state = states.get(violation.source_id)
        if state is None or (state.status == "overdue" and state.next_due == keyed_due):
            continue
        cured_on = _clamp(state.last_service_on, violation.began_on, today)
        cures.append(
            (violation, cured_on, f"Device serviced; next service due {state.next_due or 'not set'}.")
        )
    return len(opened), _cure_bulk(cures, acting_user=acting_user, note="The device was serviced (E1).")


# --- permits -----------------------------------------------------------------------------------


def _in_force(today, outer_establishment: str = "pk"):
    """A permit in force on ``today`` for the outer row's establishment: an establishment's ``pk``,
    or a violation's ``establishment``."""
    return Permit.objects.filter(
        establishment=OuterRef(outer_establishment), status=PermitStatus.ISSUED, valid_until__gte=today
    )


def _permits(today, acting_user) -> tuple[int, int]:
    latest = Permit.objects.filter(establishment=OuterRef("pk")).order_by("-first_issued_on", "-pk")
    without = (
        FoodServiceEstablishment.objects.filter(status=FoodServiceEstablishment.Status.ACTIVE)
        .annotate(has_permit=Exists(_in_force(today)))
        .filter(has_permit=False)
        .annotate(
            last_pk=latest.values("pk")[:1],
            last_number=latest.values("number")[:1],
            last_status=latest.values("status")[:1],
            last_valid_until=latest.values("valid_until")[:1],
        )
    )
    candidates = []
    for fse in without:
        if fse.last_pk is None:
            candidates.append(sources.from_missing_permit(fse, today=today))
        elif fse.last_status in (PermitStatus.ISSUED, PermitStatus.EXPIRED) and fse.last_valid_until < today:
            # Suspended and revoked permits are under an order (L, M): their own process.
            candidates.append(
                sources.from_expired_permit(
                    fse, permit_id=fse.last_pk, number=fse.last_number or "", valid_until=fse.last_valid_until
                )
            )
    opened = violations_open_bulk(
        violations=candidates, acting_user=acting_user, note="No FOG permit in force (B1)."
    )
    issued_on = (
        PermitVersion.objects.filter(
            permit__establishment=OuterRef("establishment"),
            permit__status=PermitStatus.ISSUED,
            permit__valid_until__gte=today,
        )
        .values("permit__establishment")
        .annotate(last=Max("effective_from"))
        .values("last")[:1]
    )
    cured = (
        Violation.objects.filter(source=Violation.Source.PERMIT, cured_on__isnull=True)
        .annotate(in_force=Exists(_in_force(today, "establishment")))
        .filter(in_force=True)
        .annotate(issued_on=issued_on)
    )
    cures = [(v, _clamp(v.issued_on, v.began_on, today), "A FOG permit is in force (B1).") for v in cured]
    return len(opened), _cure_bulk(cures, acting_user=acting_user, note="A permit was issued (B1).")


# --- manifest flags ----------------------------------------------------------------------------


def _flags(acting_user) -> int:
    referred = (
        ManifestFlag.objects.filter(review=ManifestFlag.Review.REFERRED)
        .exclude(pk__in=Violation.objects.filter(source=Violation.Source.MANIFEST_FLAG).values("source_id"))
        .select_related("manifest")
    )
    candidates = [v for v in (sources.from_referred_flag(flag) for flag in referred) if v is not None]
    return len(
        violations_open_bulk(
            violations=candidates,
            acting_user=acting_user,
            note="A manifest flag was referred for enforcement.",
        )
    )


def enforcement_sweep(*, today: dt.date | None = None, acting_user=SWEEP_ACTOR) -> dict[str, int]:
    """Open and cure violations from their sources, in one transaction. Returns the counts."""
    today = today or town_today()
    with transaction.atomic():
        f_open, f_cured = _findings(today, acting_user)
        s_open, s_cured = _service(today, acting_user)
        p_open, p_cured = _permits(today, acting_user)
        m_open = _flags(acting_user)
        missed = milestones_flag_missed(today=today, acting_user=acting_user)
    return {
        "opened": f_open + s_open + p_open + m_open,
        "cured": f_cured + s_cured + p_cured,
        "findings_opened": f_open,
        "service_opened": s_open,
        "permits_opened": p_open,
        "flags_opened": m_open,
        "milestones_missed": missed,
    }


def milestones_flag_missed(*, today: dt.date, acting_user=SWEEP_ACTOR) -> int:
    """H4: flag each milestone not met by its date (once), and mark its agreement not met."""
    missed = list(
        AgreementMilestone.objects.filter(missed_flagged_on__isnull=True, due_on__lt=today)
        .filter(Q(met_on__isnull=True) | Q(met_on__gt=F("due_on")))
        .select_related("agreement")
    )
    if not missed:
        return 0
    changes = []
    for milestone in missed:
        before = snapshot(milestone)
        milestone.missed_flagged_on = today
        changes.append((milestone, before, snapshot(milestone)))
    AgreementMilestone.objects.filter(pk__in=[m.pk for m in missed]).update(missed_flagged_on=today)
    ComplianceAgreement.objects.filter(
        pk__in={m.agreement_id for m in missed}, status=ComplianceAgreement.Status.IN_FORCE
    ).update(status=ComplianceAgreement.Status.NOT_MET)
    audit_records_bulk(
        acting_user=acting_user,
        action="case.milestone_missed",
        changes=changes,
        note="Milestone missed (H4).",
    )
    return len(missed)
