"""Enforcement models, one module per area (violations, cases, hearings, ...). Each new module is
re-exported here so Django finds its models."""

from fogcontrol.enforcement.models.cases import Case, CaseViolation

# enforcement (violations, cases, notices, citations, CSAs, referrals) adds its modules above;
# enforcement-b (complaints, penalty orders, suspensions, terminations) adds its modules below.
from fogcontrol.enforcement.models.complaints import AdministrativeComplaint  # noqa: E402
from fogcontrol.enforcement.models.hearings import Hearing, HearingContinuance
from fogcontrol.enforcement.models.orders import ServiceCost, ServiceTermination  # noqa: E402
from fogcontrol.enforcement.models.penalties import PenaltyOrder  # noqa: E402
from fogcontrol.enforcement.models.steps import (
    AdministrativeCitation,
    AgreementMilestone,
    ComplianceAgreement,
    NoticeOfViolation,
    Referral,
    ServiceMethod,
)
from fogcontrol.enforcement.models.violations import Violation

__all__ = [
    "AdministrativeComplaint",
    "PenaltyOrder",
    "ServiceCost",
    "ServiceTermination",
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
