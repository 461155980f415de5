"""Every write to findings: keyword-only arguments, an acting user (or a job label), one
transaction, an audit entry. Inspections (and later records and spills) open findings; the FOG
Manager and inspectors close them (D4; P3)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, audit_records_bulk, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.findings.models import Finding
from fogcontrol.findings.roles import FINDING_RECORDERS
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice


@transaction.atomic
def finding_open(
    *,
    establishment: FoodServiceEstablishment,
    provision: str,
    item: str,
    description: str,
    began_on: dt.date,
    source: str,
    source_id: int,
    acting_user,
    device: GreaseControlDevice | None = None,
    reading: str = "",
    photos: Sequence[dict] = (),
) -> Finding:
    """Record a finding: the provision it breaks and its evidence, beginning on ``began_on`` (D4)."""
    require_role(acting_user, FINDING_RECORDERS, "Only the FOG Manager and inspectors record findings.")
    if source not in Finding.Source.values:
        raise ValidationError({"source": f"Choose one of: {', '.join(Finding.Source.values)}."})
    if device is not None and not device.establishments.filter(pk=establishment.pk).exists():
        raise ValidationError({"device": "This device does not serve the establishment."})
    finding = Finding(
        establishment=establishment,
        device=device,
        provision=provision,
        item=item,
        description=description,
        reading=reading,
        photos=list(photos),
        began_on=began_on,
        source=source,
        source_id=source_id,
        opened_by=person(acting_user),
        opened_by_label=actor_label_for(acting_user),
    )
    finding.full_clean()
    finding.save()
    audit_record(acting_user=acting_user, action="finding.open", instance=finding, after=snapshot(finding))
    return finding


@transaction.atomic
def findings_open_bulk(*, findings: Sequence[Finding], acting_user, note: str = "") -> list[Finding]:
    """Record many findings at once, set-based (a nightly sweep of late records: F3, F4, C5, D7, E9):
    one INSERT of the findings and one of their audit entries. Each ``Finding`` is unsaved, with its
    establishment, provision, item, description, ``began_on``, source and source id set."""
    require_role(acting_user, FINDING_RECORDERS, "Only the FOG Manager and inspectors record findings.")
    opened_by, label = person(acting_user), actor_label_for(acting_user)
    for finding in findings:
        if finding.source not in Finding.Source.values:
            raise ValidationError({"source": f"Choose one of: {', '.join(Finding.Source.values)}."})
        finding.opened_by, finding.opened_by_label = opened_by, label
    created = Finding.objects.bulk_create(list(findings))
    audit_records_bulk(
        acting_user=acting_user,
        action="finding.open",
        changes=[(finding, None, snapshot(finding)) for finding in created],
        note=note,
    )
    return created


@transaction.atomic
def finding_close(
    *,
    finding: Finding,
    acting_user,
    closed_on: dt.date,
    how: str,
    evidence: str,
    closed_by_source_id: int | None = None,
) -> Finding:
    """Close a finding: corrected on the spot, found corrected by a follow-up inspection, or other,
    with the day and the evidence. A closed finding stays closed (409)."""
    require_role(acting_user, FINDING_RECORDERS, "Only the FOG Manager and inspectors close findings.")
    finding = Finding.objects.select_for_update().get(pk=finding.pk)
    if finding.closed_on is not None:
        raise StateConflict(f"This finding was already closed on {finding.closed_on:%B %-d, %Y}.")
    if how not in Finding.ClosedHow.values:
        raise ValidationError({"how": f"Choose one of: {', '.join(Finding.ClosedHow.values)}."})
    if not (evidence or "").strip():
        raise ValidationError({"evidence": "Say what shows the finding was corrected."})
    if closed_on < finding.began_on:
        raise ValidationError({"closed_on": "A finding cannot close before the day it began."})
    if how == Finding.ClosedHow.FOLLOW_UP and closed_by_source_id is None:
        raise ValidationError({"how": "A follow-up closing names the follow-up inspection."})
    before = snapshot(finding)
    finding.closed_on = closed_on
    finding.closed_how = how
    finding.closing_evidence = evidence.strip()
    finding.closed_by_source_id = closed_by_source_id
    finding.closed_by = person(acting_user)
    finding.closed_by_label = actor_label_for(acting_user)
    finding.save(
        update_fields=[
            "closed_on",
            "closed_how",
            "closing_evidence",
            "closed_by_source_id",
            "closed_by",
            "closed_by_label",
        ]
    )
    audit_record(
        acting_user=acting_user,
        action="finding.close",
        instance=finding,
        before=before,
        after=snapshot(finding),
    )
    return finding
