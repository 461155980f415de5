"""The nightly enforcement sweep (P3): open a violation for each source that has none, cure the open
ones whose source is cured. Set-based and idempotent: run twice, the second run changes nothing.

Sources: open findings (inspections, late records, spills), overdue device service (E1), active FSEs
with no permit in force (B1, B6), and manifest flags referred for enforcement (a backstop: the review
opens its violation at once through ``hooks.py``). Per source one SELECT of the candidates and one of
the keys already open, then one INSERT of the violations and one INSERT … SELECT of their audit
entries (built by the database). The overdue devices and the permits are read as plain rows (no
model instance per device, FSE or permit) and each violation is a row of values
(``sources.overdue_service_row`` …): A2 is decided once per device. Cures: per source one SELECT,
one UPDATE per cure day and one INSERT of audit entries; only the violations cured are read whole.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.db import transaction
from django.db.models import Exists, F, FilteredRelation, Max, OuterRef, Prefetch, Q, Subquery

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.audit.set_sql import audit_insert_select
from fogcontrol.core.set_sql import insert_values, json_values
from fogcontrol.enforcement.models import AgreementMilestone, ComplianceAgreement, Violation
from fogcontrol.enforcement.services import sources
from fogcontrol.findings.models import Finding
from fogcontrol.permits.models import Permit, PermitStatus, PermitVersion
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.servicing.models import DeviceServiceState, ManifestFlag

SWEEP_ACTOR = "enforcement.nightly"


# The fields a violation opened from its source is written with (``sources``); the rest take
# their defaults, as a new ``Violation`` would.
_OPENED_WITH = (
    "establishment_id", "property_owner_id", "device_id", "provision", "kind", "description", "source",
    "source_key", "source_id", "evidence", "began_on", "opened_by_id",
)  # fmt: skip


def _keys_taken(keys: list[str]) -> set[str]:
    """The keys among ``keys`` that already have their violation."""
    if not keys:
        return set()
    return set(
        Violation.objects.filter(source_key__in=json_values(keys, integers=False)).values_list(
            "source_key", flat=True
        )
    )


def _new_only(rows: list[dict]) -> list[dict]:
    taken = _keys_taken([row["source_key"] for row in rows])
    seen: set[str] = set()
    fresh = []
    for row in rows:
        if row["source_key"] in taken or row["source_key"] in seen:
            continue
        seen.add(row["source_key"])
        fresh.append(row)
    return fresh


def violation_rows_open(*, rows: list[dict], acting_user, note: str) -> list[int]:
    """Open many violations at once from rows of values (``sources``: the same keys in every row),
    skipping any source that already has its violation: one SELECT of the keys taken, one INSERT of
    the violations (``core.set_sql``) and one INSERT … SELECT of their audit entries, each
    violation's after built by the database (``audit.set_sql``), whatever their number. Returns
    the new violations' ids."""
    fresh = _new_only(rows)
    if not fresh:
        return []
    label = acting_user if isinstance(acting_user, str) else acting_user.get_username()
    for row in fresh:
        row["opened_by_label"] = label
    ids = insert_values(Violation, fresh)
    audit_insert_select(
        acting_user=acting_user,
        action="violation.open",
        model=Violation,
        ids=ids,
        after=None,
        object_repr=("t.provision || ': ' || t.description", []),
        note=note,
        created=True,
    )
    return ids


def violations_open_bulk(*, violations: list[Violation], acting_user, note: str) -> list[int]:
    """``violation_rows_open`` of unsaved ``Violation`` instances (a finding's, a flag's)."""
    rows = [{name: getattr(v, name) for name in _OPENED_WITH} for v in violations]
    return violation_rows_open(rows=rows, acting_user=acting_user, note=note)


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


