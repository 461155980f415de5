"""The work queues' bulk actions (issue #17): many records, one decision, each through the service
that decides one record.

One transaction per item, not per batch. Each routine renewal is accepted (if not yet) and its
permit issued by permits' own services (`application_accept`, `permit_issue`, with the defaults the
issue form offers) inside one transaction of its own: a renewal the services refuse (a fee owed,
B3; a licence expired, B6; a device the sizing check finds wanting, A4/A5) is reported with their
reason and left as it was, and the others are renewed.

Each flag is reviewed by `servicing.services.flag_review`
in its own transaction (the flag re-read and locked inside it), audited there as if reviewed by
hand. A flag someone else reviewed meanwhile, or one the service refuses, is reported with the
service's reason and the others still go through: one stale row never undoes the hundreds reviewed
beside it, and a referral's enforcement violation (servicing.signals.manifest_flag_referred) is
committed with its own flag. The batch is bounded (`BULK_LIMIT`) so a request stays short.
"""

from __future__ import annotations

import dataclasses

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.permits.models import ApplicationKind, ApplicationStatus, PermitApplication
from fogcontrol.permits.roles import DECIDERS
from fogcontrol.permits.services import application_accept, permit_issue
from fogcontrol.servicing.models import ManifestFlag
from fogcontrol.servicing.permissions import STEP_ROLES
from fogcontrol.servicing.services import flag_review

BULK_LIMIT = 1000  # records in one batch: select fewer (a filter) and run again for more


@dataclasses.dataclass
class BulkResult:
    done: list[int] = dataclasses.field(default_factory=list)
    refused: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (id, why)

    @property
    def summary(self) -> str:
        words = f"{len(self.done)} done"
        if self.refused:
            words += f", {len(self.refused)} refused"
        return words


def _why(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)


def _bounded_ids(queryset, *, too_many: str, none: str) -> list[int]:
    """The ids a batch takes, in id order; refused before anything is written when there are more
    than ``BULK_LIMIT`` (``too_many``) or none (``none``)."""
    ids = list(queryset.order_by("pk").values_list("pk", flat=True)[: BULK_LIMIT + 1])
    if len(ids) > BULK_LIMIT:
        raise ValidationError(too_many)
    if not ids:
        raise ValidationError(none)
    return ids


def _each_in_its_own_transaction(model, ids: list[int], decide) -> BulkResult:
    """``decide(record)`` for each id, the record re-read and locked in a transaction of its own; a
    refusal is kept with its reason and the others still go through."""
    result = BulkResult()
    for pk in ids:
        try:
            with transaction.atomic():
                decide(model.objects.select_for_update().get(pk=pk))
        except (StateConflict, ValidationError, PermissionDenied) as error:
            result.refused.append((pk, _why(error)))
        else:
            result.done.append(pk)
    return result


def flags_review_bulk(*, flags, acting_user, outcome: str, note: str = "") -> BulkResult:
    """Review every flag of `flags` (a queryset the user may see) with one outcome and one note.

    Raises PermissionDenied for a role that may not review, ValidationError for a bad outcome or a
    referral without a reason, or for too many flags (before anything is written)."""
    require_role(acting_user, *STEP_ROLES["review"])
    if outcome not in (ManifestFlag.Review.CLEARED, ManifestFlag.Review.REFERRED):
        raise ValidationError({"outcome": "Choose cleared or referred."})
    if outcome == ManifestFlag.Review.REFERRED and not note.strip():
        raise ValidationError(
            {"note": "Say why the manifests are referred for enforcement (one reason for all)."}
        )
    ids = _bounded_ids(
        flags,
        too_many=f"At most {BULK_LIMIT} flags at once: narrow the filters (a flag code) and run it again.",
        none="No flag is selected: tick the flags to review, or select all that match.",
    )

    def review(flag):
        flag_review(flag=flag, acting_user=acting_user, outcome=outcome, note=note)

    return _each_in_its_own_transaction(ManifestFlag, ids, review)


# A routine renewal the FOG Manager may approve at once: a renewal application (B6) filed and waiting
# for the Town's decision, not one with an on-site inspection under way.
ROUTINE_RENEWAL_STATUSES = (
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.UNDER_REVIEW,
    ApplicationStatus.ACCEPTED,
)


def routine_renewals(applications):
    """The renewal applications of `applications` (scoped) that a bulk approval takes."""
    return applications.filter(kind=ApplicationKind.RENEWAL, status__in=ROUTINE_RENEWAL_STATUSES)


def renewals_approve_bulk(*, applications, acting_user, note: str = "") -> BulkResult:
    """B5, B6: accept each routine renewal of `applications` (if not yet accepted) and issue its
    permit's next version, each in its own transaction, through the permits services."""
    require_role(acting_user, DECIDERS, "Only the FOG Manager may approve renewals (B5).")
    ids = _bounded_ids(
        routine_renewals(applications),
        too_many=f"At most {BULK_LIMIT} renewals at once: narrow the filters and run it again.",
        none="No routine renewal is selected: tick renewal applications that are submitted, under review "
        "or accepted, or select all that match.",
    )

    def renew(application):
        if application.status != ApplicationStatus.ACCEPTED:
            application = application_accept(
                application=application, acting_user=acting_user, note=note or "Routine renewal."
            )
        permit_issue(application=application, acting_user=acting_user)

    return _each_in_its_own_transaction(PermitApplication, ids, renew)
