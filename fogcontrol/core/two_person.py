"""The two-person rule (issue #15): a step with legal or money effect (a write-off, a penalty order, a
lien) is asked for by one authorised person and takes effect only when a second, different
authorised person approves it; a refusal keeps its reason. Nothing takes effect on the request.

The rule's shared part lives here so every app says it the same way: who may decide
(``require_second_person``), the reason a refusal needs (``decision_note``) and the decision's
stamp on the record (``stamp_decision``: ``decided_by``, ``decided_by_label``, ``decided_at``,
``decision_note``). Each app keeps its own model fields and its own service.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from fogcontrol.core.actors import actor_label_for, is_job, person


class SecondPersonRequired(PermissionDenied):
    """The person who asked for a step tried to approve it (or a job tried to decide)."""


def require_second_person(acting_user, requested_by_id: int | None, what: str) -> None:
    """Refuse unless ``acting_user`` is a person other than the one who asked (``requested_by_id``).
    A job never decides: a person answers for the approval."""
    decider = None if is_job(acting_user) else person(acting_user)
    if decider is None or decider.pk == requested_by_id:
        raise SecondPersonRequired(
            f"{what} needs a second staff member's approval: someone other than the person who asked."
        )


def require_person(acting_user, what: str) -> None:
    """A request under the two-person rule is made by a person, who answers for it (never a job)."""
    if is_job(acting_user) or person(acting_user) is None:
        raise PermissionDenied(f"{what} is asked for by a person, who answers for it.")


def decision_note(*, approve: bool, note: str | None, field: str = "note", what: str = "it") -> str:
    """The decision's note, stripped; a refusal must say why (400 naming ``field``)."""
    note = (note or "").strip()
    if not approve and not note:
        raise ValidationError({field: [f"Say why {what} is refused: the reason is kept with the record."]})
    return note


def stamp_decision(record, acting_user, note: str) -> None:
    """Who decided, when, and the note, on a record with the decision fields."""
    record.decided_by = person(acting_user)
    record.decided_by_label = actor_label_for(acting_user)
    record.decided_at = timezone.now()
    record.decision_note = note
