"""The legal moves of an application and of a permit (B5, B6, B8, L5).

Services check every change of state here; anything else raises `TransitionNotAllowed`, which the
API answers with 409 and the pages show as a message, with the reason in words.
"""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.errors import StateConflict
from fogcontrol.permits.models import ApplicationStatus as A
from fogcontrol.permits.models import PermitStatus as P
from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.permit_term import renewal_opens_on
from fogcontrol.rules.ruleset import Ruleset


class TransitionNotAllowed(StateConflict):
    """The record's state forbids the requested step; the message says why and what is possible."""


# B5: evaluation and acceptance, then (optionally) an on-site inspection, then issuance.
APPLICATION_TRANSITIONS: dict[str, frozenset[str]] = {
    A.DRAFT: frozenset({A.SUBMITTED, A.WITHDRAWN}),
    A.SUBMITTED: frozenset({A.UNDER_REVIEW, A.INFORMATION_REQUESTED, A.ACCEPTED, A.REJECTED, A.WITHDRAWN}),
    A.UNDER_REVIEW: frozenset({A.INFORMATION_REQUESTED, A.ACCEPTED, A.REJECTED, A.WITHDRAWN}),
    A.INFORMATION_REQUESTED: frozenset({A.UNDER_REVIEW, A.REJECTED, A.WITHDRAWN}),
    A.ACCEPTED: frozenset(
        {A.INSPECTION_SCHEDULED, A.INFORMATION_REQUESTED, A.ISSUED, A.REJECTED, A.WITHDRAWN}
    ),
    # An inspection that passes returns the application to "accepted", ready to issue.
    A.INSPECTION_SCHEDULED: frozenset(
        {A.INSPECTION_SCHEDULED, A.ACCEPTED, A.INFORMATION_REQUESTED, A.REJECTED, A.WITHDRAWN}
    ),
    A.ISSUED: frozenset(),
    A.REJECTED: frozenset(),
    A.WITHDRAWN: frozenset(),
}

# A revoked permit is never reinstated: a new application is needed (L5). A superseded one is
# replaced for good (B8).
PERMIT_TRANSITIONS: dict[str, frozenset[str]] = {
    P.ISSUED: frozenset({P.ISSUED, P.EXPIRED, P.SUSPENDED, P.REVOKED, P.SUPERSEDED}),
    P.EXPIRED: frozenset({P.ISSUED, P.SUPERSEDED, P.REVOKED}),
    P.SUSPENDED: frozenset({P.ISSUED, P.EXPIRED, P.REVOKED, P.SUPERSEDED}),
    P.REVOKED: frozenset(),
    P.SUPERSEDED: frozenset(),
}

# What may be done to a permit besides moving its status (B6, B7, B8); the services check these.
# B6: a permit in force or expired is renewed (a suspended one is reinstated first; L5: a revoked one
# needs a new application).
RENEWABLE: frozenset[str] = frozenset({P.ISSUED, P.EXPIRED})
# B8: a change of ownership, food types or operations opens a new application for any permit not
# revoked or already replaced.
CHANGEABLE: frozenset[str] = frozenset({P.ISSUED, P.EXPIRED, P.SUSPENDED})
# B7: the FOG Manager changes the terms of a permit that has not lapsed.
MODIFIABLE: frozenset[str] = frozenset({P.ISSUED, P.SUSPENDED})

_APPLICATION_WORDS = {
    A.SUBMITTED: "submit it",
    A.UNDER_REVIEW: "put it under review",
    A.INFORMATION_REQUESTED: "ask for more information",
    A.ACCEPTED: "accept it",
    A.INSPECTION_SCHEDULED: "schedule an on-site inspection",
    A.ISSUED: "issue a permit from it",
    A.REJECTED: "reject it",
    A.WITHDRAWN: "withdraw it",
}

_PERMIT_WORDS = {
    P.ISSUED: "put it in force",
    P.EXPIRED: "mark it expired",
    P.SUSPENDED: "suspend it",
    P.REVOKED: "revoke it",
    P.SUPERSEDED: "replace it",
}


def _label(choices, value: str) -> str:
    return str(choices(value).label).lower()


def check_application_transition(current: str, target: str) -> None:
    if target in APPLICATION_TRANSITIONS.get(current, frozenset()):
        return
    allowed = APPLICATION_TRANSITIONS.get(current, frozenset())
    if not allowed:
        raise TransitionNotAllowed(
            f"The application is {_label(A, current)}: it is closed and cannot change any more."
        )
    possible = ", ".join(sorted(_APPLICATION_WORDS[s] for s in allowed if s != current))
    raise TransitionNotAllowed(
        f"An application that is {_label(A, current)} cannot {_APPLICATION_WORDS[target]}. "
        f"From here the Town can: {possible}."
    )


def check_permit_transition(current: str, target: str) -> None:
    if target in PERMIT_TRANSITIONS.get(current, frozenset()):
        return
    if current == P.REVOKED:
        raise TransitionNotAllowed(
            "The permit is revoked: it cannot be renewed, changed or reinstated. "
            "The FSE must apply for a new permit (L5)."
        )
    if current == P.SUPERSEDED:
        raise TransitionNotAllowed(
            "The permit has been replaced by a newer permit (B8): act on the newer permit instead."
        )
    raise TransitionNotAllowed(f"A permit that is {_label(P, current)} cannot {_PERMIT_WORDS[target]}.")


def renewal_not_open_yet(permit, *, today: dt.date, ruleset: Ruleset) -> str | None:
    """B6: why a permit in force cannot be renewed yet (its renewal window has not opened), or None.
    An expired permit may be renewed at once."""
    if permit.status != P.ISSUED:
        return None
    opens = renewal_opens_on(valid_until=permit.valid_until, ruleset=ruleset)
    if today >= opens:
        return None
    return (
        f"Permit {permit.number} is in force until {fmt_date(permit.valid_until)}: its renewal opens on "
        f"{fmt_date(opens)}, {ruleset.permit_renewal_window_days} days before the term ends (B6)."
    )
