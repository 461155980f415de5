"""What may this user do to this record now, and if not, why (Saleor's ``can_*`` checks).

Each app answers with one function per record, e.g. ``permit_actions(user, permit)``, returning
``{action: Allowed() | Refused(reason)}``. Pages show a button only for an ``Allowed`` action (a
``Refused`` one is falsy in a template, and its ``reason`` can be shown instead); the services
refuse the same steps for the same reasons, so a button shown is a step the service takes.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Allowed:
    ok = True
    reason = ""

    def __bool__(self) -> bool:
        return True


@dataclasses.dataclass(frozen=True)
class Refused:
    """Not now, or not by this user; ``reason`` says which, in words the user can act on.
    ``forbidden`` marks the second kind (the user's role never takes this step: a service answers
    it as permission denied, 403, not as a conflict with the record's state, 409), so no caller
    tells the two apart by the words (which a translation would change)."""

    reason: str
    forbidden: bool = dataclasses.field(default=False, compare=False)
    ok = False

    def __bool__(self) -> bool:
        return False


ALLOWED = Allowed()

Verdict = Allowed | Refused
Actions = dict[str, Verdict]


def allowed_if(condition: bool, reason: str, *, forbidden: bool = False) -> Verdict:
    return ALLOWED if condition else Refused(reason, forbidden=forbidden)


def first_refusal(*verdicts: Verdict) -> Verdict:
    """The first refusal among the checks (who, then when), else Allowed."""
    for verdict in verdicts:
        if not verdict:
            return verdict
    return ALLOWED
