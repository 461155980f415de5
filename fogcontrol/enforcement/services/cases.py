"""Opening a case, adding violations to it and closing it. Keyword-only arguments, an acting user,
one transaction, an audit entry."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement.models import Case, CaseViolation, Violation
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS
from fogcontrol.registry.models import FoodServiceEstablishment

OFFICERS_ONLY = "Only the FOG Manager and inspectors open and close cases."


def _check_violations(establishment, violations: Sequence[Violation]) -> None:
    strangers = [v for v in violations if v.establishment_id != establishment.pk]
    if strangers:
        raise ValidationError(
            {"violations": "A case groups one establishment's violations: "
             + ", ".join(f"#{v.pk}" for v in strangers) + " belong to another."}
        )  # fmt: skip


@transaction.atomic
def case_open(
    *,
    acting_user,
    establishment: FoodServiceEstablishment,
    summary: str,
    opened_on: dt.date,
    violations: Sequence[Violation] = (),
    internal_notes: str = "",
) -> Case:
    """Open a case for ``establishment`` grouping ``violations`` (its own)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    if not (summary or "").strip():
        raise ValidationError({"summary": "Say what the case is about."})
    violations = list(violations)
    _check_violations(establishment, violations)
    case = Case.objects.create(
        establishment=establishment,
        summary=summary.strip(),
        internal_notes=(internal_notes or "").strip(),
        opened_on=opened_on,
        opened_by=person(acting_user),
        opened_by_label=actor_label_for(acting_user),
    )
    case.reference = f"ENF-{opened_on:%Y}-{case.pk:05d}"
    case.save(update_fields=["reference"])
    CaseViolation.objects.bulk_create([CaseViolation(case=case, violation=v) for v in violations])
    audit_record(acting_user=acting_user, action="case.open", instance=case, after=snapshot(case))
    return case


@transaction.atomic
def case_add_violations(*, acting_user, case: Case, violations: Sequence[Violation]) -> Case:
    """Add more of the establishment's violations to an open case (a violation is added once)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = Case.objects.select_for_update(of=("self",)).get(pk=case.pk)
    if case.closed_on is not None:
        raise StateConflict(f"{case.reference} is closed.")
    violations = list(violations)
    _check_violations(case.establishment, violations)
    present = set(case.case_violations.values_list("violation_id", flat=True))
    new = [CaseViolation(case=case, violation=v) for v in violations if v.pk not in present]
    CaseViolation.objects.bulk_create(new)
    audit_record(
        acting_user=acting_user,
        action="case.add_violations",
        instance=case,
        note=", ".join(f"violation #{link.violation_id}" for link in new),
    )
    return case


@transaction.atomic
def case_close(*, acting_user, case: Case, closed_on: dt.date, reason: str) -> Case:
    """Close a case with the day and why."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = Case.objects.select_for_update(of=("self",)).get(pk=case.pk)
    if case.closed_on is not None:
        raise StateConflict(f"{case.reference} was already closed on {case.closed_on:%B %-d, %Y}.")
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the case is closed."})
    if closed_on < case.opened_on:
        raise ValidationError({"closed_on": "A case cannot close before it opened."})
    before = snapshot(case)
    case.closed_on, case.closed_reason = closed_on, reason.strip()
    case.save(update_fields=["closed_on", "closed_reason"])
    audit_record(
        acting_user=acting_user, action="case.close", instance=case, before=before, after=snapshot(case)
    )
    return case
