"""The steps of a case this app records: the notice of violation, the administrative citation (P2),
the compliance schedule agreement and its milestones (H1-H4), referrals (P11, P4, P1). Keyword-only
arguments, an acting user, one transaction, an audit entry; each step refused for the same reason
the case page gives (``actions.case_actions``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement import documents
from fogcontrol.enforcement.actions import case_actions
from fogcontrol.enforcement.models import (
    AdministrativeCitation,
    AgreementMilestone,
    Case,
    ComplianceAgreement,
    NoticeOfViolation,
    Referral,
    ServiceMethod,
    Violation,
)
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, PAYMENT_RECORDERS
from fogcontrol.enforcement.selectors.money import amounts_owed
from fogcontrol.enforcement.services import penalties
from fogcontrol.rules.enforcement import Owed, compliance_agreement_allowed
from fogcontrol.rules.explain import fmt_money

OFFICERS_ONLY = "Only the FOG Manager and inspectors take this step."


class AmountsOwed(StateConflict):
    """H3: no compliance schedule agreement while anything is owed; names the amounts."""

    def __init__(self, message: str, *, owed: list[Owed], total: Decimal):
        super().__init__(message)
        self.owed, self.total = owed, total


def _locked_case(case: Case) -> Case:
    return (
        Case.objects.select_for_update(of=("self",))
        .select_related("establishment")
        .prefetch_related("violations", "agreements__milestones")
        .get(pk=case.pk)
    )


def _check(verdict) -> None:
    if not verdict:
        if verdict.forbidden:
            raise PermissionDenied(verdict.reason)
        raise StateConflict(verdict.reason)


def _case_violations(
    case: Case, violations: Sequence[Violation], field: str = "violations"
) -> list[Violation]:
    ids = {v.pk for v in case.violations.all()}
    chosen = list(violations)
    if not chosen:
        raise ValidationError({field: "Choose at least one violation of this case."})
    strangers = [v for v in chosen if v.pk not in ids]
    if strangers:
        raise ValidationError({field: "Choose violations of this case only."})
    return chosen


def _service(*, service_method: str, issued_on: dt.date, served_on: dt.date, article_number: str) -> None:
    if service_method not in ServiceMethod.values:
        raise ValidationError({"service_method": f"Choose one of: {', '.join(ServiceMethod.values)}."})
    if served_on < issued_on:
        raise ValidationError({"served_on": "A document cannot be served before it is issued."})
    mailed = service_method in (ServiceMethod.CERTIFIED_MAIL, ServiceMethod.REGISTERED_MAIL)
    if mailed and not (article_number or "").strip():
        raise ValidationError({"article_number": "Give the certified or registered mail article number."})


def _stamp(record, acting_user) -> None:
    record.recorded_by = person(acting_user)
    record.recorded_by_label = actor_label_for(acting_user)


@transaction.atomic
def notice_of_violation_issue(
    *,
    acting_user,
    case: Case,
    violations: Sequence[Violation],
    required_action: str,
    correct_by: dt.date,
    issued_on: dt.date,
    service_method: str,
    served_on: dt.date,
    article_number: str = "",
    today: dt.date,
) -> NoticeOfViolation:
    """A written notice of the case's open violations: what to do, and by when."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = _locked_case(case)
    _check(case_actions(acting_user, case, today=today)["notice_of_violation"])
    chosen = _case_violations(case, violations)
    if not (required_action or "").strip():
        raise ValidationError(
            {"required_action": "Say what the establishment must do to correct the violations."}
        )
    if correct_by <= issued_on:
        raise ValidationError({"correct_by": "Set a correction date after the day the notice is issued."})
    _service(
        service_method=service_method, issued_on=issued_on, served_on=served_on, article_number=article_number
    )
    notice = NoticeOfViolation(
        case=case,
        required_action=required_action.strip(),
        correct_by=correct_by,
        issued_on=issued_on,
        service_method=service_method,
        served_on=served_on,
        article_number=(article_number or "").strip(),
    )
    _stamp(notice, acting_user)
    notice.save()
    notice.violations.set(chosen)
    notice.document = documents.issue(
        acting_user=acting_user, key=documents.NOTICE_OF_VIOLATION, case=case, subject=notice,
        context={
            "violations": list(chosen),
            "required_action": notice.required_action,
            "correct_by": correct_by,
        },
        service_method=service_method, served_on=served_on, article_number=notice.article_number, issued_on=issued_on,
    )  # fmt: skip
    notice.save(update_fields=["document"])
    audit_record(
        acting_user=acting_user, action="case.notice_of_violation", instance=notice, after=snapshot(notice)
    )
    return notice