def _overdue_rows(grace_days: int) -> list[dict]:
    """The violations the overdue active devices open (E1), one per active FSE each serves, in the
    order of the states (due date, device) and of each device's FSEs (name, id): two reads of
    plain rows, A2 once per device (``sources.owner_answering``), no model instances."""
    overdue = DeviceServiceState.objects.filter(
        status="overdue", next_due__isnull=False, device__status=GreaseControlDevice.Status.ACTIVE
    )
    states = list(
        overdue.values_list(
            "device_id", "next_due", "device__identifier", "device__parcel_id", "device__parcel__owner_id"
        )
    )
    served = defaultdict(list)  # device id -> its active FSEs: (id, parcel number, parcel owner)
    links = (
        # Joined, not ``IN (subquery)``: SQLite would probe the link table once per FSE and device.
        GreaseControlDevice.establishments.through.objects.filter(
            greasecontroldevice__service_state__status="overdue",
            greasecontroldevice__service_state__next_due__isnull=False,
            greasecontroldevice__status=GreaseControlDevice.Status.ACTIVE,
            foodserviceestablishment__status=FoodServiceEstablishment.Status.ACTIVE,
        )
        .order_by(
            "greasecontroldevice_id", "foodserviceestablishment__business_name", "foodserviceestablishment_id"
        )
        .values_list(
            "greasecontroldevice_id",
            "foodserviceestablishment_id",
            "foodserviceestablishment__parcel__apn",
            "foodserviceestablishment__parcel__owner_id",
        )
    )
    for device_id, fse_id, apn, owner_id in links:
        served[device_id].append((fse_id, apn, owner_id))
    rows = []
    for device_id, next_due, identifier, parcel_id, parcel_owner_id in states:
        fses = served.get(device_id, ())
        parcels = [apn for _, apn, _ in fses]
        for fse_id, _, fse_owner_id in fses:
            owner = sources.owner_answering(
                parcels,
                device_parcel_id=parcel_id,
                device_parcel_owner_id=parcel_owner_id,
                establishment_parcel_owner_id=fse_owner_id,
            )
            rows.append(
                sources.overdue_service_row(
                    device_id=device_id,
                    identifier=identifier,
                    establishment_id=fse_id,
                    property_owner_id=owner,
                    next_due=next_due,
                    grace_days=grace_days,
                )
            )
    return rows


def _service(today, acting_user) -> tuple[int, int]:
    overdue = _overdue_rows(ruleset_on(today).service_grace_days)
    opened = violation_rows_open(
        rows=overdue, acting_user=acting_user, note="A device is overdue for service (E1)."
    )
    # A violation whose key is one of tonight's overdue rows is not cured: its device is overdue
    # with the due date its key names (the test below would keep it open). Left out in SQL, so that
    # only the others are read and checked (on most nights none, instead of every open one).
    pending = Violation.objects.filter(source=Violation.Source.OVERDUE_SERVICE, cured_on__isnull=True)
    if overdue:
        pending = pending.exclude(
            source_key__in=json_values([row["source_key"] for row in overdue], integers=False)
        )
    pending = list(pending.values_list("pk", "source_id", "source_key", "began_on"))
    states = {
        device_id: (status, next_due, last_service_on)
        for device_id, status, next_due, last_service_on in DeviceServiceState.objects.filter(
            device_id__in={source_id for _, source_id, _, _ in pending}
        ).values_list("device_id", "status", "next_due", "last_service_on")
    }
    cured = {}  # violation id -> (cured on, evidence)
    for pk, source_id, source_key, began_on in pending:
        keyed_due = dt.date.fromisoformat(source_key.rsplit(":", 1)[1])
        state = states.get(source_id)
        if state is None or (state[0] == "overdue" and state[1] == keyed_due):
            continue
        status, next_due, last_service_on = state
        cured[pk] = (
            _clamp(last_service_on, began_on, today),
            f"Device serviced; next service due {next_due or 'not set'}.",
        )
    # Only the violations cured are read whole (their audit entries' before): most nights, none.
    whole = Violation.objects.in_bulk(list(cured)) if cured else {}
    cures = [(whole[pk], *cure) for pk, cure in cured.items()]  # in the order of ``pending``
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
        # The last permit joined once (its id found by one subquery), not a subquery a column.
        .annotate(
            last=FilteredRelation("permits", condition=Q(permits__pk=Subquery(latest.values("pk")[:1])))
        )
    )
    rows = []
    for fse_id, last_pk, last_number, last_status, last_valid_until in without.values_list(
        "pk", "last__pk", "last__number", "last__status", "last__valid_until"
    ):
        if last_pk is None:
            rows.append(sources.missing_permit_row(establishment_id=fse_id, today=today))
        elif last_status in (PermitStatus.ISSUED, PermitStatus.EXPIRED) and last_valid_until < today:
            # Suspended and revoked permits are under an order (L, M): their own process.
            rows.append(
                sources.expired_permit_row(
                    establishment_id=fse_id,
                    permit_id=last_pk,
                    number=last_number or "",
                    valid_until=last_valid_until,
                )
            )
    opened = violation_rows_open(rows=rows, acting_user=acting_user, note="No FOG permit in force (B1).")
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
