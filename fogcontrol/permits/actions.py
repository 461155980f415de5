"""What a user may do to an application or a permit now, and if not, why (fogcontrol.core.actions).

Built from the state machines (fogcontrol.permits.states) and the role rules (permits.roles): the
pages offer exactly the steps allowed here, the API answers the same steps the same way (the
services refuse with the same reasons: 403 for the role, 409 for the state). Input checks (a
missing reason, an incomplete application) stay with the services and answer 400.
"""

from __future__ import annotations

from fogcontrol.core.actions import ALLOWED, Actions, Refused, Verdict, allowed_if, first_refusal
from fogcontrol.core.actors import is_job
from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import ApplicationStatus as A
from fogcontrol.permits.models import FeeCharge, RemodelNotice
from fogcontrol.permits.models import PermitStatus as P
from fogcontrol.permits.roles import DECIDERS, FEE_COLLECTORS, REVIEWERS
from fogcontrol.permits.states import (
    CHANGEABLE,
    MODIFIABLE,
    RENEWABLE,
    TransitionNotAllowed,
    check_application_transition,
    check_permit_transition,
    renewal_not_open_yet,
)
from fogcontrol.program.selectors import ruleset_on, town_today

APPLICANT, REVIEWER, DECIDER = "applicant", "reviewer", "decider"
_WHO_REFUSED = {
    APPLICANT: "Only the establishment's own users and the FOG Manager's staff may do this.",
    REVIEWER: "Only the FOG Manager and inspectors may do this.",
    DECIDER: "Only the FOG Manager may do this.",
}

# Each step of an application (named as in the URL, with "_" for "-"): who takes it, and either the state it moves to (checked against
# APPLICATION_TRANSITIONS) or the states it is taken in (steps that add to the record, B3-B5).
APPLICATION_STEPS: dict[str, tuple[str, str | None, frozenset[str] | None]] = {
    "edit": (APPLICANT, None, frozenset({A.DRAFT})),
    "document": (APPLICANT, None, frozenset({A.DRAFT, A.INFORMATION_REQUESTED})),
    "submit": (APPLICANT, A.SUBMITTED, None),
    "respond": (APPLICANT, None, frozenset({A.INFORMATION_REQUESTED})),
    "note": (APPLICANT, None, frozenset(A.values)),
    "withdraw": (APPLICANT, A.WITHDRAWN, None),
    "start_review": (REVIEWER, A.UNDER_REVIEW, None),
    "request_information": (REVIEWER, A.INFORMATION_REQUESTED, None),
    "schedule_inspection": (REVIEWER, A.INSPECTION_SCHEDULED, None),
    "record_inspection": (REVIEWER, None, frozenset({A.INSPECTION_SCHEDULED})),
    "accept": (DECIDER, A.ACCEPTED, None),
    "reject": (DECIDER, A.REJECTED, None),
    "issue": (DECIDER, A.ISSUED, None),
}

_NOT_NOW = {
    "edit": "The application has been submitted: it is a copy of record and cannot change.",
    "document": "Documents can be added to a draft, or with an answer to a request for information.",
    "respond": "The FOG Manager has not asked for information on this application: add a note instead.",
    "record_inspection": "No inspection is scheduled for this application: schedule one first.",
}


def may_file_for(user, establishment) -> bool:
    """The FOG Manager's staff file for any establishment; an FSE user for its own (B3)."""
    if is_job(user) or has_role(user, REVIEWERS):
        return True
    if user is None or not user.is_authenticated or user.role != Role.FSE:
        return False
    return establishment.users.filter(pk=user.pk).exists()


def _who(user, establishment) -> dict[str, Verdict]:
    return {
        APPLICANT: allowed_if(may_file_for(user, establishment), _WHO_REFUSED[APPLICANT]),
        REVIEWER: allowed_if(has_role(user, REVIEWERS), _WHO_REFUSED[REVIEWER]),
        DECIDER: allowed_if(has_role(user, DECIDERS), _WHO_REFUSED[DECIDER]),
    }


def _application_state(step: str, status: str, target: str | None, taken_in) -> Verdict:
    if target is not None:
        if step == "issue" and status == A.INSPECTION_SCHEDULED:
            return Refused("An on-site inspection is scheduled: record its result before issuing (B5).")
        try:
            check_application_transition(status, target)
        except TransitionNotAllowed as refusal:
            return Refused(str(refusal))
        return ALLOWED
    return allowed_if(status in taken_in, _NOT_NOW.get(step, "Not in this state."))


def application_actions(user, application) -> Actions:
    """Every step of the application, for this user, now: {step: Allowed | Refused(reason)}."""
    who = _who(user, application.establishment)
    owed = fees_outstanding(application)
    actions = {
        step: first_refusal(who[role], _application_state(step, application.status, target, taken_in))
        for step, (role, target, taken_in) in APPLICATION_STEPS.items()
    }
    actions["issue"] = first_refusal(actions["issue"], fees_paid_verdict(owed))
    return actions | fee_actions(user, application, owed=owed)


def fees_outstanding(application) -> list[FeeCharge]:
    """B3: the application's fees still owed (not paid, waived or cancelled), invoiced or not."""
    return [fee for fee in application.fees.all() if fee.is_outstanding]


