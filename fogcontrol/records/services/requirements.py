"""What the FOG Manager requires of an FSE: periodic reports (C5 BMP status, F3 self-monitoring,
F2 CCTV, F6 lateral cleaning and spill records) and one-off requests (D7 monitoring facilities,
waste analysis and contingency plans; E9 data to set a frequency)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.permits.services import permit_conditions_attach, permit_conditions_end
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.records.models import RecordRequirement
from fogcontrol.records.roles import REQUIREMENT_SETTERS
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.records import ONCE, REQUEST_KINDS, request_first_due

# The permit condition's source: a reporting requirement, by its id (permits.PermitCondition).
CONDITION_SOURCE = "records"


@transaction.atomic
def requirement_set(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    acting_user,
    unit: str = ONCE,
    every: int = 0,
    first_due_on: dt.date | None = None,
    requested_on: dt.date | None = None,
    description: str = "",
    permit_condition: bool = False,
) -> RecordRequirement:
    """Require reports of an FSE (C5, F2, F3, F6: every N days or months from the first due date) or
    request something once (D7, E9; due on the date named, else ``record_request_days`` after the
    request, moved off a closed day). Set per FSE, or also as a condition of its permit in force
    (``permit_condition``): the permit's page and PDF then list it until the requirement ends."""
    require_role(acting_user, REQUIREMENT_SETTERS, "Only the FOG Manager requires reports and plans.")
    if kind not in RecordRequirement.Kind.values:
        raise ValidationError({"kind": f"Choose one of: {', '.join(RecordRequirement.Kind.values)}."})
    if unit not in RecordRequirement.Unit.values:
        raise ValidationError({"unit": "Choose days, months or once."})
    if kind in REQUEST_KINDS and unit != ONCE:
        raise ValidationError({"unit": "A plan, facility or data request (D7, E9) is made once."})
    if unit != ONCE and (every or 0) < 1:
        raise ValidationError({"every": "Say every how many days or months (1 or more)."})
    requested_on = requested_on or town_today()
    if first_due_on is None:
        if unit != ONCE:
            raise ValidationError({"first_due_on": "Give the date the first report is due."})
        first_due_on = request_first_due(
            requested_on, ruleset=ruleset_on(requested_on), calendar=town_calendar()
        ).due
    if first_due_on < requested_on:
        raise ValidationError({"first_due_on": "The first due date cannot come before the request."})
    requirement = RecordRequirement(
        establishment=establishment,
        kind=kind,
        unit=unit,
        every=0 if unit == ONCE else every,
        first_due_on=first_due_on,
        requested_on=requested_on,
        description=(description or "").strip(),
        set_by=person(acting_user),
        set_by_label=actor_label_for(acting_user),
        permit_condition=bool(permit_condition),
    )
    requirement.full_clean()
    requirement.save()
    audit_record(
        acting_user=acting_user,
        action="record_requirement.set",
        instance=requirement,
        after=snapshot(requirement),
    )
    if requirement.permit_condition:
        permit_conditions_attach(
            establishment=establishment,
            text=condition_text(requirement),
            provision=requirement.provision,
            source=CONDITION_SOURCE,
            source_id=requirement.pk,
            started_on=requested_on,
            acting_user=acting_user,
        )
    return requirement


def condition_text(requirement: RecordRequirement) -> str:
    """The condition as the permit prints it: what, how often, and the FOG Manager's words."""
    text = f"Submit the {requirement.get_kind_display()} to the FOG Manager: {requirement.schedule}."
    return f"{text} {requirement.description}" if requirement.description else text


@transaction.atomic
def requirement_end(*, requirement: RecordRequirement, ends_on: dt.date, acting_user) -> RecordRequirement:
    """Lift a requirement: no report is owed after ``ends_on`` (those due before it still are). A
    requirement set as a permit condition ends the condition on the same day."""
    require_role(acting_user, REQUIREMENT_SETTERS, "Only the FOG Manager lifts a requirement.")
    requirement = RecordRequirement.objects.select_for_update().get(pk=requirement.pk)
    if requirement.ends_on is not None:
        raise StateConflict(f"This requirement already ended on {requirement.ends_on:%B %-d, %Y}.")
    if ends_on < requirement.requested_on:
        raise ValidationError({"ends_on": "A requirement cannot end before it was set."})
    before = snapshot(requirement)
    requirement.ends_on = ends_on
    requirement.save(update_fields=["ends_on"])
    audit_record(
        acting_user=acting_user,
        action="record_requirement.end",
        instance=requirement,
        before=before,
        after=snapshot(requirement),
    )
    if requirement.permit_condition:
        permit_conditions_end(
            source=CONDITION_SOURCE, source_id=requirement.pk, ended_on=ends_on, acting_user=acting_user
        )
    return requirement
