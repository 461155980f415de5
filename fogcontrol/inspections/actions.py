"""What a user may do to an inspection now, and if not, why (fogcontrol.core.actions).

Pages offer exactly these steps; the API answers the same (the services refuse with the same
reasons: 403 for the role, 409 for the state; input checks answer 400).
"""

from __future__ import annotations

from fogcontrol.core.actions import Actions, Verdict, allowed_if, first_refusal
from fogcontrol.core.permissions import has_role
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.roles import INSPECTORS, SCHEDULERS

_WHO = "Only the FOG Manager and inspectors may do this."
_NOT_DRAFT = {
    Inspection.Status.COMPLETED: "The inspection is completed: its report stands as signed.",
    Inspection.Status.CANCELLED: "The inspection was cancelled.",
}


def follow_up_verdict(inspection: Inspection) -> Verdict:
    """A follow-up visit follows a completed inspection (its findings); the scheduling service refuses
    any other the same way (409)."""
    return allowed_if(
        inspection.status == Inspection.Status.COMPLETED,
        "A follow-up is scheduled once the inspection is completed.",
    )


def inspection_actions(user, inspection: Inspection) -> Actions:
    """``{step: Allowed | Refused}`` for edit (autosave), photo, complete, assign, cancel,
    follow_up (schedule a follow-up), report (the PDF) and sample (take a sample
    during the visit, D5)."""
    inspector = allowed_if(has_role(user, INSPECTORS), _WHO)
    scheduler = allowed_if(has_role(user, SCHEDULERS), _WHO)
    draft = allowed_if(inspection.status == Inspection.Status.DRAFT, _NOT_DRAFT.get(inspection.status, ""))
    completed = allowed_if(
        inspection.status == Inspection.Status.COMPLETED,
        "The report exists once the inspection is completed.",
    )
    not_cancelled = allowed_if(
        inspection.status != Inspection.Status.CANCELLED, "The inspection was cancelled."
    )
    return {
        "edit": first_refusal(inspector, draft),
        "photo": first_refusal(inspector, draft),
        "complete": first_refusal(inspector, draft),
        "assign": first_refusal(scheduler, draft),
        "cancel": first_refusal(scheduler, draft),
        "follow_up": first_refusal(scheduler, follow_up_verdict(inspection)),
        "report": completed,
        # D5: a sample taken during the visit (the sampling app records it).
        "sample": first_refusal(inspector, not_cancelled),
    }
