"""Conditions set on the permits in force by another part of the program (the records app's
reporting requirements: C5, F2, F3, F6; D7, E9), listed on the permit's page and PDF.

Attaching one puts the condition on every permit in force (issued or suspended) of the FSE; ending
it dates its end on each. Only the FOG Manager does either; each is audited and on the permit's
timeline. Nothing else about a condition ever changes.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.permits.models import Permit, PermitCondition, PermitStatus
from fogcontrol.permits.services.common import audited_save, record_event, require_fog_manager

IN_FORCE = (PermitStatus.ISSUED, PermitStatus.SUSPENDED)


@transaction.atomic
def permit_conditions_attach(
    *, establishment, text: str, provision: str, source: str, source_id: int, started_on: dt.date, acting_user
) -> list[PermitCondition]:
    """Put a condition on each permit in force of the FSE, from ``started_on``. Without a permit in
    force there is nothing to attach it to: a 400 naming ``permit_condition``."""
    require_fog_manager(acting_user, "set permit conditions")
    permits = list(Permit.objects.filter(establishment=establishment, status__in=IN_FORCE).order_by("pk"))
    if not permits:
        raise ValidationError(
            {"permit_condition": "This FSE has no permit in force: set the requirement for the FSE alone."}
        )
    conditions = []
    for permit in permits:
        condition = PermitCondition(
            permit=permit,
            text=text.strip(),
            provision=provision,
            source=source,
            source_id=source_id,
            started_on=started_on,
            set_by_label=actor_label_for(acting_user),
        )
        audited_save(condition, acting_user=acting_user, action="permit_condition.attach", creating=True)
        record_event(acting_user=acting_user, action="condition_attached", permit=permit, note=condition.text)
        conditions.append(condition)
    return conditions


@transaction.atomic
def permit_conditions_end(*, source: str, source_id: int, ended_on: dt.date, acting_user) -> int:
    """End the conditions a source set (its requirement ended): they no longer apply from
    ``ended_on``. Conditions already ended keep their date. Returns how many ended."""
    require_fog_manager(acting_user, "end permit conditions")
    ended = 0
    for condition in (
        PermitCondition.objects.select_for_update(of=("self",))
        .select_related("permit")
        .filter(source=source, source_id=source_id, ended_on__isnull=True)
    ):
        before = snapshot(condition)
        condition.ended_on = ended_on
        audited_save(condition, acting_user=acting_user, action="permit_condition.end", before=before)
        record_event(
            acting_user=acting_user, action="condition_ended", permit=condition.permit, note=condition.text
        )
        ended += 1
    return ended