@transaction.atomic
def citation_issue(
    *,
    acting_user,
    case: Case,
    violation: Violation,
    number: str,
    amount: Decimal,
    issued_on: dt.date,
    service_method: str,
    served_on: dt.date,
    article_number: str = "",
    today: dt.date,
) -> AdministrativeCitation:
    """P2: record an administrative citation issued under the Town's Chapter 1.01."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = _locked_case(case)
    _check(case_actions(acting_user, case, today=today)["citation"])
    _case_violations(case, [violation], field="violation")
    number = (number or "").strip()
    if not number:
        raise ValidationError({"number": "Give the citation number (Chapter 1.01)."})
    if AdministrativeCitation.objects.filter(number=number).exists():
        raise ValidationError({"number": f"Citation {number} is already recorded: check the number."})
    if amount is None or amount < 0:
        raise ValidationError({"amount": "Give the amount of the citation, zero or more."})
    _service(
        service_method=service_method, issued_on=issued_on, served_on=served_on, article_number=article_number
    )
    citation = AdministrativeCitation(
        case=case,
        violation=violation,
        number=number,
        amount=amount,
        issued_on=issued_on,
        service_method=service_method,
        served_on=served_on,
        article_number=(article_number or "").strip(),
    )
    _stamp(citation, acting_user)
    citation.save()
    citation.document = documents.issue(
        acting_user=acting_user, key=documents.CITATION, case=case, subject=citation,
        context={"citation_number": number, "violation": [violation], "amount": fmt_money(amount)},
        service_method=service_method, served_on=served_on, article_number=citation.article_number, issued_on=issued_on,
    )  # fmt: skip
    citation.save(update_fields=["document"])
    audit_record(acting_user=acting_user, action="case.citation", instance=citation, after=snapshot(citation))
    return citation


@transaction.atomic
def compliance_agreement_make(
    *,
    acting_user,
    case: Case,
    agreed_on: dt.date,
    terms: str,
    signed_by: str,
    milestones: Sequence[dict],
    today: dt.date,
) -> ComplianceAgreement:
    """H1, H2: a compliance schedule agreement with dated milestones. Refused (H3) while any fee,
    charge or penalty owed to the Town is unpaid: the refusal names the amounts."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = _locked_case(case)
    verdict = compliance_agreement_allowed(amounts_owed(case.establishment))
    if not verdict.allowed:
        raise AmountsOwed(
            " ".join(verdict.explanation.steps),
            owed=amounts_owed(case.establishment),
            total=verdict.total_owed,
        )
    _check(case_actions(acting_user, case, today=today)["compliance_agreement"])
    if not (terms or "").strip():
        raise ValidationError({"terms": "Write the terms of the agreement (H2)."})
    if not (signed_by or "").strip():
        raise ValidationError({"signed_by": "Name who signed for the establishment."})
    rows = list(milestones)
    if not rows:
        raise ValidationError({"milestones": "Give at least one milestone with its date."})
    for row in rows:
        if not str(row.get("description", "")).strip() or not isinstance(row.get("due_on"), dt.date):
            raise ValidationError(
                {"milestones": "Each milestone needs a description and a date (YYYY-MM-DD)."}
            )
        if row["due_on"] <= agreed_on:
            raise ValidationError({"milestones": "Each milestone falls after the day the agreement is made."})
    agreement = ComplianceAgreement(
        case=case, agreed_on=agreed_on, terms=terms.strip(), signed_by=signed_by.strip()
    )
    _stamp(agreement, acting_user)
    agreement.save()
    AgreementMilestone.objects.bulk_create(
        [
            AgreementMilestone(
                agreement=agreement, description=row["description"].strip(), due_on=row["due_on"]
            )
            for row in rows
        ]
    )
    audit_record(
        acting_user=acting_user,
        action="case.compliance_agreement",
        instance=agreement,
        after=snapshot(agreement),
    )
    return agreement


