"""Enforcement access table, the later steps (enforcement-b): complaints, hearings (list, one,
continuances, decision, appeal), penalty orders, suspension notices, emergency suspensions and
terminations, API and pages.

Staff see every record; an FSE user those of its own establishment's case (`own_fse`); other outside
roles none (404). Complaints: the FOG Manager and inspectors; hearings and penalty orders: the Hearing
Officer and the FOG Manager; suspension, emergency and termination: the FOG Manager. Anyone else who
sees the record is refused (403) before the body is read; a write that passes the role check may
still be judged 400/409 on its input (PASSES).
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, HEARING_RECORDERS
from fogcontrol.enforcement.services.penalties import penalty_order_propose
from fogcontrol.enforcement.services.suspensions import (
    emergency_suspension_order,
    hearing_window,
    suspension_notice_issue,
)
from fogcontrol.enforcement.services.terminations import service_terminate
from fogcontrol.enforcement.tests.helpers_orders import (
    FACTORS,
    a_case_of_kind,
    a_complaint,
    a_permit,
    ago,
    issue_penalty_order,
)
from fogcontrol.testing.access import STAFF, api, page
from fogcontrol.testing.factories import UserFactory

OWN = frozenset({Role.FSE})
MANAGER = frozenset({Role.FOG_MANAGER})


def build(town) -> None:
    """A case at the FSE's own establishment at the later stages: a complaint served with its hearing,
    a suspension notice with its hearing, a penalty order, and an emergency suspension with the sewer
    service terminated on it."""
    manager = town.users[Role.FOG_MANAGER]
    case = a_case_of_kind(town)
    a_permit(town)
    complaint = a_complaint(town, case)
    mailed = ago(3)
    suspension = suspension_notice_issue(
        acting_user=manager, case=case, kind="suspension", grounds=["violation"], facts="Two SSOs.",
        mailed_on=mailed, article_number="9407 1", hearing_on=hearing_window(mailed)["earliest"],
        hearing_place="Council Chamber",
    )  # fmt: skip
    penalty = issue_penalty_order(
        acting_user=town.users[Role.HEARING_OFFICER], case=case, violation_kind="maintenance", days=5,
        amount=1000, hearing_officer_name="A. Reyes", factors=FACTORS, issued_on=ago(2),
        service_method="personal_delivery", served_on=ago(2),
    )  # fmt: skip
    # Proposed by a second Hearing Officer, so that both the town's Hearing Officer and its FOG Manager
    # may decide it (two-person rule); the FSE never sees a proposal.
    proposed = penalty_order_propose(
        acting_user=UserFactory(username="hearing_officer_2", role=Role.HEARING_OFFICER), case=case,
        violation_kind="maintenance", days=1, amount=500, hearing_officer_name="A. Reyes", factors=FACTORS,
    )  # fmt: skip
    emergency = emergency_suspension_order(
        acting_user=manager, case=case, ordered_on=ago(2), determination="SSO", determined_by="FOG Manager"
    )
    termination = service_terminate(
        acting_user=manager,
        case=case,
        terminated_on=ago(1),
        how="Plugged.",
        permit_order=emergency.permit_order,
    )
    town.records.update(
        order_case=case,
        complaint=complaint,
        suspension_hearing=suspension,
        penalty=penalty,
        proposed_penalty=proposed,
        termination=termination,
    )


def _pk(name):
    return lambda t: t[name].pk


def _url(template, *names):
    return lambda t: template.format(*(t[name].pk for name in names))


CASE = "/api/v1/enforcement/cases/{}/"
PAGE_STEPS = [
    ("complaint", ENFORCEMENT_OFFICERS),
    ("suspension-notice", MANAGER),
    ("emergency-suspension", MANAGER),
    ("penalty-order", HEARING_RECORDERS),
    ("termination", MANAGER),
]
# The pages that record a step on one record of the case (views.records).
RECORD_STEPS = [
    ("waiver", "complaint", HEARING_RECORDERS),
    ("complaint-appeal", "complaint", HEARING_RECORDERS),
    ("order-appeal", "suspension_hearing", MANAGER),
    ("reinstatement", "termination", MANAGER),
]
ROUTES = [
    # Steps on a case.
    api("enforcement-case-steps-complaints", _url(CASE + "complaints/", "order_case"), method="post",
        owners=OWN, may=ENFORCEMENT_OFFICERS),
    api("enforcement-case-steps-suspension-notices", _url(CASE + "suspension-notices/", "order_case"),
        method="post", owners=OWN, may=MANAGER),
    api("enforcement-case-steps-terminations", _url(CASE + "terminations/", "order_case"), method="post",
        owners=OWN, may=MANAGER),
    # Complaints.
    api("enforcement-complaint-list", "/api/v1/enforcement/complaints/", record=False),
    api("enforcement-complaint-detail", _url("/api/v1/enforcement/complaints/{}/", "complaint"), owners=OWN),
    api("enforcement-complaint-waiver", _url("/api/v1/enforcement/complaints/{}/waiver/", "complaint"),
        method="post", owners=OWN, may=HEARING_RECORDERS),
    api("enforcement-complaint-appeal", _url("/api/v1/enforcement/complaints/{}/appeal/", "complaint"),
        method="post", owners=OWN, may=HEARING_RECORDERS),
    # Hearings.
    api("enforcement-hearing-list", "/api/v1/enforcement/hearings/", record=False),
    api("enforcement-hearing-detail", _url("/api/v1/enforcement/hearings/{}/", "suspension_hearing"), owners=OWN),
    api("enforcement-hearing-continuances", _url("/api/v1/enforcement/hearings/{}/continuances/", "suspension_hearing"),
        method="post", owners=OWN, may=HEARING_RECORDERS),
    api("enforcement-hearing-decision", _url("/api/v1/enforcement/hearings/{}/decision/", "suspension_hearing"),
        method="post", owners=OWN, may=HEARING_RECORDERS),
    api("enforcement-hearing-appeal", _url("/api/v1/enforcement/hearings/{}/appeal/", "suspension_hearing"),
        method="post", owners=OWN, may=MANAGER),
    # Penalty orders.
    api("enforcement-penalty-order-list", "/api/v1/enforcement/penalty-orders/", record=False),
    api("enforcement-penalty-order-list", "/api/v1/enforcement/penalty-orders/", record=False, method="post",
        may=HEARING_RECORDERS, label="issue"),
    api("enforcement-penalty-order-cap", "/api/v1/enforcement/penalty-orders/cap/", record=False,
        body={"violation_kind": "maintenance", "days": 3}),
    api("enforcement-penalty-order-detail", _url("/api/v1/enforcement/penalty-orders/{}/", "penalty"), owners=OWN),
    api("enforcement-penalty-order-appeal", _url("/api/v1/enforcement/penalty-orders/{}/appeal/", "penalty"),
        method="post", owners=OWN, may=HEARING_RECORDERS),
    # The second approval (two-person rule): a proposal is staff's only.
    api("enforcement-penalty-order-detail", _url("/api/v1/enforcement/penalty-orders/{}/", "proposed_penalty"),
        scope=STAFF, label="proposed"),
    api("enforcement-penalty-order-approve", _url("/api/v1/enforcement/penalty-orders/{}/approve/", "proposed_penalty"),
        method="post", scope=STAFF, may=HEARING_RECORDERS),
    api("enforcement-penalty-order-refuse", _url("/api/v1/enforcement/penalty-orders/{}/refuse/", "proposed_penalty"),
        method="post", scope=STAFF, may=HEARING_RECORDERS, body={"note": "The days are not shown."}),
    page("enforcement:penalty_order_detail", _url("/enforcement/penalty-orders/{}/", "penalty"), owners=OWN),
    page("enforcement:penalty_order_detail", _url("/enforcement/penalty-orders/{}/", "proposed_penalty"),
         scope=STAFF, label="proposed"),
    page("enforcement:penalty_order_approve", _url("/enforcement/penalty-orders/{}/approve/", "proposed_penalty"),
         method="post", scope=STAFF, may=HEARING_RECORDERS),
    page("enforcement:penalty_order_refuse", _url("/enforcement/penalty-orders/{}/refuse/", "proposed_penalty"),
         method="post", scope=STAFF, may=HEARING_RECORDERS, body={"note": "The days are not shown."}),
    # Emergency suspension.
    api("enforcement-emergency-list", "/api/v1/enforcement/emergency-suspensions/", record=False, method="post",
        may=MANAGER),
    # Terminations of service.
    api("enforcement-termination-list", "/api/v1/enforcement/terminations/", record=False),
    api("enforcement-termination-detail", _url("/api/v1/enforcement/terminations/{}/", "termination"), owners=OWN),
    api("enforcement-termination-reinstatement",
        _url("/api/v1/enforcement/terminations/{}/reinstatement/", "termination"), method="post", owners=OWN,
        may=MANAGER),
    # Pages: each step's form (GET) and its submission (POST), the hearing and its forms.
    *[page("enforcement:order_step", _url("/enforcement/cases/{}/later/" + step + "/", "order_case"), owners=OWN,
           may=who, label=step) for step, who in PAGE_STEPS],
    *[page("enforcement:order_step", _url("/enforcement/cases/{}/later/" + step + "/", "order_case"), owners=OWN,
           may=who, method="post", label=step) for step, who in PAGE_STEPS],
    *[page("enforcement:record_step", _url("/enforcement/cases/{}/record/" + step + "/{}/", "order_case", record),
           owners=OWN, may=who, method=method, label=step) for step, record, who in RECORD_STEPS
      for method in ("get", "post")],
    page("enforcement:suspension_notice_new", _url("/enforcement/cases/{}/suspension-notice/", "order_case"),
         owners=OWN, may=MANAGER),
    page("enforcement:hearing_detail", _url("/enforcement/hearings/{}/", "suspension_hearing"), owners=OWN),
    page("enforcement:hearing_continue", _url("/enforcement/hearings/{}/continue/", "suspension_hearing"),
         method="post", owners=OWN, may=HEARING_RECORDERS),
    page("enforcement:hearing_decide", _url("/enforcement/hearings/{}/decide/", "suspension_hearing"),
         method="post", owners=OWN, may=HEARING_RECORDERS),
]  # fmt: skip