def fees_paid_verdict(owed: list[FeeCharge]) -> Verdict:
    """B3: no permit is issued while a fee of its application is owed (``services.permit_issue``
    refuses it with this reason, 409)."""
    if not owed:
        return ALLOWED
    listed = "; ".join(
        f"${fee.amount} ({fee.get_kind_display()}, assessed {fee.assessed_on:%Y-%m-%d})" for fee in owed
    )
    return Refused(
        f"The application fee is owed: {listed}. B3: the fee accompanies the application, so the permit "
        "is not issued until it is paid. Record the payment (amount, date, reference) or, as FOG Manager, "
        "a waiver with the reason; then issue."
    )


def fee_actions(user, application, *, owed: list[FeeCharge] | None = None) -> Actions:
    """B3: while a fee of the application is owed, staff record its payment (the FOG Manager and the
    billing clerk) or the FOG Manager waives it with a reason. A fee invoiced by billing is paid there:
    ``services.fees`` refuses it here (409), so it alone offers neither step."""
    owed = fees_outstanding(application) if owed is None else owed
    nothing_owed = allowed_if(
        any(fee.status == FeeCharge.Status.OWED for fee in owed),
        "The fee is invoiced by billing: its payment is recorded there, so it is not taken twice (B3)."
        if owed
        else "No fee of this application is owed (B3).",
    )
    return {
        "pay_fee": first_refusal(
            allowed_if(
                has_role(user, FEE_COLLECTORS), "Only the FOG Manager and the billing clerk record payments."
            ),
            nothing_owed,
        ),
        "waive_fee": first_refusal(
            allowed_if(has_role(user, DECIDERS), "Only the FOG Manager waives a fee (B3)."), nothing_owed
        ),
    }


def _permit_state(permit, target: str, *, allowed_from=None, refusal: str = "") -> Verdict:
    if allowed_from is not None and permit.status not in allowed_from:
        if permit.status in (P.REVOKED, P.SUPERSEDED):
            try:
                check_permit_transition(permit.status, target)
            except TransitionNotAllowed as refused:
                return Refused(str(refused))
        return Refused(refusal)
    try:
        check_permit_transition(permit.status, target)
    except TransitionNotAllowed as refused:
        return Refused(str(refused))
    return ALLOWED


def _no_open_application(open_application) -> Verdict:
    if open_application is None:
        return ALLOWED
    return Refused(
        f"Application {open_application.reference} is already in progress: continue that one, "
        "or withdraw it first."
    )


# The states an order may still act on: a permit in force (suspend, revoke), a suspended one
# (reinstate, revoke) and an expired one (revoke).
ORDERABLE = frozenset({P.ISSUED, P.SUSPENDED, P.EXPIRED})


def permit_actions(user, permit, *, open_application=None, ruleset=None) -> Actions:
    """Every step on the permit, for this user, now: {step: Allowed | Refused(reason)}.

    ``open_application``: the establishment's application in progress, if any (a renewal or change
    cannot open a second one). ``ruleset``: the rules in force today, if the caller has read them
    (the renewal window, B6).
    """
    today = town_today()
    ruleset = ruleset if ruleset is not None else ruleset_on(today)
    not_yet = renewal_not_open_yet(permit, today=today, ruleset=ruleset)
    who = _who(user, permit.establishment)
    status_label = permit.get_status_display().lower()
    return {
        "renew": first_refusal(
            who[APPLICANT],
            _permit_state(
                permit, P.ISSUED, allowed_from=RENEWABLE,
                refusal=f"Permit {permit.number} is {status_label}: it cannot be renewed.",
            ),
            allowed_if(not_yet is None, not_yet or ""),
            _no_open_application(open_application),
        ),
        "change": first_refusal(
            who[APPLICANT],
            allowed_if(
                permit.status in CHANGEABLE,
                f"Permit {permit.number} is {status_label}: "
                + ("apply for a new permit (L5)." if permit.status == P.REVOKED else "act on the newer permit (B8)."),
            ),
            _no_open_application(open_application),
        ),
        "modify": first_refusal(
            who[DECIDER],
            _permit_state(
                permit, P.ISSUED, allowed_from=MODIFIABLE,
                refusal=f"Permit {permit.number} is {status_label}: only a permit in force can be modified.",
            ),
        ),
        # L1-L6, M1-M3: a permit is suspended, revoked or reinstated only by applying a recorded order
        # (services/orders.py), never in one step; the FOG Manager records the order here.
        "record_order": first_refusal(
            who[DECIDER],
            allowed_if(
                permit.status in ORDERABLE,
                f"Permit {permit.number} is {status_label}: no order can change it any more.",
            ),
        ),
    }  # fmt: skip


def remodel_actions(user, notice) -> Actions:
    """G2: the FSE (or the FOG Manager's staff) submits plans while they are awaited; staff decide."""
    review = RemodelNotice.PlanReview
    who = _who(user, notice.establishment)
    awaited = notice.plan_review in (review.AWAITING_PLANS, review.REVISIONS_REQUIRED)
    stage = notice.get_plan_review_display().lower()
    return {
        "plans": first_refusal(
            who[APPLICANT], allowed_if(awaited, f"The plan review is {stage}: plans are not awaited.")
        ),
        "decide": first_refusal(
            who[REVIEWER],
            allowed_if(
                notice.plan_review == review.PLANS_RECEIVED,
                "No plans are in review: the FSE must submit them first.",
            ),
        ),
    }
