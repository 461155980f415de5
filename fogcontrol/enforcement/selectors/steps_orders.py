"""The timeline lines of the later steps (``selectors.steps.STEP_BUILDERS``): the administrative
complaint and its appeal (P5, P6), penalty orders and their payment (P7, P8), terminations of service
and reinstatement with their costs (O1, O2). Hearings (P5, L2-L4, M3) are ``steps._hearing_steps``.
Reads only what ``selectors.cases.case_detail`` prefetched (complaints, penalty_orders,
terminations__costs). Added to ``STEP_BUILDERS`` on import (``apps.EnforcementConfig.ready``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from fogcontrol.enforcement.selectors.steps import DONE, DUE, LATE, STEP_BUILDERS, Step
from fogcontrol.rules.explain import fmt_date, fmt_money


def complaint_links(case, complaint, today) -> tuple:
    """P6: the waiver while the hearing is neither held nor waived; the appeal to the Town Council and
    its outcome once decided, while the window is open or the appeal pending."""
    hearing = next((h for h in case.hearings.all() if h.pk == complaint.hearing_id), None)
    links = []
    if not complaint.waived_on and not (hearing and hearing.held_on) and not complaint.appeal_by:
        links.append(
            (
                "Record the waiver (P6)",
                reverse("enforcement:record_step", args=[case.pk, "waiver", complaint.pk]),
            )
        )
    by = complaint.appeal_by
    if by and (complaint.appeal_status == "filed" or (not complaint.appeal_status and today <= by)):
        label = (
            "Record the Town Council's outcome (P6)" if complaint.appeal_status else "Record the appeal (P6)"
        )
        links.append(
            (label, reverse("enforcement:record_step", args=[case.pk, "complaint-appeal", complaint.pk]))
        )
    return tuple(links)


def _penalty_proposal_step(order) -> Step:
    """A penalty order proposed and waiting for its second approval, or refused (two-person rule)."""
    link = (("Approve or refuse (second person)" if order.status == "proposed" else "See the refusal",
             reverse("enforcement:penalty_order_detail", args=[order.pk])),)  # fmt: skip
    if order.status == "proposed":
        return Step("penalty_order_proposed", f"Penalty order {order.reference} proposed: {fmt_money(order.amount)}",
                    "P7", DUE, due_on=order.proposed_on,
                    detail=f"Proposed by {order.recorded_by_label}; not issued, served or billed until a second "
                    "Hearing Officer or FOG Manager approves it.", links=link)  # fmt: skip
    return Step("penalty_order_refused", f"Penalty order {order.reference} refused", "P7", DONE,
                on=timezone.localdate(order.decided_at) if order.decided_at else None,
                detail=f"Refused by {order.decided_by_label}: {order.decision_note}", links=link)  # fmt: skip


def order_steps(case, today) -> list:
    steps = []
    for complaint in case.complaints.all():
        steps.append(
            Step("complaint", f"Administrative complaint {complaint.reference} "
                 + ("served" if complaint.served_on else "issued: waiting for mailing"), "P5", DONE,
                 on=complaint.served_on or complaint.issued_on,
                 detail=f"Proposed penalty {fmt_money(complaint.proposed_penalty)}; "
                 + (f"served {fmt_date(complaint.served_on)} by " if complaint.served_on else "to be served by ")
                 + complaint.get_service_method_display().lower()
                 + (f", article {complaint.article_number}" if complaint.article_number else "")
                 + f". Hearing no later than {fmt_date(complaint.hearing_latest_on)} (P5"
                 + (")." if complaint.served_on else ", counted from the issue until the mail log records the mailing)."),
                 explanation=(complaint.explanation.get("P5") or {}).get("text", ""), document_id=complaint.document_id,
                 links=complaint_links(case, complaint, today))
        )  # fmt: skip
        if complaint.appealed_on:
            steps.append(
                Step("complaint_appeal", "Appealed to the Town Council", "P6", DONE, on=complaint.appealed_on)
            )
        if complaint.council_decided_on:
            steps.append(
                Step("council_decision", f"Town Council: {complaint.get_appeal_status_display()}", "P6", DONE,
                     on=complaint.council_decided_on, detail=complaint.council_outcome)
            )  # fmt: skip
    for order in case.penalty_orders.all():
        if not order.in_effect:
            steps.append(_penalty_proposal_step(order))
            continue
        steps.append(
            Step("penalty_order", f"Penalty order {order.reference}: {fmt_money(order.amount)}", "P7", DONE,
                 on=order.issued_on,
                 detail=f"{order.get_violation_kind_display()}; cap {fmt_money(order.cap)}; "
                 f"{order.get_status_display().lower()}.",
                 explanation=(order.explanation.get("P7") or {}).get("text", ""), document_id=order.document_id,
                 links=(("The order and its approval", reverse("enforcement:penalty_order_detail", args=[order.pk])),))
        )  # fmt: skip
        if order.paid_on:
            steps.append(
                Step("penalty_paid", f"Penalty {order.reference} paid", "P8", DONE, on=order.paid_on)
            )
        else:
            steps.append(
                Step("penalty_due", f"Penalty {order.reference} payment due", "P8",
                     DUE if today <= order.payment_due_on else LATE, due_on=order.payment_due_on,
                     detail=f"Into the penalty account {order.account} (P12).",
                     explanation=(order.explanation.get("P8") or {}).get("text", ""))
            )  # fmt: skip
    for termination in case.terminations.all():
        costs = list(termination.costs.all())
        steps.append(
            Step("termination", "Sewer service terminated", "O1", DONE, on=termination.terminated_on,
                 detail=f"{termination.get_basis_display()}. {termination.how}", document_id=termination.document_id,
                 links=() if termination.reinstated_on else (
                     ("Record service reinstated (O2)",
                      reverse("enforcement:record_step", args=[case.pk, "reinstatement", termination.pk])),))
        )  # fmt: skip
        if termination.reinstated_on:
            steps.append(
                Step("reinstatement", "Sewer service reinstated", "O2", DONE, on=termination.reinstated_on)
            )
        if costs:
            steps.append(
                Step("service_costs", "Disconnection and reinstatement costs owed", "O2", DONE,
                     on=termination.reinstated_on or termination.terminated_on,
                     detail="; ".join(f"{c.get_kind_display()}: {fmt_money(c.amount)} owed by {c.owed_by}" for c in costs))
            )  # fmt: skip
    return steps


if order_steps not in STEP_BUILDERS:
    STEP_BUILDERS.append(order_steps)
