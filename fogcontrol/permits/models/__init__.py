"""The permits app's records (B1-B8, A3-A5, G1-G2, L, M); see each module for the provisions it carries."""

from fogcontrol.permits.models.applications import (
    CLOSED_APPLICATION_STATUSES,
    SINK_KINDS,
    ApplicationDocument,
    ApplicationFixture,
    ApplicationKind,
    ApplicationMessage,
    ApplicationRoute,
    ApplicationStatus,
    ApplicationSubmission,
    ChangeReason,
    FixtureKind,
    PermitApplication,
)
from fogcontrol.permits.models.conditions import PermitCondition
from fogcontrol.permits.models.fees import (
    COMPLIANCE_RATE_KINDS,
    PERMIT_FEE_KINDS,
    FeeCharge,
    FeeKind,
    FeeSchedule,
    FeeScheduleLine,
)
from fogcontrol.permits.models.orders import PermitOrder
from fogcontrol.permits.models.permits import (
    Permit,
    PermitEvent,
    PermitModification,
    PermitNotice,
    PermitStatus,
    PermitVersion,
    RemodelNotice,
)

__all__ = [
    "CLOSED_APPLICATION_STATUSES",
    "SINK_KINDS",
    "ApplicationDocument",
    "ApplicationFixture",
    "ApplicationKind",
    "ApplicationMessage",
    "ApplicationSubmission",
    "ApplicationRoute",
    "ApplicationStatus",
    "ChangeReason",
    "FeeCharge",
    "PermitCondition",
    "FeeKind",
    "COMPLIANCE_RATE_KINDS",
    "PERMIT_FEE_KINDS",
    "FeeSchedule",
    "FeeScheduleLine",
    "FixtureKind",
    "Permit",
    "PermitApplication",
    "PermitEvent",
    "PermitModification",
    "PermitNotice",
    "PermitOrder",
    "PermitStatus",
    "PermitVersion",
    "RemodelNotice",
]
