"""What may this user do now to one record of a case's later steps, and if not, why (core.actions):
the complaint's waiver (P6), its appeal to the Town Council and the Council's outcome (P6), the
suspension or revocation order's appeal and its outcome (L6), and service reinstated after a
termination (O2). The pages show a form only for an ``Allowed`` step and the reason of a ``Refused``
one; the services (services.complaints, services.suspensions, services.terminations) refuse the same
steps for the same reasons."""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.actions import Refused, Verdict, allowed_if
from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.rules.explain import fmt_date

HEARING_ONLY = "Only the Hearing Officer or the FOG Manager records this step."
MANAGER_ONLY = "Only the FOG Manager records this step."
COUNCIL_SETTLED = ("upheld", "modified", "overturned")
ORDER_SETTLED = ("not_appealed", "upheld", "not_appealable", "overturned")


def waiver_verdict(user, complaint, hearing) -> Verdict:
    """P6: the respondent may waive the hearing until it is held."""
    if complaint.waived_on:
        return Refused(f"P6: the hearing was already waived on {fmt_date(complaint.waived_on)}.")
    if hearing is not None and hearing.held_on:
        return Refused(f"P6: the hearing was already held on {fmt_date(hearing.held_on)}.")
    return allowed_if(has_role(user, HEARING_RECORDERS), HEARING_ONLY)


def complaint_appeal_verdict(user, complaint, today: dt.date) -> Verdict:
    """P6: once the hearing officer has decided, an appeal filed within the window, then its outcome."""
    if complaint.appeal_by is None:
        return Refused("P6: the hearing officer has not decided yet: there is nothing to appeal.")
    if complaint.appeal_status in COUNCIL_SETTLED:
        return Refused(f"P6: the Town Council decided on {fmt_date(complaint.council_decided_on)}: "
                       f"{complaint.get_appeal_status_display().lower()}.")  # fmt: skip
    if not complaint.appeal_status and today > complaint.appeal_by:
        return Refused(f"P6: no appeal was filed by {fmt_date(complaint.appeal_by)}: the decision is final.")
    return allowed_if(has_role(user, HEARING_RECORDERS), HEARING_ONLY)


def order_appeal_verdict(user, hearing) -> Verdict:
    """L6: a suspension or revocation decision is final unless appealed to the Town Council."""
    order = hearing.permit_order
    if hearing.kind != "suspension" or order is None:
        return Refused("L6: only a suspension or revocation decision is appealed to the Town Council.")
    if order.decision_on is None:
        return Refused("L6: the hearing officer has not decided yet: record the decision first.")
    if order.appeal_status in ORDER_SETTLED:
        return Refused(f"L6: order {order.reference} is settled: {order.get_appeal_status_display()}.")
    return allowed_if(has_role(user, {Role.FOG_MANAGER}), MANAGER_ONLY)


def reinstatement_verdict(user, termination) -> Verdict:
    """O2: service terminated may be reinstated once, its cost owed by the discharger."""
    if termination.reinstated_on:
        return Refused(f"O2: service was reinstated on {fmt_date(termination.reinstated_on)}.")
    return allowed_if(has_role(user, {Role.FOG_MANAGER}), MANAGER_ONLY)
