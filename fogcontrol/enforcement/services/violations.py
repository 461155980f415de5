"""Opening and curing violations by hand (P3). The nightly sweep (``services/sweep.py``) opens and
cures them automatically from their sources. Keyword-only arguments, an acting user (or a job
label), one transaction, an audit entry."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement.models import Violation
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, Party

OFFICERS_ONLY = "Only the FOG Manager and inspectors open and cure violations."


@transaction.atomic
def violation_open(
    *,
    acting_user,
    establishment: FoodServiceEstablishment,
    provision: str,
    description: str,
    began_on: dt.date,
    kind: str = Violation.Kind.OTHER,
    evidence: str = "",
    source: str = Violation.Source.MANUAL,
    source_id: int | None = None,
    source_key: str | None = None,
    device: GreaseControlDevice | None = None,
    property_owner: Party | None = None,
) -> Violation:
    """Open a violation of ``provision`` beginning on ``began_on``. With a ``source_key`` it is
    opened once: a second call for the same key returns the violation already open (P3: one
    violation, every day of it a separate offence)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    if source_key:
        existing = Violation.objects.filter(source_key=source_key).first()
        if existing is not None:
            return existing
    if kind not in Violation.Kind.values:
        raise ValidationError({"kind": f"Choose one of: {', '.join(Violation.Kind.values)}."})
    if source not in Violation.Source.values:
        raise ValidationError({"source": f"Choose one of: {', '.join(Violation.Source.values)}."})
    if not (provision or "").strip():
        raise ValidationError({"provision": "Name the provision broken, e.g. C3."})
    if not (description or "").strip():
        raise ValidationError({"description": "Say what the violation is."})
    if source == Violation.Source.MANUAL and not (evidence or "").strip():
        raise ValidationError({"evidence": "Say what shows the violation (a photo, a record, a visit)."})
    violation = Violation(
        establishment=establishment,
        property_owner=property_owner,
        device=device,
        provision=provision.strip().upper(),
        kind=kind,
        description=description.strip(),
        source=source,
        source_key=source_key or None,
        source_id=source_id,
        evidence=(evidence or "").strip(),
        began_on=began_on,
        opened_by=person(acting_user),
        opened_by_label=actor_label_for(acting_user),
    )
    violation.full_clean(exclude=["source_key"])
    violation.save()
    audit_record(
        acting_user=acting_user, action="violation.open", instance=violation, after=snapshot(violation)
    )
    return violation


@transaction.atomic
def violation_cure(*, acting_user, violation: Violation, cured_on: dt.date, evidence: str) -> Violation:
    """Record the day a violation was cured and what shows it. The cure day is the last day counted
    (P3: the violation continued on it until cured). A cured violation stays cured (409)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    violation = Violation.objects.select_for_update(of=("self",)).get(pk=violation.pk)
    if violation.cured_on is not None:
        raise StateConflict(f"This violation was already cured on {violation.cured_on:%B %-d, %Y}.")
    if not (evidence or "").strip():
        raise ValidationError({"evidence": "Say what shows the violation was cured."})
    if cured_on < violation.began_on:
        raise ValidationError({"cured_on": "A violation cannot be cured before the day it began."})
    before = snapshot(violation)
    violation.cured_on = cured_on
    violation.cure_evidence = evidence.strip()
    violation.cured_by = person(acting_user)
    violation.cured_by_label = actor_label_for(acting_user)
    violation.save(update_fields=["cured_on", "cure_evidence", "cured_by", "cured_by_label"])
    audit_record(
        acting_user=acting_user,
        action="violation.cure",
        instance=violation,
        before=before,
        after=snapshot(violation),
    )
    return violation
