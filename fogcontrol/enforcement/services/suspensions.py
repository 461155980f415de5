"""Suspension and revocation through a case (L1-L6) and emergency suspension (M1-M3), on permits'
``PermitOrder``: the enforcement step records the order with its process (``permit_order_record``)
and the hearing on the case's timeline; the decision is ``hearings.hearing_decide``; the appeal's
outcome makes the order final and applies it to the permit (``permit_suspend`` / ``permit_revoke``).
An emergency order takes effect at once. Each is issued as a document (notices app)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role
from fogcontrol.enforcement import documents_orders as documents
from fogcontrol.enforcement.documents import Joined, words
from fogcontrol.enforcement.models import Case, Hearing
from fogcontrol.enforcement.roles import SUSPENSION_ISSUERS
from fogcontrol.enforcement.services.hearings import locked_hearing, projected_decision_due, rules_for, stamp
from fogcontrol.permits.models import Permit, PermitOrder, PermitStatus
from fogcontrol.permits.services.orders import (
    permit_order_notice_mailed,
    permit_order_record,
    permit_order_record_appeal,
)
from fogcontrol.permits.services.permit_status import permit_revoke, permit_suspend
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.deadlines import (
    emergency_decision_due,
    emergency_hearing_due,
    revocation_hearing_window,
)
from fogcontrol.rules.explain import fmt_date

MANAGER_ONLY = "Only the FOG Manager begins suspension, revocation or emergency suspension."


def hearing_window(mailed_on: dt.date) -> dict:
    """L2: {earliest, latest, explanation}: the first business day on or after day 15 and the last
    business day on or before day 45 after mailing."""
    window = revocation_hearing_window(mailed_on, **rules_for(mailed_on))
    return {
        "earliest": window.earliest_business_day,
        "latest": window.latest,
        "explanation": window.explanation.text(),
    }


def emergency_dates(ordered_on: dt.date, hearing_on: dt.date | None = None) -> dict:
    """M3: the hearing no later than 5 business days after the order, and the written decision no later
    than 2 business days after the hearing (counted from ``hearing_on`` when set, else the latest)."""
    hearing = emergency_hearing_due(ordered_on, **rules_for(ordered_on))
    held = hearing_on or hearing.due
    decision = emergency_decision_due(held, **rules_for(held))
    return {
        "hearing_by": hearing.due,
        "decision_by": decision.due,
        "explanation": {
            "M3-hearing": hearing.explanation.as_record(),
            "M3-decision": decision.explanation.as_record(),
        },
    }


def current_permit(case: Case, *, statuses=(PermitStatus.ISSUED,)) -> Permit:
    permit = (
        Permit.objects.select_for_update(of=("self",))
        .filter(establishment=case.establishment, status__in=statuses)
        .order_by("-pk")
        .first()
    )
    if permit is None:
        raise StateConflict(
            f"{case.establishment.business_name} has no permit in force to suspend or revoke: an unpermitted "
            "discharger's sewer service is terminated after notice instead (O1)."
        )
    return permit


def _locked_case(case: Case) -> Case:
    case = Case.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=case.pk)
    if case.closed_on:
        raise StateConflict(f"The case was closed on {fmt_date(case.closed_on)}.")
    return case


@transaction.atomic
def suspension_notice_issue(
    *,
    acting_user,
    case: Case,
    kind: str,
    grounds: Sequence[str],
    facts: str,
    mailed_on: dt.date | None,
    article_number: str,
    hearing_on: dt.date | None,
    hearing_place: str,
) -> Hearing:
    """L1, L2: the notice of proposed suspension or revocation by certified mail, with a hearing inside
    the L2 window. No hearing date, or one outside the window, is refused naming L2. Nothing happens
    to the permit until the decision is final (L6).

    With no ``mailed_on`` the notice is issued **waiting for mailing** (its letter waits in the
    certified mail run) and the window is counted from today, the earliest mailing; when the mail log
    records the day it was mailed, ``suspension_notice_mailed`` counts the window again from it."""
    require_role(acting_user, SUSPENSION_ISSUERS, MANAGER_ONLY)
    case = _locked_case(case)
    if kind not in (PermitOrder.Kind.SUSPENSION, PermitOrder.Kind.REVOCATION):
        raise ValidationError({"kind": "Choose suspension or revocation."})
    if hearing_on is None:
        raise ValidationError(
            {
                "hearing_on": "L2: a permit is suspended or revoked only after a hearing: give the hearing date set in the notice."
            }
        )
    start = mailed_on or town_today()
    window = hearing_window(start)
    if not (window["earliest"] <= hearing_on <= window["latest"]):
        mailed = f"the notice mailed on {fmt_date(mailed_on)}" if mailed_on else (
            f"a notice mailed today, {fmt_date(start)} (counted again from the mail log's date)")  # fmt: skip
        raise ValidationError(
            {"hearing_on": f"L2: the hearing must be set between {fmt_date(window['earliest'])} and "
             f"{fmt_date(window['latest'])} after {mailed}; {fmt_date(hearing_on)} is outside that window."}
        )  # fmt: skip
    permit = current_permit(
        case,
        statuses=(PermitStatus.ISSUED, PermitStatus.SUSPENDED)
        if kind == "revocation"
        else (PermitStatus.ISSUED,),
    )
    order = permit_order_record(
        permit=permit, acting_user=acting_user, kind=kind, facts=facts, grounds=list(grounds),
        notice_mailed_on=mailed_on, certified_mail_number=article_number, hearing_on=hearing_on,
        hearing_place=hearing_place, notice_to_be_mailed=mailed_on is None,
    )  # fmt: skip
    hearing = Hearing(
        case=case,
        kind=Hearing.Kind.SUSPENSION,
        permit_order=order,
        first_scheduled_on=hearing_on,
        scheduled_on=hearing_on,
        place=order.hearing_place,
        latest_on=window["latest"],
        explanation={"L2": order.explanation.get("L2", {}), **({} if mailed_on else {"L2-waiting": True})},
    )
    hearing.decision_due_on, working = projected_decision_due(hearing)
    hearing.explanation["L4"] = working
    stamp(hearing, acting_user)
    hearing.save()
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_suspension_notice",
        case=case,
        context={
            "order_kind": documents.ORDER_KINDS[order.kind],
            "permit_number": permit.number,
            "facts": order.facts,
            "grounds": Joined(tuple(documents.GROUNDS.get(ground, ground) for ground in order.grounds), "; "),
            "hearing_on": hearing_on,
            "hearing_place": order.hearing_place,
            "hearing_window": words(
                gettext_noop("Under L2 the hearing is held between %(earliest)s and %(latest)s."),
                earliest=window["earliest"],
                latest=window["latest"],
            ),
        },
        subject=hearing,
        service_method="certified_mail",
        served_on=None,
        article_number=order.certified_mail_number,
        issued_on=start,
    )
    hearing.explanation["notice_document"] = document.pk
    hearing.save(update_fields=["explanation"])
    return hearing


@transaction.atomic
def suspension_notice_mailed(
    *, acting_user, hearing: Hearing, mailed_on: dt.date, article_number: str = ""
) -> Hearing:
    """L2: the mail log recorded the day the notice was mailed by certified mail (notices'
    ``document_served``): the order's mailing date and the hearing's window are counted from it
    (``rules.deadlines.revocation_hearing_window``, through ``permit_order_notice_mailed``). Refused,
    naming L2 and the window, when the hearing set in the notice falls outside it."""
    hearing = locked_hearing(hearing)
    order = hearing.permit_order
    if order.notice_mailed_on == mailed_on and not hearing.explanation.get("L2-waiting"):
        return hearing
    if hearing.held_on or hearing.decided_on:
        raise ValidationError(
            {"served_on": "L2: the hearing was already held: the notice's mailing can no longer change."}
        )
    order = permit_order_notice_mailed(
        acting_user=acting_user, order=order, mailed_on=mailed_on, certified_mail_number=article_number
    )
    hearing.latest_on = order.hearing_latest_on
    explanation = {**hearing.explanation, "L2": order.explanation.get("L2", {})}
    explanation.pop("L2-waiting", None)
    hearing.explanation = explanation
    hearing.save(update_fields=["latest_on", "explanation"])
    return hearing


@transaction.atomic
def emergency_suspension_order(
    *,
    acting_user,
    case: Case,
    ordered_on: dt.date,
    determination: str,
    determined_by: str,
    hearing_on: dt.date | None = None,
    hearing_place: str = "",
    service_method: str = "personal_delivery",
    article_number: str = "",
) -> Hearing:
    """M1: suspend the permit at once to stop an actual or impending SSO or endangerment; M3: the hearing
    within 5 business days (it does not stay the order) and the decision 2 business days after it."""
    require_role(acting_user, SUSPENSION_ISSUERS, MANAGER_ONLY)
    case = _locked_case(case)
    if ordered_on is None:
        raise ValidationError({"ordered_on": "M1: give the date of the emergency suspension order."})
    dates = emergency_dates(ordered_on, hearing_on)
    hearing_on = hearing_on or dates["hearing_by"]
    permit = current_permit(case)
    order = permit_order_record(
        permit=permit, acting_user=acting_user, kind=PermitOrder.Kind.EMERGENCY_SUSPENSION, facts=determination,
        emergency_order_on=ordered_on, determined_by=determined_by, hearing_on=hearing_on,
        hearing_place=hearing_place,
    )  # fmt: skip
    permit_suspend(permit=permit, acting_user=acting_user, order=order, reason="Emergency suspension (M1)")
    hearing = Hearing(
        case=case,
        kind=Hearing.Kind.EMERGENCY,
        permit_order=order,
        first_scheduled_on=hearing_on,
        scheduled_on=hearing_on,
        place=(hearing_place or "").strip(),
        latest_on=dates["hearing_by"],
        decision_due_on=dates["decision_by"],
        explanation=dates["explanation"],
    )
    stamp(hearing, acting_user)
    hearing.save()
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_emergency_order",
        case=case,
        context={
            "order_reference": order.reference,
            "permit_number": permit.number,
            "ordered_on": ordered_on,
            "determination": order.facts,
            "hearing_by": dates["hearing_by"],
            "decision_by": dates["decision_by"],
        },
        subject=hearing,
        service_method=service_method,
        served_on=ordered_on,
        article_number=article_number,
        issued_on=ordered_on,
    )
    hearing.explanation["order_document"] = document.pk
    hearing.save(update_fields=["explanation"])
    return hearing


@transaction.atomic
def suspension_appeal_record(
    *, acting_user, hearing: Hearing, appeal_status: str, final_on: dt.date | None = None
) -> Hearing:
    """L6: the decision became final (not appealed, or upheld by the Town Council) or was appealed or
    overturned. A final order that suspends or revokes is applied to the permit the same day (L5)."""
    require_role(
        acting_user, {Role.FOG_MANAGER}, "Only the FOG Manager records the appeal and applies the order."
    )
    hearing = locked_hearing(hearing)
    if hearing.kind != Hearing.Kind.SUSPENSION or hearing.permit_order is None:
        raise StateConflict("Only a suspension or revocation decision is appealed to the Town Council (L6).")
    order = permit_order_record_appeal(
        order=hearing.permit_order, acting_user=acting_user, appeal_status=appeal_status, final_on=final_on
    )
    if order.final_on and order.action in ("suspend", "revoke") and order.applied_on is None:
        apply = permit_suspend if order.action == "suspend" else permit_revoke
        apply(
            permit=order.permit,
            acting_user=acting_user,
            order=order,
            reason=f"Final order (L6), case {hearing.case.reference}",
        )
    return hearing