@transaction.atomic
def milestone_meet(
    *, acting_user, milestone: AgreementMilestone, met_on: dt.date, evidence: str
) -> AgreementMilestone:
    """Record a milestone met, with the day and what shows it. When every milestone is met on time the
    agreement is met."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    milestone = (
        AgreementMilestone.objects.select_for_update(of=("self",))
        .select_related("agreement")
        .get(pk=milestone.pk)
    )
    if milestone.met_on is not None:
        raise StateConflict(f"This milestone was already met on {milestone.met_on:%B %-d, %Y}.")
    if not (evidence or "").strip():
        raise ValidationError({"evidence": "Say what shows the milestone was met."})
    if met_on < milestone.agreement.agreed_on:
        raise ValidationError({"met_on": "A milestone cannot be met before the agreement was made."})
    before = snapshot(milestone)
    milestone.met_on, milestone.evidence = met_on, evidence.strip()
    milestone.save(update_fields=["met_on", "evidence"])
    agreement = milestone.agreement
    rest = agreement.milestones.all()
    if agreement.status == ComplianceAgreement.Status.IN_FORCE and all(
        m.met_on is not None and m.met_on <= m.due_on for m in rest
    ):
        agreement.status = ComplianceAgreement.Status.MET
        agreement.save(update_fields=["status"])
    audit_record(
        acting_user=acting_user,
        action="case.milestone_met",
        instance=milestone,
        before=before,
        after=snapshot(milestone),
    )
    return milestone


@transaction.atomic
def referral_record(
    *,
    acting_user,
    case: Case,
    kind: str,
    violations: Sequence[Violation],
    referred_on: dt.date,
    referred_to: str,
    today: dt.date,
) -> Referral:
    """Record a referral to the courts: judicial civil penalties (P11), an injunction (P4) or a
    criminal citation (P1)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    case = _locked_case(case)
    _check(case_actions(acting_user, case, today=today)["referral"])
    if kind not in Referral.Kind.values:
        raise ValidationError({"kind": f"Choose one of: {', '.join(Referral.Kind.values)}."})
    chosen = _case_violations(case, violations)
    if kind == Referral.Kind.JUDICIAL:
        penalties.refuse_judicial_after_administrative(chosen)  # P10 (enforcement-b)
    if not (referred_to or "").strip():
        raise ValidationError(
            {"referred_to": "Say to whom the case was referred (Town Attorney, District Attorney)."}
        )
    referral = Referral(case=case, kind=kind, referred_on=referred_on, referred_to=referred_to.strip())
    _stamp(referral, acting_user)
    referral.save()
    referral.violations.set(chosen)
    audit_record(acting_user=acting_user, action="case.referral", instance=referral, after=snapshot(referral))
    return referral


@transaction.atomic
def referral_outcome_record(
    *,
    acting_user,
    referral: Referral,
    outcome: str,
    outcome_on: dt.date,
    amount_recovered: Decimal | None = None,
) -> Referral:
    """Record what the court (or prosecutor) decided; a judicial civil penalty recovered bars an
    administrative one for the same violations (P10)."""
    require_role(acting_user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    referral = Referral.objects.select_for_update(of=("self",)).get(pk=referral.pk)
    if referral.outcome_on is not None:
        raise StateConflict("The outcome of this referral is already recorded.")
    if not (outcome or "").strip():
        raise ValidationError({"outcome": "Say what was decided."})
    if outcome_on < referral.referred_on:
        raise ValidationError({"outcome_on": "The outcome cannot come before the referral."})
    if amount_recovered is not None and referral.kind != Referral.Kind.JUDICIAL:
        raise ValidationError({"amount_recovered": "Only a judicial civil penalty (P11) recovers an amount."})
    before = snapshot(referral)
    referral.outcome, referral.outcome_on, referral.amount_recovered = (
        outcome.strip(),
        outcome_on,
        amount_recovered,
    )
    referral.save(update_fields=["outcome", "outcome_on", "amount_recovered"])
    audit_record(
        acting_user=acting_user,
        action="case.referral_outcome",
        instance=referral,
        before=before,
        after=snapshot(referral),
    )
    return referral


@transaction.atomic
def citation_record_payment(
    *, acting_user, citation: AdministrativeCitation, paid_on: dt.date
) -> AdministrativeCitation:
    """Record that a citation was paid (until billing keeps the Town's receipts): it is then no longer
    an amount owed under H3."""
    require_role(
        acting_user, PAYMENT_RECORDERS, "Only the FOG Manager and the Billing Clerk record payments."
    )
    citation = AdministrativeCitation.objects.select_for_update(of=("self",)).get(pk=citation.pk)
    if citation.paid_on is not None:
        raise StateConflict(f"Citation {citation.number} was already paid on {citation.paid_on:%B %-d, %Y}.")
    if paid_on < citation.issued_on:
        raise ValidationError({"paid_on": "A citation cannot be paid before it was issued."})
    before = snapshot(citation)
    citation.paid_on = paid_on
    citation.save(update_fields=["paid_on"])
    audit_record(
        acting_user=acting_user,
        action="case.citation_paid",
        instance=citation,
        before=before,
        after=snapshot(citation),
    )
    return citation
