"""Who decides what in the permits app (B5: "issuance by the FOG Manager")."""

from fogcontrol.core.roles import Role

# Who decides on applications and permits: accept, reject, issue, suspend, revoke, modify (B5, B7).
DECIDERS = frozenset({Role.FOG_MANAGER})
# Who may review: ask for information, schedule and record inspections, file on an FSE's behalf.
REVIEWERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# Who sets the fee schedule. Fees are set by Council resolution; the FOG Manager records it, and
# every signed-in user may read it (docs/architecture.md, "Who may see what").
FEE_EDITORS = frozenset({Role.FOG_MANAGER})
# Who records that a fee was paid (B3): the FOG Manager and the billing clerk, at the counter.
FEE_COLLECTORS = frozenset({Role.FOG_MANAGER, Role.BILLING_CLERK})
# Who applies: the FSE's own users (the services check it is their establishment) and the FOG
# Manager's staff, who file on an FSE's behalf (B3).
APPLICANTS = REVIEWERS | {Role.FSE}
# Who records a hearing officer's decision on an order, and its appeal (L3, L4, L6; M3).
DECISION_RECORDERS = frozenset({Role.HEARING_OFFICER, Role.FOG_MANAGER})

_APPLICANT = (APPLICANTS, "Only the establishment's own users and the FOG Manager's staff may do this.")
_REVIEWER = (REVIEWERS, "Only the FOG Manager and inspectors may do this.")
_DECIDER = (DECIDERS, "Only the FOG Manager may do this.")

# Who may take each step at all, by step: a role outside it is refused (403) before its input is
# read, in pages and API alike (fogcontrol.core.api.views.StepRoles). The services check again, and
# check what the role alone does not say (the FSE's own establishment, the record's state).
STEP_ROLES: dict[str, tuple[frozenset, str]] = {
    "apply": _APPLICANT,
    "edit": _APPLICANT,
    "document": _APPLICANT,
    "submit": _APPLICANT,
    "respond": _APPLICANT,
    "note": _APPLICANT,
    "withdraw": _APPLICANT,
    "start_review": _REVIEWER,
    "request_information": _REVIEWER,
    "schedule_inspection": _REVIEWER,
    "record_inspection": _REVIEWER,
    "accept": _DECIDER,
    "reject": _DECIDER,
    "issue": _DECIDER,
    "pay_fee": (FEE_COLLECTORS, "Only the FOG Manager and the billing clerk record payments."),
    "waive_fee": (DECIDERS, "Only the FOG Manager waives a fee (B3)."),
    "set_fees": (FEE_EDITORS, "Only the FOG Manager may set fees."),
    "renew": _APPLICANT,
    "change": _APPLICANT,
    "modify": (DECIDERS, "Only the FOG Manager may change the terms of a permit."),
    "withdraw_modification": (DECIDERS, "Only the FOG Manager may withdraw a modification."),
    "record_order": (
        DECIDERS,
        "Only the FOG Manager records suspension, revocation and reinstatement orders.",
    ),
    "apply_order": (DECIDERS, "Only the FOG Manager applies an order to a permit."),
    "decide_order": (
        DECISION_RECORDERS,
        "Only a hearing officer or the FOG Manager records decisions and appeals.",
    ),
    "remodel": _APPLICANT,
    "decide_plans": _REVIEWER,
}
