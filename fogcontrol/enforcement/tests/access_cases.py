"""Enforcement access table, cases: staff see every case; an FSE user its own (`own_fse`); others
none (404). The FOG Manager and inspectors open cases and record their steps; any other role that
sees the case is refused (403) before its input is read."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, PAYMENT_RECORDERS
from fogcontrol.enforcement.services.steps import citation_issue, compliance_agreement_make, referral_record
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.testing.access import STAFF, api, page

OWN = frozenset({Role.FSE})


def build(town) -> None:
    case = a_case(town, violations=[town.records["violation"]])
    manager = town.users[Role.FOG_MANAGER]
    today = dt.date(2026, 3, 6)
    agreement = compliance_agreement_make(
        acting_user=manager, case=case, agreed_on=today, terms="Fit screens", signed_by="Owner",
        milestones=[{"description": "Screens fitted", "due_on": dt.date(2026, 4, 1)}], today=today,
    )  # fmt: skip
    town.records["milestone"] = agreement.milestones.get()
    town.records["referral"] = referral_record(
        acting_user=manager, case=case, kind="injunction", violations=[town.records["violation"]],
        referred_on=today, referred_to="Town Attorney", today=today,
    )  # fmt: skip
    town.records["citation"] = citation_issue(
        acting_user=manager, case=case, violation=town.records["violation"], number="AC-ACCESS-1",
        amount=Decimal("50.00"), issued_on=today, service_method="personal_delivery", served_on=today, today=today,
    )  # fmt: skip
    town.records["case"] = case


def _c(t):
    return t["case"].pk


def _step(name):
    return page("enforcement:case_step", lambda t: f"/enforcement/cases/{_c(t)}/steps/{name}/", method="post",
                owners=OWN, may=ENFORCEMENT_OFFICERS, label=name, body={})  # fmt: skip


ROUTES = [
    page("enforcement:case_list", "/enforcement/", record=False),
    page("enforcement:case_new", "/enforcement/cases/new/", record=False, may=ENFORCEMENT_OFFICERS),
    page("enforcement:case_detail", lambda t: f"/enforcement/cases/{_c(t)}/", owners=OWN),
    _step("notice_of_violation"),
    _step("compliance_agreement"),
    page(
        "enforcement:milestone_met",
        lambda t: f"/enforcement/cases/{_c(t)}/milestones/{t['milestone'].pk}/met/",
        method="post",
        owners=OWN,
        may=ENFORCEMENT_OFFICERS,
        body={},
    ),  # fmt: skip
    page(
        "enforcement:citation_paid",
        lambda t: f"/enforcement/cases/{_c(t)}/citations/{t['citation'].pk}/paid/",
        method="post",
        owners=OWN,
        may=PAYMENT_RECORDERS,
        body={},
    ),
    page(
        "enforcement:referral_outcome",
        lambda t: f"/enforcement/cases/{_c(t)}/referrals/{t['referral'].pk}/outcome/",
        method="post",
        owners=OWN,
        may=ENFORCEMENT_OFFICERS,
        body={},
    ),  # fmt: skip
    api("enforcement-case-list", "/api/v1/enforcement/cases/", record=False),
    api(
        "enforcement-case-list",
        "/api/v1/enforcement/cases/",
        record=False,
        method="post",
        may=ENFORCEMENT_OFFICERS,
        label="open",
        body=lambda t: {"establishment": t.own_fse.pk, "summary": "Grease"},
    ),  # fmt: skip
    api("enforcement-case-detail", lambda t: f"/api/v1/enforcement/cases/{_c(t)}/", owners=OWN),
    *[
        api(
            f"enforcement-case-{name}",
            lambda t, path=path: f"/api/v1/enforcement/cases/{_c(t)}/{path}/",
            method="post",
            owners=OWN,
            may=ENFORCEMENT_OFFICERS,
            body={},
        )  # fmt: skip
        for name, path in [
            ("notices-of-violation", "notices-of-violation"),
            ("citations", "citations"),
            ("compliance-agreements", "compliance-agreements"),
            ("referrals", "referrals"),
        ]
    ],
]

__all__ = ["ROUTES", "STAFF", "build"]
