"""A case as a timeline: what happened, what is due next and by when, with the provision (every
date from the rules engine, with its working), and the steps not open with why not.

``case_timeline(case, today=)`` reads only what ``selectors.cases.case_detail`` prefetched.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.urls import reverse

from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.deadlines import appeal_due
from fogcontrol.rules.enforcement import milestone_missed
from fogcontrol.rules.explain import fmt_date

DONE, DUE, LATE = "done", "due", "late"


@dataclasses.dataclass
class Step:
    """One line of the timeline: something done (``on``) or due (``due_on``), with its provision."""

    key: str
    title: str
    provision: str
    state: str
    on: dt.date | None = None
    due_on: dt.date | None = None
    detail: str = ""
    explanation: str = ""
    document_id: int | None = None  # the issued document (notices), when there is one
    links: tuple = ()  # (label, url) of the steps open on this line's record (pages only)

    @property
    def sort_date(self) -> dt.date:
        return self.on or self.due_on or dt.date.max

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "title": self.title,
            "provision": self.provision,
            "state": self.state,
            "on": self.on,
            "due_on": self.due_on,
            "detail": self.detail,
            "explanation": self.explanation,
            "document_id": self.document_id,
        }


def _due(due_on: dt.date, today: dt.date) -> str:
    return DUE if today <= due_on else LATE


def _violation_steps(case, today) -> list[Step]:
    steps = [
        Step(
            "case_opened", f"Case {case.reference} opened", "P3", DONE, on=case.opened_on, detail=case.summary
        )
    ]
    for v in case.violations.all():
        steps.append(
            Step(
                "violation",
                f"Violation of {v.provision} began",
                v.provision,
                DONE,
                on=v.began_on,
                detail=v.description,
            )
        )
        if v.cured_on:
            steps.append(
                Step("violation_cured", f"Violation of {v.provision} cured", v.provision, DONE, on=v.cured_on)
            )
    return steps


def _notice_steps(case, today) -> list[Step]:
    steps = []
    for notice in case.notices_of_violation.all():
        steps.append(
            Step(
                "notice_of_violation",
                "Notice of violation issued",
                ", ".join(sorted({v.provision for v in notice.violations.all()})),
                DONE,
                on=notice.issued_on,
                detail=f"Served by {notice.get_service_method_display().lower()} on {fmt_date(notice.served_on)}"
                + (f", article {notice.article_number}" if notice.article_number else "")
                + ".",
                document_id=notice.document_id,
            )
        )
        still_open = [v for v in notice.violations.all() if v.cured_on is None]
        if still_open:
            steps.append(
                Step(
                    "correction_due",
                    "Correction due (notice of violation)",
                    ", ".join(sorted({v.provision for v in still_open})),
                    _due(notice.correct_by, today),
                    due_on=notice.correct_by,
                    detail=notice.required_action,
                    explanation=f"The date the notice of {fmt_date(notice.issued_on)} set for the correction.",
                )
            )
    for citation in case.citations.all():
        steps.append(
            Step(
                "citation",
                f"Administrative citation {citation.number}: ${citation.amount}",
                "P2",
                DONE,
                on=citation.issued_on,
                detail=f"Chapter {citation.chapter}; served by {citation.get_service_method_display().lower()} on "
                f"{fmt_date(citation.served_on)}"
                + (f"; paid {fmt_date(citation.paid_on)}" if citation.paid_on else "; unpaid")
                + ".",
                document_id=citation.document_id,
            )
        )
    return steps


def _agreement_steps(case, today) -> list[Step]:
    steps = []
    for agreement in case.agreements.all():
        steps.append(
            Step(
                "compliance_agreement",
                "Compliance schedule agreement",
                "H1",
                DONE,
                on=agreement.agreed_on,
                detail=agreement.terms,
                document_id=agreement.document_id,
            )
        )
        for milestone in agreement.milestones.all():
            missed, why = milestone_missed(milestone.due_on, milestone.met_on, today)
            if milestone.met_on and not missed:
                steps.append(
                    Step(
                        "milestone",
                        f"Milestone met: {milestone.description}",
                        "H2",
                        DONE,
                        on=milestone.met_on,
                        explanation=why,
                    )
                )
            elif missed:
                steps.append(
                    Step(
                        "milestone_missed",
                        f"Milestone missed: {milestone.description}",
                        "H4",
                        LATE,
                        due_on=milestone.due_on,
                        explanation=why,
                    )
                )
            else:
                steps.append(
                    Step(
                        "milestone",
                        f"Milestone due: {milestone.description}",
                        "H2",
                        DUE,
                        due_on=milestone.due_on,
                        explanation=why,
                    )
                )
    return steps


_HEARING_PROVISION = {"complaint": ("P5", "P6"), "suspension": ("L2", "L4"), "emergency": ("M3", "M3")}


def _hearing_steps(case, today) -> list[Step]:
    steps = []
    for hearing in case.hearings.all():
        held_p, decide_p = _HEARING_PROVISION.get(hearing.kind, ("", ""))
        label = hearing.get_kind_display()
        working = hearing.explanation or {}
        if hearing.waived_on:
            steps.append(Step("hearing_waived", f"Hearing waived: {label}", "P6", DONE, on=hearing.waived_on))
        elif hearing.held_on is None:
            steps.append(
                Step(
                    "hearing",
                    f"Hearing: {label}" + (f" at {hearing.place}" if hearing.place else ""),
                    held_p,
                    _due(hearing.scheduled_on, today),
                    due_on=hearing.scheduled_on,
                    detail=f"Latest lawful date {fmt_date(hearing.latest_on)}." if hearing.latest_on else "",
                    explanation=(working.get(held_p) or {}).get("text", ""),
                )
            )
        else:
            steps.append(Step("hearing_held", f"Hearing held: {label}", held_p, DONE, on=hearing.held_on))
        if hearing.decided_on:
            steps.append(
                Step(
                    "decision",
                    f"Decision: {label}",
                    decide_p,
                    DONE,
                    on=hearing.decided_on,
                    detail=hearing.outcome,
                    links=decision_links(case, hearing),
                )
            )
            if hearing.kind == "complaint":
                deadline = appeal_due(
                    hearing.decided_on, ruleset=ruleset_on(hearing.decided_on), calendar=town_calendar()
                )
                if today <= deadline.due:
                    steps.append(
                        Step("appeal_window", "Appeal to the Town Council possible until", "P6", DUE, due_on=deadline.due,
                             explanation=deadline.explanation.text())
                    )  # fmt: skip
        elif hearing.decision_due_on:
            steps.append(
                Step(
                    "decision_due",
                    f"Written decision due: {label}",
                    decide_p,
                    _due(hearing.decision_due_on, today),
                    due_on=hearing.decision_due_on,
                    explanation=(working.get(decide_p) or {}).get("text", ""),
                )
            )
    return steps


def decision_links(case, hearing) -> tuple:
    """L6: the order's appeal and outcome while unsettled; a suspended permit's reinstatement order."""
    order = hearing.permit_order if hearing.kind == "suspension" else None
    if order is None:
        return ()
    links = []
    if order.decision_on and order.appeal_status in ("open", "appealed"):
        url = reverse("enforcement:record_step", args=[case.pk, "order-appeal", hearing.pk])
        links.append(("Record the appeal or finality (L6)", url))
    if order.applied_on and order.action == "suspend" and order.permit.status == "suspended":
        links.append(
            ("Reinstate the suspended permit by order", reverse("permits:order_new", args=[order.permit_id]))
        )
    return tuple(links)


def _referral_steps(case, today) -> list[Step]:
    provision = {"judicial": "P11", "injunction": "P4", "criminal": "P1"}
    steps = []
    for referral in case.referrals.all():
        steps.append(
            Step("referral", f"Referred: {referral.get_kind_display()}", provision[referral.kind], DONE, on=referral.referred_on,
                 detail=f"To {referral.referred_to}.")
        )  # fmt: skip
        if referral.outcome_on:
            steps.append(
                Step("referral_outcome", f"Outcome: {referral.get_kind_display()}", provision[referral.kind], DONE,
                     on=referral.outcome_on, detail=referral.outcome)
            )  # fmt: skip
    return steps


# Enforcement-b adds its step builders (complaints, penalty orders, suspensions, terminations) here.
STEP_BUILDERS = [_violation_steps, _notice_steps, _agreement_steps, _hearing_steps, _referral_steps]


def case_timeline(case, *, today: dt.date) -> list[Step]:
    """Every step of the case, done ones by date, then the due ones by their date."""
    steps = [step for builder in STEP_BUILDERS for step in builder(case, today)]
    if case.closed_on:
        steps.append(
            Step("case_closed", "Case closed", "", DONE, on=case.closed_on, detail=case.closed_reason)
        )
    return sorted(steps, key=lambda s: (s.sort_date, s.state != DONE))


def next_due(steps: list[Step]) -> Step | None:
    """The earliest step still due (late ones first: they are past their date)."""
    pending = [s for s in steps if s.state in (DUE, LATE) and s.due_on is not None]
    return min(pending, key=lambda s: s.due_on) if pending else None
