"""Enforcement models, one module per area (violations, cases, hearings, ...). Each new module is
re-exported here so Django finds its models."""

from fogcontrol.enforcement.models.cases import Case, CaseViolation
from fogcontrol.enforcement.models.hearings import Hearing, HearingContinuance
from fogcontrol.enforcement.models.steps import (
    AdministrativeCitation,
    AgreementMilestone,
    ComplianceAgreement,
    NoticeOfViolation,
    Referral,
    ServiceMethod,
)
from fogcontrol.enforcement.models.violations import Violation

# enforcement (violations, cases, notices, citations, CSAs, referrals) adds its modules above;
# enforcement-b (complaints, penalty orders, suspensions, terminations) adds its modules below.

__all__ = [
    "AdministrativeCitation",
    "AgreementMilestone",
    "Case",
    "CaseViolation",
    "ComplianceAgreement",
    "Hearing",
    "HearingContinuance",
    "NoticeOfViolation",
    "Referral",
    "ServiceMethod",
    "Violation",
]
