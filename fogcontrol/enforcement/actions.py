"""What this user may do to this case now, and if not, why (core.actions): the case page shows a
step's form only for an ``Allowed`` one, and the reason of a ``Refused`` one; the services refuse the
same steps for the same reasons."""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.actions import Actions, Refused, allowed_if, first_refusal
from fogcontrol.core.permissions import has_role
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, SUSPENSION_ISSUERS
from fogcontrol.enforcement.selectors.money import amounts_owed
from fogcontrol.rules.enforcement import compliance_agreement_allowed, milestone_missed

OFFICERS = "Only the FOG Manager and inspectors take this step."


def _open_violations(case) -> list:
    return [v for v in case.violations.all() if v.cured_on is None]


def agreement_verdict(case):
    """H3 for this case's establishment: Refused naming every amount owed, else Allowed."""
    verdict = compliance_agreement_allowed(amounts_owed(case.establishment))
    return allowed_if(verdict.allowed, " ".join(verdict.explanation.steps)), verdict


def missed_milestones(case, today: dt.date) -> list:
    """H4: the milestones of the case's agreements not met by their date (milestones prefetched)."""
    return [
        milestone
        for agreement in case.agreements.all()
        for milestone in agreement.milestones.all()
        if milestone_missed(milestone.due_on, milestone.met_on, today)[0]
    ]


def case_actions(user, case, *, today: dt.date) -> Actions:
    """{step: Allowed | Refused(reason)} for the steps this app builds (case with its violations and
    agreements prefetched)."""
    officer = allowed_if(has_role(user, ENFORCEMENT_OFFICERS), OFFICERS, forbidden=True)
    is_open = allowed_if(
        case.closed_on is None,
        f"The case was closed on {case.closed_on:%B %-d, %Y}." if case.closed_on else "",
    )
    has_open = allowed_if(
        bool(_open_violations(case)),
        "Every violation in this case is cured: there is nothing to notify or cite.",
    )
    in_force = [a for a in case.agreements.all() if a.status == a.Status.IN_FORCE]
    no_csa = allowed_if(
        not in_force,
        f"A compliance schedule agreement is already in force (agreed {in_force[0].agreed_on:%B %-d, %Y})."
        if in_force
        else "",
    )
    actions: Actions = {
        "add_violations": first_refusal(officer, is_open),
        "notice_of_violation": first_refusal(officer, is_open, has_open),
        "citation": first_refusal(officer, is_open, has_open),
        "referral": first_refusal(officer, is_open),
        "close": first_refusal(officer, is_open),
    }
    csa = first_refusal(officer, is_open, no_csa)
    if csa:
        csa, _ = agreement_verdict(case)
    actions["compliance_agreement"] = csa
    missed = missed_milestones(case, today)
    actions["suspension"] = first_refusal(
        allowed_if(
            # The suspension notice's service takes it from the FOG Manager alone (L1): one set.
            has_role(user, SUSPENSION_ISSUERS),
            "Only the FOG Manager begins suspension or revocation.",
            forbidden=True,
        ),
        is_open,
        allowed_if(
            bool(missed),
            "No milestone of a compliance schedule agreement has been missed: suspension or revocation under "
            "H4 needs one (other L1 grounds go through the permit's order process).",
        ),
    )
    return actions


__all__ = ["Refused", "agreement_verdict", "case_actions", "missed_milestones"]
